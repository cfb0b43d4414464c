#include "tools/arenactl/ranked_commands.h"

#include <unistd.h>

#include <csignal>
#include <cstdio>

#include "absl/flags/flag.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "tools/arenactl/text_table.h"

ABSL_DECLARE_FLAG(std::string, reason);
ABSL_DECLARE_FLAG(std::string, state);

ABSL_FLAG(bool, no_wait, false,
          "ranked queue: join and return at once (default: show the search until paired).");
ABSL_FLAG(bool, refund, false, "review-flag action: pay the opponent what they lost.");
ABSL_FLAG(bool, block, false, "review-flag action: freeze the reported account.");
ABSL_FLAG(bool, inactive, false, "ranked city: the city takes no new players.");

namespace arena::arenactl {
namespace {

volatile std::sig_atomic_t g_interrupted = 0;

std::string Fee(int bps) {
  return absl::StrFormat("%d.%02d%%", bps / 100, bps % 100);
}

int Cities() {
  ArenaClient c;
  v1::ListCitiesResponse r;
  if (!c.Call(&Stub::ListCities, v1::ListCitiesRequest(), &r)) return 1;
  TextTable table({{"CITY"}, {"NAME"}, {"STAKE", true}, {"FEE", true}, {"ACTIVE"}});
  for (const v1::City& city : r.cities()) {
    table.AddRow({city.city_id(), city.name(), Credits(city.stake_microcredits()),
                  Fee(city.fee_bps()), city.active() ? "yes" : "no"});
  }
  table.Print();
  return 0;
}

// One line describing where the caller stands.
std::string Describe(const v1::RankedStatus& st) {
  if (st.state() == "searching") {
    std::string line = absl::StrFormat("searching… %s %s, rating %.0f, widened to ±%d, %lds",
                                       st.city_id(), st.time_control(), st.rating(), st.window(),
                                       static_cast<long>(st.waited_ms() / 1000));
    if (st.next_widening_ms() > 0) {
      absl::StrAppend(&line, absl::StrFormat(" (wider in %lds)",
                                             static_cast<long>(st.next_widening_ms() / 1000 + 1)));
    }
    return line;
  }
  if (st.state() == "starting" || st.state() == "playing") {
    std::string line =
        absl::StrFormat("%s: %s %s against %s (%.0f), stake %s, fee %s", st.state(), st.city_id(),
                        st.time_control(), st.opponent(), st.opponent_rating(),
                        Credits(st.stake_microcredits()), Fee(st.fee_bps()));
    if (st.state() == "playing") {
      absl::StrAppend(&line, absl::StrFormat("\n  game %s, you are %s: arenactl play %s --seat=%d",
                                             st.game_id(), st.seat() == 0 ? "white" : "black",
                                             st.game_id(), st.seat()));
    }
    return line;
  }
  return "idle: not in a queue";
}

int Status() {
  ArenaClient c;
  v1::RankedStatus st;
  if (!c.Call(&Stub::GetRankedStatus, v1::RankedStatusRequest(), &st)) return 1;
  std::printf("%s\n", Describe(st).c_str());
  return 0;
}

int Queue(const Args& a) {
  if (a.size() != 3) return Usage("ranked queue CITY TIME_CONTROL [--no_wait]");
  ArenaClient c;
  v1::JoinRankedQueueRequest join;
  join.set_city_id(a[1]);
  join.set_time_control(a[2]);
  v1::RankedStatus st;
  if (!c.Call(&Stub::JoinRankedQueue, join, &st)) return 1;
  if (absl::GetFlag(FLAGS_no_wait)) {
    std::printf("%s\n", Describe(st).c_str());
    return 0;
  }
  // The live line: redrawn in place on a terminal, one line per change otherwise. Ctrl-C
  // leaves the queue (instantly; a pairing already made is not undone).
  const bool tty = isatty(STDOUT_FILENO) == 1;
  std::signal(SIGINT, [](int) { g_interrupted = 1; });
  std::string last;
  while (!g_interrupted) {
    std::string line = Describe(st);
    if (st.state() != "searching") {
      if (tty) std::printf("\r\033[K");
      std::printf("%s\n", line.c_str());
      return st.state() == "idle" ? 1 : 0;
    }
    const std::string shown = line.substr(0, line.find(", rating"));
    if (tty) {
      std::printf("\r\033[K%s", line.c_str());
      std::fflush(stdout);
    } else if (shown + std::to_string(st.window()) != last) {
      std::printf("%s\n", line.c_str());
      std::fflush(stdout);
      last = shown + std::to_string(st.window());
    }
    absl::SleepFor(absl::Seconds(1));
    if (!c.Call(&Stub::GetRankedStatus, v1::RankedStatusRequest(), &st)) return 1;
  }
  v1::RankedStatus left;
  if (!c.Call(&Stub::LeaveRankedQueue, v1::LeaveRankedQueueRequest(), &left)) return 1;
  if (tty) std::printf("\r\033[K");
  std::printf("%s\n", left.left() ? "left the queue" : Describe(left).c_str());
  return 130;
}

int Leave() {
  ArenaClient c;
  v1::RankedStatus st;
  if (!c.Call(&Stub::LeaveRankedQueue, v1::LeaveRankedQueueRequest(), &st)) return 1;
  std::printf("%s\n", st.left() ? "left the queue" : Describe(st).c_str());
  return 0;
}

int History(const Args& a) {
  if (a.size() > 2) return Usage("ranked history [ACCOUNT] [--limit=N]");
  ArenaClient c;
  v1::RankedGamesRequest req;
  if (a.size() == 2) req.set_account(a[1]);
  req.set_limit(absl::GetFlag(FLAGS_limit));
  v1::RankedGamesResponse r;
  if (!c.Call(&Stub::ListRankedGames, req, &r)) return 1;
  TextTable ratings({{"TIME CONTROL"}, {"RATING", true}, {"DEVIATION", true}, {"GAMES", true}});
  for (const v1::PersonRating& p : r.ratings()) {
    ratings.AddRow({p.time_control(), p.label(), absl::StrFormat("%.0f", p.deviation()),
                    std::to_string(p.games())});
  }
  ratings.Print();
  std::printf("\n");
  TextTable games({{"PAIRED (UTC)"},
                   {"CITY"},
                   {"TC"},
                   {"COLOUR"},
                   {"OPPONENT"},
                   {"RATING", true},
                   {"STATE"},
                   {"RESULT"},
                   {"STAKE", true},
                   {"PAID BACK", true},
                   {"RATING AFTER", true},
                   {"GAME"}});
  for (const v1::RankedGame& g : r.games()) {
    games.AddRow(
        {FormatTime(g.paired_at()), g.city_id(), g.time_control(),
         g.colour().empty() ? "-" : g.colour(),
         absl::StrFormat("%s (%.0f)", g.opponent(), g.opponent_rating()),
         absl::StrFormat("%.0f", g.rating()), g.state(),
         g.result().empty() ? "-" : g.result() + (g.reason().empty() ? "" : ", " + g.reason()),
         Credits(g.stake_microcredits()), Credits(g.payout_microcredits()),
         g.rating_after() > 0 ? absl::StrFormat("%.0f", g.rating_after()) : "-",
         g.game_id().empty() ? "-" : g.game_id()});
  }
  games.Print();
  return 0;
}

int PutCity(const Args& a) {
  if (a.size() != 5) {
    return Usage("ranked city ID NAME STAKE FEE_BPS [--inactive] --reason=WHY (admins)");
  }
  v1::AdminPutCityRequest req;
  v1::City* city = req.mutable_city();
  city->set_city_id(a[1]);
  city->set_name(a[2]);
  int64_t stake = 0;
  int fee = 0;
  if (!ParseCredits(a[3], &stake) || !absl::SimpleAtoi(a[4], &fee)) {
    std::fprintf(stderr,
                 "arenactl: STAKE is credits (\"2.5\"), FEE_BPS basis points (500 = 5%%)\n");
    return 2;
  }
  city->set_stake_microcredits(stake);
  city->set_fee_bps(fee);
  city->set_active(!absl::GetFlag(FLAGS_inactive));
  req.set_reason(absl::GetFlag(FLAGS_reason));
  ArenaClient c;
  v1::City out;
  if (!c.Call(&Stub::AdminPutCity, req, &out)) return 1;
  std::printf("city %s: stake %s, fee %s, %s\n", out.city_id().c_str(),
              Credits(out.stake_microcredits()).c_str(), Fee(out.fee_bps()).c_str(),
              out.active() ? "active" : "inactive");
  return 0;
}

void PrintFlags(const google::protobuf::RepeatedPtrField<v1::FairPlayFlag>& flags) {
  TextTable table({{"REPORT", true},
                   {"FLAGGED (UTC)"},
                   {"ACCOUNT"},
                   {"COLOUR"},
                   {"OPPONENT"},
                   {"MOVES", true},
                   {"MATCH", true},
                   {"ACPL", true},
                   {"THINK MS", true},
                   {"OPP. LOST", true},
                   {"STATE"},
                   {"GAME"}});
  for (const v1::FairPlayFlag& f : flags) {
    table.AddRow(
        {std::to_string(f.report_id()), FormatTime(f.created_at()),
         f.account_name().empty() ? f.account_id() : f.account_name(), f.colour(),
         f.opponent_name().empty() ? "-" : f.opponent_name(), std::to_string(f.moves_analysed()),
         absl::StrFormat("%.0f%%", 100 * f.match_rate()), absl::StrFormat("%.1f", f.acpl()),
         f.has_median_think_ms() ? absl::StrFormat("%.0f", f.median_think_ms()) : "-",
         Credits(f.opponent_loss_microcredits()),
         f.review_state() + (f.account_frozen() ? " (frozen)" : ""), f.game_id()});
  }
  table.Print();
}

}  // namespace

int RankedCommand(const Args& a) {
  const std::string sub = a.empty() ? "" : a[0];
  if (sub == "cities" && a.size() == 1) return Cities();
  if (sub == "queue") return Queue(a);
  if (sub == "status" && a.size() == 1) return Status();
  if (sub == "leave" && a.size() == 1) return Leave();
  if (sub == "history") return History(a);
  if (sub == "city") return PutCity(a);
  return Usage(
      "ranked cities | queue CITY TIME_CONTROL [--no_wait] | status | leave | history [ACCOUNT] "
      "| city ID NAME STAKE FEE_BPS --reason=WHY");
}

int FlagsCommand(const Args& a) {
  if (!a.empty()) return Usage("flags [--state=open|dismissed|actioned|all] [--limit=N]");
  ArenaClient c;
  v1::ListFairPlayFlagsRequest req;
  req.set_state(absl::GetFlag(FLAGS_state));
  req.set_limit(absl::GetFlag(FLAGS_limit));
  v1::ListFairPlayFlagsResponse r;
  if (!c.Call(&Stub::AdminListFairPlayFlags, req, &r)) return 1;
  PrintFlags(r.flags());
  return 0;
}

int ReviewFlagCommand(const Args& a) {
  int64_t report = 0;
  if (a.size() != 2 || !absl::SimpleAtoi(a[0], &report) ||
      (a[1] != "dismiss" && a[1] != "action")) {
    return Usage("review-flag REPORT_ID dismiss|action [--refund] [--block] --reason=WHY");
  }
  ArenaClient c;
  v1::ReviewFairPlayFlagRequest req;
  req.set_report_id(report);
  req.set_decision(a[1]);
  req.set_reason(absl::GetFlag(FLAGS_reason));
  req.set_refund_opponent(absl::GetFlag(FLAGS_refund));
  req.set_block(absl::GetFlag(FLAGS_block));
  v1::FairPlayFlag out;
  if (!c.Call(&Stub::AdminReviewFairPlayFlag, req, &out)) return 1;
  google::protobuf::RepeatedPtrField<v1::FairPlayFlag> one;
  *one.Add() = out;
  PrintFlags(one);
  return 0;
}

}  // namespace arena::arenactl
