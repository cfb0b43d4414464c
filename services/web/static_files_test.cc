#include "services/web/static_files.h"

#include <filesystem>
#include <fstream>

#include "gtest/gtest.h"

namespace arena::web {
namespace {

TEST(StaticFiles, ServesExactPathsOnly) {
  StaticFiles files = StaticFiles::FromMap({{"/index.html", "<html>"}, {"/js/app.js", "x"}});
  ASSERT_NE(files.Find("/"), nullptr);
  EXPECT_EQ(files.Find("/")->body, "<html>");
  EXPECT_EQ(files.Find("/index.html")->content_type, "text/html; charset=utf-8");
  EXPECT_EQ(files.Find("/js/app.js")->content_type, "text/javascript; charset=utf-8");
  EXPECT_EQ(files.Find("/js/../index.html"), nullptr);
  EXPECT_EQ(files.Find("/js%2fapp.js"), nullptr);
  EXPECT_EQ(files.Find("//index.html"), nullptr);
  EXPECT_EQ(files.Find("/etc/passwd"), nullptr);
  EXPECT_EQ(files.Find(""), nullptr);
}

TEST(StaticFiles, EtagsFollowTheBytes) {
  StaticFiles a = StaticFiles::FromMap({{"/a.css", "one"}, {"/b.css", "two"}});
  StaticFiles b = StaticFiles::FromMap({{"/a.css", "one"}});
  EXPECT_NE(a.Find("/a.css")->etag, a.Find("/b.css")->etag);
  EXPECT_EQ(a.Find("/a.css")->etag, b.Find("/a.css")->etag);
}

TEST(StaticFiles, LoadReadsTheTreeAndSkipsDotFiles) {
  namespace fs = std::filesystem;
  fs::path root = fs::temp_directory_path() / ("arena-web-static-" + std::to_string(::getpid()));
  fs::create_directories(root / "js");
  fs::create_directories(root / ".git");
  std::ofstream(root / "index.html") << "<!doctype html>";
  std::ofstream(root / "js" / "board.js") << "export {}";
  std::ofstream(root / ".secret") << "no";
  std::ofstream(root / ".git" / "config") << "no";
  auto files = StaticFiles::Load(root.string());
  ASSERT_TRUE(files.ok()) << files.status();
  EXPECT_EQ(files->size(), 2u);
  EXPECT_NE(files->Find("/js/board.js"), nullptr);
  EXPECT_EQ(files->Find("/.secret"), nullptr);
  EXPECT_EQ(files->Find("/.git/config"), nullptr);
  EXPECT_FALSE(StaticFiles::Load((root / "missing").string()).ok());
  EXPECT_FALSE(StaticFiles::Load(root.string(), 4).ok()) << "over the byte cap";
  fs::remove_all(root);
}

}  // namespace
}  // namespace arena::web
