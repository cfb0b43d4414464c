#!/usr/bin/env bash
# Runs every fuzz smoke driver on its corpus: fuzz_smoke.sh BIN_DIR CORPUS_DIR MUTATIONS
set -eu
for t in fen uci san pgn; do
  "$1/fuzz_smoke_$t" "$2/$t" "$3" 1
done
