#include "tools/arenactl/text_table.h"

#include <algorithm>
#include <utility>

namespace arena::arenactl {
namespace {

// Columns line up by characters on the terminal, not bytes: "±" is two bytes of UTF-8.
size_t DisplayWidth(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

}  // namespace

TextTable::TextTable(std::vector<Column> columns) : columns_(std::move(columns)) {}

void TextTable::AddRow(std::vector<std::string> cells) {
  cells.resize(columns_.size());
  rows_.push_back(std::move(cells));
}

void TextTable::Print(std::FILE* out) const {
  std::vector<size_t> width(columns_.size());
  for (size_t c = 0; c < columns_.size(); ++c) {
    width[c] = DisplayWidth(columns_[c].name);
    for (const auto& row : rows_) width[c] = std::max(width[c], DisplayWidth(row[c]));
  }
  auto print_row = [&](const std::vector<std::string>& cells) {
    std::string line;
    for (size_t c = 0; c < cells.size(); ++c) {
      const bool last = c + 1 == cells.size();
      const std::string pad(width[c] - DisplayWidth(cells[c]), ' ');
      if (c > 0) line += ' ';
      if (columns_[c].right) {
        line += pad + cells[c];
      } else {
        line += cells[c];
        if (!last) line += pad;
      }
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();  // an empty last cell
    std::fprintf(out, "%s\n", line.c_str());
  };
  std::vector<std::string> header;
  for (const Column& c : columns_) header.push_back(c.name);
  print_row(header);
  for (const auto& row : rows_) print_row(row);
}

}  // namespace arena::arenactl
