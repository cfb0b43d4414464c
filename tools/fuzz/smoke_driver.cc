// Runs a fuzz entry point without libFuzzer, so the corpus is exercised in every normal (and
// ASan) build: every file of the corpus directory, then `mutations` seeded random mutations
// of them (byte flips, inserts, deletes, splices and chess tokens).
//
//   fuzz_smoke_<target> CORPUS_DIR [MUTATIONS] [SEED]
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

constexpr const char* kTokens[] = {
    "/",  " ",  "-", "KQkq", "w",   "b",   "8",  "1",   "e3", "d6",
    "x",  "=Q", "+", "#",    "O-O", "{",   "}",  "(",   ")",  "[%clk 0:01:00]",
    "\"", "[",  "]", "\n",   "1.",  "...", "$1", "0-1", "*",  "q"};

void Run(const std::string& input) {
  // A copy in its own allocation, so ASan catches reads past the end.
  std::vector<uint8_t> buffer(input.begin(), input.end());
  LLVMFuzzerTestOneInput(buffer.data(), buffer.size());
}

std::string Mutate(const std::vector<std::string>& corpus, std::mt19937_64& rng) {
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
        s.insert(pos, kTokens[rng() % std::size(kTokens)]);
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
    std::fprintf(stderr, "usage: %s CORPUS_DIR [MUTATIONS] [SEED]\n", argv[0]);
    return 2;
  }
  const long mutations = argc > 2 ? std::atol(argv[2]) : 3000;
  std::mt19937_64 rng(argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 1);
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
  for (long i = 0; i < mutations; ++i) Run(Mutate(corpus, rng));
  std::printf("%zu corpus files and %ld mutations ran clean\n", corpus.size(), mutations);
  return 0;
}
