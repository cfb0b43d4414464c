#include "services/web/static_files.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "absl/strings/str_format.h"

namespace arena::web {

std::string_view ContentTypeFor(std::string_view path) {
  struct Type {
    std::string_view ext, type;
  };
  static constexpr Type kTypes[] = {
      {".html", "text/html; charset=utf-8"},
      {".js", "text/javascript; charset=utf-8"},
      {".mjs", "text/javascript; charset=utf-8"},
      {".css", "text/css; charset=utf-8"},
      {".svg", "image/svg+xml"},
      {".png", "image/png"},
      {".ico", "image/x-icon"},
      {".json", "application/json"},
      {".txt", "text/plain; charset=utf-8"},
      {".webmanifest", "application/manifest+json"},
  };
  for (const Type& t : kTypes) {
    if (path.size() >= t.ext.size() && path.substr(path.size() - t.ext.size()) == t.ext) {
      return t.type;
    }
  }
  return "application/octet-stream";
}

void StaticFiles::Add(std::string path, std::string body) {
  // FNV-1a: a cache validator, not a security property.
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : body) h = (h ^ c) * 1099511628211ull;
  StaticFile f;
  f.content_type = std::string(ContentTypeFor(path));
  f.etag = absl::StrFormat("\"%016x\"", h);
  f.body = std::move(body);
  files_[std::move(path)] = std::move(f);
}

absl::StatusOr<StaticFiles> StaticFiles::Load(const std::string& root, size_t max_bytes) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(root, ec)) {
    return absl::InvalidArgumentError("--static_dir: not a directory: " + root);
  }
  StaticFiles out;
  size_t total = 0;
  for (auto it = fs::recursive_directory_iterator(root, ec); !ec && it != fs::end(it);
       it.increment(ec)) {
    const fs::path rel = fs::relative(it->path(), root, ec);
    bool hidden = false;
    for (const auto& part : rel) hidden = hidden || part.string().rfind('.', 0) == 0;
    if (hidden) {
      if (it->is_directory()) it.disable_recursion_pending();
      continue;
    }
    if (!it->is_regular_file()) continue;
    std::ifstream in(it->path(), std::ios::binary);
    std::stringstream buf;
    buf << in.rdbuf();
    std::string body = buf.str();
    total += body.size();
    if (total > max_bytes) return absl::ResourceExhaustedError("--static_dir holds too much");
    out.Add("/" + rel.generic_string(), std::move(body));
  }
  if (ec) return absl::InternalError("reading --static_dir: " + ec.message());
  return out;
}

StaticFiles StaticFiles::FromMap(const std::map<std::string, std::string>& files) {
  StaticFiles out;
  for (const auto& [path, body] : files) out.Add(path, body);
  return out;
}

const StaticFile* StaticFiles::Find(std::string_view path) const {
  if (path == "/") path = "/index.html";
  auto it = files_.find(path);
  return it == files_.end() ? nullptr : &it->second;
}

}  // namespace arena::web
