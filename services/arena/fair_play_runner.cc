#include "services/arena/fair_play_runner.h"

#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "common/log.h"
#include "engine/chess/notation.h"
#include "engine/chess/position.h"
#include "google/protobuf/util/time_util.h"
#include "services/arena/ranked/fair_play_store.h"

namespace arena::service {
namespace {

namespace chess = engine::chess;
using google::protobuf::util::TimeUtil;

// Claims the oldest settled game waiting for the check, with who had white and both ratings
// before it. Several arena replicas share the queue: a game another replica is claiming now is
// skipped (SKIP LOCKED) and a claimed one waits out its claim, which outlives any check; a
// replica that died mid-check leaves a claim that expires.
constexpr char kNextGame[] =
    "WITH next AS (SELECT pairing_id FROM arena.ranked_pairings "
    "  WHERE state = 'finished' AND fair_play = 'pending' AND game_id IS NOT NULL "
    "  AND white IS NOT NULL "
    "  AND (fair_play_claimed_until IS NULL OR fair_play_claimed_until < now()) "
    "  ORDER BY ended_at, pairing_id LIMIT 1 FOR UPDATE SKIP LOCKED) "
    "UPDATE arena.ranked_pairings p SET fair_play_claimed_until = now() + interval '10 minutes' "
    "FROM next WHERE p.pairing_id = next.pairing_id "
    "RETURNING p.pairing_id, p.game_id, p.player_a, p.player_b, p.rating_a, p.rating_b, p.white";

constexpr char kMarkDone[] =
    "UPDATE arena.ranked_pairings SET fair_play = 'done' "
    "WHERE pairing_id = $1 AND fair_play = 'pending'";

constexpr char kMarkFailed[] =
    "UPDATE arena.ranked_pairings SET fair_play = 'failed', fair_play_error = $2 "
    "WHERE pairing_id = $1 AND fair_play = 'pending'";

int64_t MillisOf(const google::protobuf::Timestamp& t) {
  return TimeUtil::TimestampToMilliseconds(t);
}

}  // namespace

absl::StatusOr<ranked::FairPlayGame> FairPlayGameFromRecord(const v1::GameRecord& record,
                                                            double white_rating,
                                                            double black_rating) {
  const v1::GameView& view = record.final_view();
  if (view.engine_game() != "chess") {
    return absl::InvalidArgumentError(
        absl::StrCat("the fair-play check reads chess games, not '", view.engine_game(), "'"));
  }
  // The chess serialization is "chess1|<start FEN>|<moves>|...": the game's own start.
  std::vector<std::string> fields = absl::StrSplit(view.position(), '|');
  if (fields.size() < 2 || fields[0] != "chess1") {
    return absl::InvalidArgumentError("the record's position is not a chess serialization");
  }
  ranked::FairPlayGame game;
  auto start = chess::Position::FromFen(fields[1]);
  if (!start.ok()) return start.status();
  if (fields[1] != chess::Position::StartPosition().Fen()) game.start_fen = fields[1];
  game.ratings = {white_rating, black_rating};

  chess::Position pos = *start;
  int64_t last_ms = -1;  // when the previous move was made (or the last player sat down)
  bool timings_known = true;
  for (const v1::GameEvent& ev : record.events()) {
    if (ev.type() == "joined") {
      if (game.moves.empty() && ev.has_at()) last_ms = MillisOf(ev.at());
      continue;
    }
    if (ev.type() != "action") continue;
    auto move = chess::ParseMove(pos, ev.action());
    if (!move.ok()) {
      return absl::InvalidArgumentError(absl::StrCat("move ", game.moves.size() + 1, " '",
                                                     ev.action(), "': ", move.status().message()));
    }
    game.moves.push_back(chess::MoveToUci(*move));
    chess::Position::Undo undo;
    pos.DoMove(*move, undo);
    if (!ev.has_at() || last_ms < 0) {
      timings_known = false;
    } else {
      const int64_t at = MillisOf(ev.at());
      game.think_ms.push_back(at > last_ms ? at - last_ms : 0);
    }
    if (ev.has_at()) last_ms = MillisOf(ev.at());
  }
  if (!timings_known) game.think_ms.clear();  // all or nothing, as the check wants
  return game;
}

FairPlayRunner::FairPlayRunner(common::PgPool& pool, clients::ServiceClients& clients,
                               FairPlayRunnerOptions options)
    : pool_(pool), clients_(clients), options_(std::move(options)) {}

FairPlayRunner::~FairPlayRunner() {
  Stop();
}

void FairPlayRunner::Start() {
  std::lock_guard<std::mutex> lock(mu_);
  if (thread_.joinable()) return;
  stopping_ = false;
  thread_ = std::thread([this] { Run(); });
}

void FairPlayRunner::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void FairPlayRunner::Wake() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    wake_ = true;
  }
  cv_.notify_all();
}

void FairPlayRunner::Run() {
  while (true) {
    absl::Duration pause = absl::ZeroDuration();
    auto worked = RunOnce();
    if (!worked.ok()) {
      common::LogWarning("fair-play check: will try again",
                         {{"error", std::string(worked.status().message())}});
      pause = options_.retry;
    } else if (!*worked) {
      pause = options_.idle;
    }
    std::unique_lock<std::mutex> lock(mu_);
    if (stopping_) return;
    if (pause > absl::ZeroDuration()) {
      cv_.wait_for(lock, absl::ToChronoMilliseconds(pause), [this] { return stopping_ || wake_; });
    }
    wake_ = false;
    if (stopping_) return;
  }
}

absl::StatusOr<bool> FairPlayRunner::RunOnce() {
  struct Work {
    int64_t pairing_id = 0;
    std::string game_id, player_a, player_b, white;
    double rating_a = 0, rating_b = 0;
  };
  std::optional<Work> work;
  absl::Status read = pool_.Transact([&](pqxx::transaction_base& txn) -> absl::Status {
    work.reset();
    pqxx::result r = txn.exec(kNextGame);
    if (r.empty()) return absl::OkStatus();
    Work w;
    w.pairing_id = r[0][0].as<int64_t>();
    w.game_id = r[0][1].as<std::string>();
    w.player_a = r[0][2].as<std::string>();
    w.player_b = r[0][3].as<std::string>();
    w.rating_a = r[0][4].as<double>();
    w.rating_b = r[0][5].as<double>();
    w.white = r[0][6].as<std::string>();
    work = std::move(w);
    return absl::OkStatus();
  });
  if (!read.ok()) return read;
  if (!work) return false;

  const bool a_white = work->white == work->player_a;
  const std::string& white = a_white ? work->player_a : work->player_b;
  const std::string& black = a_white ? work->player_b : work->player_a;
  const double white_rating = a_white ? work->rating_a : work->rating_b;
  const double black_rating = a_white ? work->rating_b : work->rating_a;

  auto fail = [&](const absl::Status& why) -> absl::StatusOr<bool> {
    common::LogError("fair-play check: the game cannot be analysed",
                     {{"pairing_id", work->pairing_id},
                      {"game_id", work->game_id},
                      {"error", std::string(why.message())}});
    absl::Status s = pool_.Transact([&](pqxx::transaction_base& txn) -> absl::Status {
      txn.exec_params(kMarkFailed, work->pairing_id, std::string(why.message()));
      return absl::OkStatus();
    });
    if (!s.ok()) return s;
    return true;
  };
  // A passing fault (game-state or the engine away): the claim goes, so the next pass (here or
  // on another replica) takes the game again without waiting the claim out.
  auto retry_later = [&](const absl::Status& why) -> absl::StatusOr<bool> {
    (void)pool_.Transact([&](pqxx::transaction_base& txn) -> absl::Status {
      txn.exec_params(
          "UPDATE arena.ranked_pairings SET fair_play_claimed_until = NULL WHERE pairing_id = $1",
          work->pairing_id);
      return absl::OkStatus();
    });
    return why;
  };

  v1::GetRecordRequest req;
  req.set_game_id(work->game_id);
  v1::GameRecord record;
  grpc::ClientContext ctx;
  clients_.Prepare(ctx, absl::Seconds(30));
  grpc::Status got = clients_.game_state().GetRecord(&ctx, req, &record);
  if (!got.ok()) {
    if (got.error_code() == grpc::StatusCode::NOT_FOUND) {
      return fail(absl::NotFoundError(absl::StrCat("game-state has no game ", work->game_id)));
    }
    return retry_later(absl::UnavailableError(
        absl::StrCat("game-state GetRecord ", work->game_id, ": ", got.error_message())));
  }
  auto game = FairPlayGameFromRecord(record, white_rating, black_rating);
  if (!game.ok()) return fail(game.status());
  auto report = ranked::AnalyseFairPlay(*game, options_.check);
  if (!report.ok()) {
    if (report.status().code() == absl::StatusCode::kUnavailable) {
      return retry_later(report.status());
    }
    return fail(report.status());
  }

  bool flagged[2] = {false, false};
  absl::Status wrote = pool_.Transact([&](pqxx::transaction_base& txn) -> absl::Status {
    flagged[0] = flagged[1] = false;
    // First: a game another replica checked meanwhile (after this claim expired) keeps its
    // reports; this one's are not written twice.
    if (txn.exec_params(kMarkDone, work->pairing_id).affected_rows() == 0) {
      return absl::OkStatus();
    }
    for (int color = 0; color < 2; ++color) {
      ranked::FairPlayRecord rec;
      rec.game_id = work->game_id;
      rec.account_id = color == 0 ? white : black;
      rec.figures = report->players[color];
      auto stored = ranked::FairPlayStore::Record(txn, rec);
      if (!stored.ok()) return stored.status();
      flagged[color] = stored->report.flagged;
    }
    return absl::OkStatus();
  });
  if (!wrote.ok()) return retry_later(wrote);
  for (int color = 0; color < 2; ++color) {
    const ranked::PlayerFairPlay& p = report->players[color];
    if (!flagged[color]) continue;
    common::LogWarning("fair-play flag: awaiting an admin's review",
                       {{"game_id", work->game_id},
                        {"account_id", color == 0 ? white : black},
                        {"match_rate", p.match_rate},
                        {"acpl", p.acpl},
                        {"moves_analysed", p.moves_analysed}});
  }
  return true;
}

}  // namespace arena::service
