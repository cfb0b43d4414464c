// The page's files, read once at start into memory and served by exact path: no request ever
// reaches the file system, so no path (`..`, encoded slashes, symlinks) can name a file
// outside the page's folder. Each file has its content type, a strong ETag and the bytes.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace arena::web {

struct StaticFile {
  std::string content_type;
  std::string etag;  // "\"<hex of a 64-bit hash>\""
  std::string body;
};

class StaticFiles {
 public:
  // Reads every regular file under `root` (at most `max_bytes` in all); dot files are skipped.
  static absl::StatusOr<StaticFiles> Load(const std::string& root, size_t max_bytes = 64 << 20);
  // For tests: files given as path ("/index.html") -> bytes.
  static StaticFiles FromMap(const std::map<std::string, std::string>& files);

  // The file for a request path (its query string already cut): "/" is "/index.html".
  // nullptr when there is none.
  const StaticFile* Find(std::string_view path) const;
  size_t size() const { return files_.size(); }

 private:
  void Add(std::string path, std::string body);
  std::map<std::string, StaticFile, std::less<>> files_;
};

// The Content-Type for a file name by its extension; "application/octet-stream" otherwise.
std::string_view ContentTypeFor(std::string_view path);

}  // namespace arena::web
