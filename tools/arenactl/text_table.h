// The tables arenactl prints: a header row of upper-case column names, then one row per
// record, columns padded to their widest cell and separated by a space, so output lines up and
// stays easy to read with awk or cut -w.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

namespace arena::arenactl {

class TextTable {
 public:
  struct Column {
    std::string name;
    bool right = false;  // right-align (numbers and amounts)
  };

  explicit TextTable(std::vector<Column> columns);

  // A row with one cell per column (missing cells are empty, extra ones ignored).
  void AddRow(std::vector<std::string> cells);

  // Prints the header and every row; the last column is not padded.
  void Print(std::FILE* out = stdout) const;

 private:
  std::vector<Column> columns_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace arena::arenactl
