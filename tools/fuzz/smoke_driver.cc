// Runs a fuzz entry point without libFuzzer, so the corpus is exercised in every normal (and
// ASan) build: every file of the corpus directory, then `mutations` seeded random mutations
// of them (byte flips, inserts, deletes, splices, and tokens of the target's dictionary).
//
//   fuzz_smoke_<target> CORPUS_DIR [MUTATIONS] [SEED] [DICTIONARY]
//
// The dictionary is libFuzzer's format (the same file serves `-dict=`): one token per line,
// `name="text"` or `"text"`, with \\, \" and \xNN escapes; `#` starts a comment.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

// The tokens of a libFuzzer dictionary; false (with a message) when a line does not parse.
bool ReadDictionary(const char* path, std::vector<std::string>* tokens) {
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "cannot read dictionary %s\n", path);
    return false;
  }
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    const size_t open = line.find('"');
    const size_t first = line.find_first_not_of(" \t");
    if (first == std::string::npos || line[first] == '#') continue;
    const size_t close = line.rfind('"');
    if (open == std::string::npos || close == open) {
      std::fprintf(stderr, "%s:%d: a token is a quoted string\n", path, n);
      return false;
    }
    std::string token;
    for (size_t i = open + 1; i < close; ++i) {
      if (line[i] != '\\' || i + 1 >= close) {
        token += line[i];
      } else if (line[i + 1] == 'x' && i + 3 < close) {
        token += char(std::stoi(line.substr(i + 2, 2), nullptr, 16));
        i += 3;
      } else {
        token += line[i + 1] == 'n' ? '\n' : line[i + 1];
        ++i;
      }
    }
    tokens->push_back(std::move(token));
  }
  return true;
}

void Run(const std::string& input) {
  // A copy in its own allocation, so ASan catches reads past the end.
  std::vector<uint8_t> buffer(input.begin(), input.end());
  LLVMFuzzerTestOneInput(buffer.data(), buffer.size());
}

std::string Mutate(const std::vector<std::string>& corpus, const std::vector<std::string>& tokens,
                   std::mt19937_64& rng) {
  std::string s = corpus[rng() % corpus.size()];
  const int edits = 1 + int(rng() % 4);
  for (int e = 0; e < edits; ++e) {
    const size_t pos = s.empty() ? 0 : rng() % (s.size() + 1);
    switch (rng() % 6) {
      case 0:
        if (!s.empty()) s[pos % s.size()] ^= char(1 << (rng() % 8));
        break;
      case 1:
        s.insert(pos, 1, char(rng() % 256));
        break;
      case 2:
        if (!s.empty()) s.erase(pos % s.size(), 1 + rng() % 4);
        break;
      case 3:
        if (!tokens.empty()) s.insert(pos, tokens[rng() % tokens.size()]);
        break;
      case 4: {
        const std::string& other = corpus[rng() % corpus.size()];
        if (!other.empty()) s.insert(pos, other.substr(rng() % other.size(), 1 + rng() % 16));
        break;
      }
      default:
        if (!s.empty()) s[pos % s.size()] = char('0' + rng() % 10);
        break;
    }
  }
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s CORPUS_DIR [MUTATIONS] [SEED] [DICTIONARY]\n", argv[0]);
    return 2;
  }
  const long mutations = argc > 2 ? std::atol(argv[2]) : 3000;
  std::mt19937_64 rng(argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 1);
  std::vector<std::string> tokens;
  if (argc > 4 && !ReadDictionary(argv[4], &tokens)) return 1;
  std::vector<std::filesystem::path> files;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(argv[1], error)) {
    if (entry.is_regular_file(error)) files.push_back(entry.path());
  }
  if (error) {
    std::fprintf(stderr, "cannot read corpus %s: %s\n", argv[1], error.message().c_str());
    return 1;
  }
  std::sort(files.begin(), files.end());  // a stable order, so a seed always means the same run
  std::vector<std::string> corpus;
  for (const auto& path : files) {
    std::ifstream in(path, std::ios::binary);
    corpus.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    Run(corpus.back());
  }
  if (corpus.empty()) {
    std::fprintf(stderr, "empty corpus %s\n", argv[1]);
    return 1;
  }
  for (long i = 0; i < mutations; ++i) Run(Mutate(corpus, tokens, rng));
  std::printf("%zu corpus files and %ld mutations (%zu dictionary tokens) ran clean\n",
              corpus.size(), mutations, tokens.size());
  return 0;
}
