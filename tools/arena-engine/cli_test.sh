#!/usr/bin/env bash
# Drives the arena-engine binary and checks its output and exit codes.
# usage: cli_test.sh path/to/arena-engine
set -u
BIN="$1"
failures=0

fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# expect_out NAME EXPECTED_EXIT EXPECTED_STDOUT -- ARGS...
expect_out() {
  local name="$1" want_code="$2" want="$3"
  shift 4
  local got code
  got="$("$BIN" "$@" 2>/tmp/arena_cli_err.$$)"
  code=$?
  if [[ "$code" != "$want_code" ]]; then
    fail "$name: exit $code, want $want_code (stderr: $(cat /tmp/arena_cli_err.$$))"
  elif [[ -n "$want" && "$got" != "$want" ]]; then
    fail "$name: output
$got
want
$want"
  fi
}

KIWI="r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

expect_out perft-start 0 "8902" -- perft --game chess --depth 3
expect_out perft-kiwi 0 "97862" -- perft --fen "$KIWI" --depth 3
expect_out perft-alias 0 "2039" -- perft --position="$KIWI" --depth=2

# --divide: one "move: count" line per legal move, the total alone on the last line.
out="$("$BIN" perft --fen "$KIWI" --depth 2 --divide)" || fail "divide exit code"
[[ "$(echo "$out" | tail -n 1)" == "2039" ]] || fail "divide total: $(echo "$out" | tail -n 1)"
[[ "$(echo "$out" | grep -c ': ')" == "48" ]] || fail "divide lines"
echo "$out" | grep -qx "e1g1: 43" || fail "divide lacks e1g1: 43"
sum=$(echo "$out" | grep ': ' | awk -F': ' '{s += $2} END {print s}')
[[ "$sum" == "2039" ]] || fail "divide sum $sum"

expect_out moves-count 0 "" -- moves --fen "$KIWI"
[[ "$("$BIN" moves --fen "$KIWI" | wc -l)" == "48" ]] || fail "moves count"
[[ "$("$BIN" moves | head -n 1)" == "a2a3" ]] || fail "moves sorted"

expect_out play-mate 0 "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3
0-1 checkmate" -- play --moves "f2f3 e7e5 g2g4 d8h4"
expect_out play-san 0 "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2
ongoing" -- play --moves "e4 e5"
expect_out play-stalemate 0 "k7/2Q5/1K6/8/8/8/8/8 b - - 1 1
1/2-1/2 stalemate" -- play --fen "k7/8/1K6/8/8/8/8/2Q5 w - - 0 1" --moves "c1c7"

# Issue 20: actions with spaces (a dart's aim and landing), as words the position groups or
# separated by ';'; both readings reach the same position.
DART="chestonia-chess players=2 darts=on dartround=1 turn=b phase=start pieces=bK0,0;wK3,4"
words="$("$BIN" play --game chestonia-chess --fen "$DART" --moves "aim 0,0 land 7,-7")" ||
  fail "aim as words: exit $?"
semis="$("$BIN" play --game chestonia-chess --fen "$DART" --moves "aim 0,0; land 7,-7")" ||
  fail "aim with ';': exit $?"
[[ -n "$words" && "$words" == "$semis" ]] || fail "aim readings differ: $words / $semis"
echo "$words" | grep -q "aim=-" || fail "the aim was not played: $words"
"$BIN" play --game chestonia-chess --fen "$DART" --moves "aim 99,99" >/dev/null \
  2>/tmp/arena_cli_err.$$
[[ "$?" == "1" ]] || fail "bad aim exit"
grep -q "move 1 'aim'" /tmp/arena_cli_err.$$ || fail "bad aim message: $(cat /tmp/arena_cli_err.$$)"

# A bad move names the move and its index, exit code 1.
"$BIN" play --moves "e2e4 e7e5 e1e3" >/dev/null 2>/tmp/arena_cli_err.$$
code=$?
[[ "$code" == "1" ]] || fail "bad move exit $code"
grep -q "move 3 'e1e3'" /tmp/arena_cli_err.$$ || fail "bad move message: $(cat /tmp/arena_cli_err.$$)"

expect_out render-coords 0 "8 r n b q k b n r
7 p p p p p p p p
6 . . . . . . . .
5 . . . . . . . .
4 . . . . . . . .
3 . . . . . . . .
2 P P P P P P P P
1 R N B Q K B N R
  a b c d e f g h" -- render --coords
expect_out render-black 0 "" -- render --perspective 1 --coords
[[ "$("$BIN" render --perspective 1 --coords | head -n 1)" == "1 R N B K Q B N R" ]] ||
  fail "render from black: $("$BIN" render --perspective 1 --coords | head -n 1)"

"$BIN" games | grep -q "^chess" || fail "games lists chess"

# Usage errors: 2. Bad input: 1.
expect_out no-command 2 "" --
expect_out bad-command 2 "" -- frobnicate
expect_out bad-flag 2 "" -- perft --depht 3
expect_out no-depth 2 "" -- perft
expect_out bad-depth 2 "" -- perft --depth x
expect_out bad-game 1 "" -- moves --game nosuchgame
expect_out bad-fen 1 "" -- moves --fen "8/8/8/8/8/8/8/8 w - - 0 1"
expect_out bad-variant 1 "" -- moves --variant "colour=red"
"$BIN" moves --fen "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0" 2>/tmp/arena_cli_err.$$ >/dev/null
grep -qi "fen" /tmp/arena_cli_err.$$ || fail "bad FEN message: $(cat /tmp/arena_cli_err.$$)"

rm -f /tmp/arena_cli_err.$$
if [[ $failures -gt 0 ]]; then
  echo "$failures check(s) failed" >&2
  exit 1
fi
echo "all arena-engine checks passed"
