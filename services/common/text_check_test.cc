#include "services/common/text_check.h"

#include <string>

#include "arena/v1/arena.pb.h"
#include "arena/v1/game_state.pb.h"
#include "gtest/gtest.h"

namespace arena::common {
namespace {

using namespace std::string_literals;

absl::StatusCode Code(std::string_view text, TextRule rule = {}) {
  return CheckText("f", text, rule).code();
}

TEST(TextCheckTest, AcceptsPlainAndMultibyteText) {
  EXPECT_EQ(Code("Ada Lovelace"), absl::StatusCode::kOk);
  EXPECT_EQ(Code(""), absl::StatusCode::kOk);
  EXPECT_EQ(Code("Čapek ♞ 棋 🐉"), absl::StatusCode::kOk);
}

TEST(TextCheckTest, RefusesNulAndControlCharactersNamingTheField) {
  for (std::string bad : {"a\0b"s, "\x01"s, "line\nbreak"s, "tab\there"s, "del\x7f"s, "c1\xc2\x85"s,
                          "esc\x1b[31m"s}) {
    absl::Status s = CheckText("seats[0].display_name", bad, TextRule{});
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << bad;
    EXPECT_NE(std::string(s.message()).find("seats[0].display_name: control character"),
              std::string::npos)
        << s.message();
  }
  EXPECT_NE(std::string(CheckText("x", "a\0b"s, {}).message()).find("U+0000 at byte 1"),
            std::string::npos);
}

TEST(TextCheckTest, MultilineFieldsMayHoldNewlinesAndTabsOnly) {
  TextRule multi{100, true};
  EXPECT_EQ(Code("one\ntwo\tthree", multi), absl::StatusCode::kOk);
  EXPECT_EQ(Code("one\rtwo", multi), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Code("nul\0"s, multi), absl::StatusCode::kInvalidArgument);
}

TEST(TextCheckTest, RefusesInvalidUtf8) {
  for (std::string bad : {"\xff"s, "\xc0\xaf"s /* overlong '/' */, "\xed\xa0\x80"s /* surrogate */,
                          "\xe2\x82"s /* truncated */, "\xf4\x90\x80\x80"s /* > U+10FFFF */}) {
    absl::Status s = CheckText("memo", bad, TextRule{});
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(std::string(s.message()).find("memo: not valid UTF-8"), std::string::npos);
  }
}

TEST(TextCheckTest, BoundsLengthWithoutEchoingTheText) {
  std::string long_text(1000, 'z');
  absl::Status s = CheckText("display_name", long_text, TextRule{64, false});
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(std::string(s.message()), "display_name: longer than 64 bytes (1000)");
  EXPECT_EQ(Code(std::string(64, 'z'), TextRule{64, false}), absl::StatusCode::kOk);
}

TEST(TextCheckTest, SanitizedTextAlwaysPasses) {
  TextRule rule{10, true};
  EXPECT_EQ(SanitizeText("a\0b\nc\x1b"s, rule), "a b\nc ");
  EXPECT_EQ(SanitizeText("\xff", rule), "\xEF\xBF\xBD");
  // Cut at a character boundary: five 2-byte letters fit in 10 bytes, the sixth does not.
  EXPECT_EQ(SanitizeText("ééééééé", rule), "ééééé");
  for (std::string raw : {"\0\0\0"s, "\xc3"s, "ok\xe2\x82"s, std::string(50, '\x01')}) {
    EXPECT_TRUE(CheckText("f", SanitizeText(raw, rule), rule).ok());
  }
}

TEST(TextCheckTest, WalksNestedAndRepeatedFieldsWithTheirRules) {
  v1::CreateTableRequest req;
  req.set_idempotency_key("k1");
  req.add_seats()->set_display_name("fine");
  req.add_seats()->set_display_name("bad\0name"s);
  absl::Status s = CheckMessageText(req);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(std::string(s.message()).find("seats[1].display_name"), std::string::npos)
      << s.message();

  req.mutable_seats(1)->set_display_name(std::string(65, 'x'));  // display_name: 64
  EXPECT_NE(std::string(CheckMessageText(req).message()).find("longer than 64"), std::string::npos);
  req.mutable_seats(1)->set_display_name(std::string(64, 'x'));
  EXPECT_TRUE(CheckMessageText(req).ok());

  v1::SubmitActionRequest act;
  act.set_annotation("I take the knight.\nThen the rook.");  // multi-line field
  EXPECT_TRUE(CheckMessageText(act).ok());
  act.mutable_move()->set_text("e2e4\n");
  EXPECT_NE(std::string(CheckMessageText(act).message()).find("move.text"), std::string::npos);

  v1::SendCreditsRequest send;
  send.set_idempotency_key("k\0other"s);
  EXPECT_NE(std::string(CheckMessageText(send).message()).find("idempotency_key"),
            std::string::npos);
}

}  // namespace
}  // namespace arena::common
