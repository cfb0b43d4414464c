// ArenaService: tables with AI seats, clues, leagues, ratings, match history and model
// statistics. Who may call what:
//   CreateTable: anyone signed in (guests too); a model seat needs a member (not a guest).
//   SupplyKey: the member who owns the model seat. CreateLeague and its verbs: a member; the
//   verbs only for the league's creator or an admin.
//   GetClue: whoever holds the seat's credential (checked by arena-game-state).
//   GetTable, ListLeagues, GetStandings, GetLeaderboard, ListMatches, ExportGame (public
//   games), GetModelStats, ListModels: anyone.
#include <algorithm>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "bots/core/levels.h"
#include "common/grpc_util.h"
#include "common/log.h"
#include "common/proto_json.h"
#include "common/proto_words.h"
#include "google/protobuf/util/time_util.h"
#include "nlohmann/json.hpp"
#include "services/arena/arena_service.h"
#include "services/arena/rating_store.h"

namespace arena::service {
namespace {

constexpr size_t kMaxKeyBytes = 512;

nlohmann::json JsonOf(const google::protobuf::Message& m) {
  return nlohmann::json::parse(common::ProtoToJson(m), nullptr, false);
}

void MicrosToTimestamp(int64_t us, google::protobuf::Timestamp* out) {
  *out = google::protobuf::util::TimeUtil::MicrosecondsToTimestamp(us);
}

}  // namespace

absl::Status ArenaServiceImpl::PlayAvailable() const {
  if (play_.clients == nullptr || play_.driver == nullptr || play_.leagues == nullptr ||
      play_.clues == nullptr) {
    return absl::UnavailableError(
        "arena runs without --game_state_addr, --bot_addr and --gateway_addr: no tables");
  }
  return absl::OkStatus();
}

absl::Status ArenaServiceImpl::CheckModelIds(const std::vector<std::string>& model_ids) {
  if (play_.catalogue == nullptr) return absl::OkStatus();
  return play_.catalogue->CheckKnown(model_ids);
}

// --- Tables --------------------------------------------------------------------------------

absl::Status ArenaServiceImpl::CreateTableWork(const Ctx& ctx,
                                               const v1::ArenaCreateTableRequest& req,
                                               v1::ArenaCreateTableResponse* resp) {
  auto caller = Caller(ctx);
  if (!caller.ok()) return caller.status();
  if (absl::Status s = tables_per_caller_.Check(caller->account_id, "too many tables created");
      !s.ok()) {
    return s;
  }
  const v1::TableSettings& in = req.settings();
  const std::string engine_game = common::EngineGameIdOf(in);
  if (engine_game.empty()) return absl::InvalidArgumentError("settings name no game");
  if (in.rated() || !in.league_id().empty()) {
    return absl::InvalidArgumentError("rated and league tables are made by leagues");
  }
  // Ranked clocks (untimed first move, 20 s abort, 60 s disconnect loss) belong to ranked
  // tables, which arena itself makes; nobody asks for them at a table of their own.
  if (in.clock().ranked()) {
    return absl::PermissionDeniedError("ranked clocks are set by arena, for ranked tables only");
  }
  if (req.seats_size() == 0) return absl::InvalidArgumentError("a table needs seats");
  bool has_model = false;
  for (const v1::ArenaSeat& seat : req.seats()) {
    const v1::SeatSpec& s = seat.spec();
    if (s.kind() == v1::SEAT_KIND_UNSPECIFIED) {
      return absl::InvalidArgumentError("every seat needs a kind");
    }
    if (!v1::SeatKind_IsValid(s.kind())) return absl::InvalidArgumentError("unknown seat kind");
    // A person's seat named for an account is the caller's own: nobody seats another account.
    bool person = s.kind() != v1::SEAT_KIND_BOT && s.kind() != v1::SEAT_KIND_MODEL;
    if (person && !s.account_id().empty() &&
        (caller->is_guest() || s.account_id() != caller->account_id)) {
      return absl::PermissionDeniedError("a seat may name only your own account");
    }
    if (!seat.own_api_key().empty() &&
        (s.kind() != v1::SEAT_KIND_MODEL || s.funding() != v1::FUNDING_OWN_KEY)) {
      return absl::InvalidArgumentError("own_api_key belongs only to a model seat paid by it");
    }
    if (s.kind() == v1::SEAT_KIND_BOT) {
      if (absl::Status st = CheckBotSeat(s, engine_game, req.seats_size()); !st.ok()) return st;
    }
    if (s.kind() == v1::SEAT_KIND_MODEL) {
      has_model = true;
      if (caller->is_guest()) {
        return absl::PermissionDeniedError("seating a model needs an account; sign up");
      }
      if (s.model_id().empty() || s.model_id().size() > 100) {
        return absl::InvalidArgumentError("a model seat needs a model_id");
      }
      if (s.funding() == v1::FUNDING_OWN_KEY) {
        if (seat.own_api_key().empty() || seat.own_api_key().size() > kMaxKeyBytes) {
          return absl::InvalidArgumentError("an own-key model seat needs own_api_key");
        }
      } else if (s.funding() != v1::FUNDING_DONATED_CREDITS) {
        return absl::InvalidArgumentError(
            "a model seat is paid by its own key or by donated credits (funding)");
      }
    }
  }
  auto policy = NormalizePolicy(req.policy(), /*league=*/false);
  if (!policy.ok()) return policy.status();
  if (absl::Status s = PlayAvailable(); !s.ok()) return s;
  std::vector<std::string> model_ids;
  for (const v1::ArenaSeat& seat : req.seats()) {
    if (seat.spec().kind() == v1::SEAT_KIND_MODEL) model_ids.push_back(seat.spec().model_id());
  }
  if (absl::Status s = CheckModelIds(model_ids); !s.ok()) return s;

  v1::CreateTableRequest create;
  *create.mutable_settings() = in;
  create.mutable_settings()->set_engine_game(engine_game);
  if (has_model) create.mutable_settings()->set_is_public(true);
  std::vector<DrivenSeat> seats;
  for (int i = 0; i < req.seats_size(); ++i) {
    DrivenSeat d;
    d.seat = i;
    d.spec = req.seats(i).spec();
    if (d.spec.kind() == v1::SEAT_KIND_MODEL) {
      d.spec.set_account_id(caller->account_id);
      d.owner_account = caller->account_id;
    }
    bool own_seat = !d.ai() && !d.spec.account_id().empty();
    if (own_seat) {  // the creator's own seat, joined below
      d.owner_account = caller->account_id;
      d.filled = true;
      d.holder_name = caller->name;
      if (d.spec.display_name().empty()) d.spec.set_display_name(caller->name);
    }
    d.participant = ParticipantName(d.spec);
    if (d.spec.display_name().empty()) d.spec.set_display_name(d.participant);
    *create.add_seats() = GameStateSeat(d.spec);
    seats.push_back(std::move(d));
  }
  v1::CreateTableResponse created;
  {
    grpc::ClientContext c;
    play_.clients->Prepare(c, absl::Seconds(10));
    grpc::Status s = play_.clients->game_state().CreateTable(&c, create, &created);
    if (!s.ok()) return common::FromGrpc(s);
  }
  resp->set_game_id(created.game_id());
  resp->set_host_credential(created.host_credential());
  for (int i = 0; i < req.seats_size(); ++i) {
    const v1::SeatSpec& s = seats[i].spec;
    bool ai = s.kind() == v1::SEAT_KIND_BOT || s.kind() == v1::SEAT_KIND_MODEL;
    std::string credential;  // never an AI seat's: only arena acts for those
    if (!ai && !s.account_id().empty()) {
      // The caller's own seat: only arena may join a seat named for an account.
      grpc::ClientContext c;
      play_.clients->Prepare(c, absl::Seconds(10));
      v1::JoinTableRequest join;
      join.set_game_id(created.game_id());
      join.set_seat(i);
      join.set_account_id(s.account_id());
      join.set_display_name(s.display_name());
      v1::JoinTableResponse joined;
      grpc::Status js = play_.clients->game_state().JoinTable(&c, join, &joined);
      if (!js.ok()) return common::FromGrpc(js);
      credential = joined.seat_credential();
    } else if (!ai && i < created.seat_credentials_size()) {
      credential = created.seat_credentials(i);
    }
    resp->add_seat_credentials(credential);
  }
  // Every table is recorded and followed, people-only ones too: arena seats people at it
  // (JoinTable, invitations) and records its end on their accounts.
  // Own keys go straight to the gateway's vault; arena keeps only the opaque handle.
  for (DrivenSeat& d : seats) {
    if (d.spec.kind() != v1::SEAT_KIND_MODEL || d.spec.funding() != v1::FUNDING_OWN_KEY) continue;
    grpc::ClientContext c;
    play_.clients->Prepare(c, absl::Seconds(10));
    v1::RegisterKeyRequest reg;
    reg.set_game_id(created.game_id());
    reg.set_seat(d.seat);
    reg.set_api_key(req.seats(d.seat).own_api_key());
    v1::RegisterKeyResponse handle;
    grpc::Status s = play_.clients->gateway().RegisterKey(&c, reg, &handle);
    if (s.ok()) {
      d.key_handle = handle.key_handle();
      d.key_state = "registered";
    } else {
      d.key_state = "needed";  // the owner can SupplyKey once the gateway is back
      common::LogWarning("key not registered; the seat waits for it",
                         {{"game_id", created.game_id()}, {"seat", d.seat}});
    }
  }
  DrivenTable table;
  table.game_id = created.game_id();
  table.owner_account = caller->account_id;
  table.engine_game = engine_game;
  table.settings = create.settings();
  table.policy = *policy;
  table.seats = std::move(seats);
  absl::Status recorded = play_.pool->Transact([&](pqxx::transaction_base& txn) -> absl::Status {
    SeatDriver::Record(txn, table);
    return absl::OkStatus();
  });
  if (!recorded.ok()) return recorded;
  play_.driver->Drive(table.game_id);
  common::LogInfo(
      "table created",
      {{"game_id", table.game_id}, {"owner", caller->account_id}, {"game", engine_game}});
  return absl::OkStatus();
}

ArenaServiceImpl::Reactor* ArenaServiceImpl::CreateTable(Ctx* ctx,
                                                         const v1::ArenaCreateTableRequest* req,
                                                         v1::ArenaCreateTableResponse* resp) {
  return Run(ctx, *req, queue_, [=, this] { return CreateTableWork(*ctx, *req, resp); });
}

ArenaServiceImpl::Reactor* ArenaServiceImpl::GetTable(Ctx* ctx, const v1::TableRef* req,
                                                      v1::ArenaTable* resp) {
  return Run(ctx, *req, queue_, [=, this]() -> absl::Status {
    if (req->game_id().empty()) return absl::InvalidArgumentError("game_id is required");
    if (absl::Status s = PlayAvailable(); !s.ok()) return s;
    auto t = play_.driver->Describe(req->game_id());
    if (!t.ok()) return t.status();
    *resp = *std::move(t);
    if (absl::Status s = seating_->DescribeSeats(req->game_id(), resp); !s.ok()) return s;
    // A private table shows its owner, policy and costs to its owner and admins only.
    auto table = play_.driver->Load(req->game_id());
    if (!table.ok()) return table.status();
    if (!table->settings.is_public()) {
      auto who = Caller(*ctx);  // UNAUTHENTICATED without a token: an outsider
      bool insider = who.ok() && (who->is_admin() || who->account_id == table->owner_account);
      if (!insider) {
        resp->clear_owner_account();
        resp->clear_policy();
        for (v1::AiSeatStatus& seat : *resp->mutable_ai_seats()) {
          seat.clear_cost_microcredits();
          seat.mutable_spec()->clear_account_id();
        }
      }
    }
    return absl::OkStatus();
  });
}

ArenaServiceImpl::Reactor* ArenaServiceImpl::SupplyKey(Ctx* ctx, const v1::SupplyKeyRequest* req,
                                                       v1::SupplyKeyResponse*) {
  return Run(ctx, *req, queue_, [=, this]() -> absl::Status {
    auto who = Member(*ctx);
    if (!who.ok()) return who.status();
    if (req->game_id().empty()) return absl::InvalidArgumentError("game_id is required");
    if (req->api_key().empty() || req->api_key().size() > kMaxKeyBytes) {
      return absl::InvalidArgumentError("api_key is required");
    }
    if (absl::Status s = PlayAvailable(); !s.ok()) return s;
    auto table = play_.driver->Load(req->game_id());
    if (!table.ok()) return table.status();
    if (req->seat() < 0 || req->seat() >= static_cast<int>(table->seats.size())) {
      return absl::InvalidArgumentError("no such seat");
    }
    const DrivenSeat& d = table->seats[req->seat()];
    if (d.spec.kind() != v1::SEAT_KIND_MODEL || d.spec.funding() != v1::FUNDING_OWN_KEY) {
      return absl::FailedPreconditionError("that seat is not paid by its own key");
    }
    if (d.owner_account != who->account_id) {
      return absl::PermissionDeniedError("only the seat's owner supplies its key");
    }
    auto described = play_.driver->Describe(req->game_id());
    if (described.ok() && described->state() != "active") {
      return absl::FailedPreconditionError("the game is over");
    }
    grpc::ClientContext c;
    play_.clients->Prepare(c, absl::Seconds(10));
    v1::RegisterKeyRequest reg;
    reg.set_game_id(req->game_id());
    reg.set_seat(req->seat());
    reg.set_api_key(req->api_key());
    v1::RegisterKeyResponse handle;
    grpc::Status s = play_.clients->gateway().RegisterKey(&c, reg, &handle);
    if (!s.ok()) return common::FromGrpc(s);
    return play_.driver->KeyRegistered(req->game_id(), req->seat(), handle.key_handle());
  });
}

ArenaServiceImpl::Reactor* ArenaServiceImpl::GetClue(Ctx* ctx, const v1::ClueRequest* req,
                                                     v1::ClueResponse* resp) {
  return Run(ctx, *req, queue_, [=, this]() -> absl::Status {
    if (req->game_id().empty()) return absl::InvalidArgumentError("game_id is required");
    if (req->seat_credential().empty()) {
      return absl::UnauthenticatedError("a clue needs the seat's credential");
    }
    if (absl::Status s = PlayAvailable(); !s.ok()) return s;
    v1::GameView view;
    {
      grpc::ClientContext c;
      play_.clients->Prepare(c, absl::Seconds(10));
      c.AddMetadata("x-arena-seat-credential", req->seat_credential());
      v1::GetGameRequest get;
      get.set_game_id(req->game_id());
      grpc::Status s = play_.clients->game_state().GetGame(&c, get, &view);
      if (!s.ok()) return common::FromGrpc(s);
    }
    if (!view.has_viewer_seat() || view.viewer_seat() != req->seat()) {
      return absl::PermissionDeniedError("that credential does not hold this seat");
    }
    // A person's clues are bounded per seat; the searches at once, for everyone, by ClueMaker.
    if (absl::Status s = clues_per_seat_.Check(absl::StrCat(req->game_id(), "/", req->seat()),
                                               "too many clues for this seat");
        !s.ok()) {
      return s;
    }
    grpc::ClientContext c;
    play_.clients->Prepare(c, absl::Seconds(10));
    auto clue = play_.clues->Make(c, view, req->seat(), kClueSearchTime);
    if (!clue.ok()) return clue.status();
    *resp->mutable_move() = clue->move;
    resp->set_level(clue->level);
    return absl::OkStatus();
  });
}

// --- Leagues -------------------------------------------------------------------------------

ArenaServiceImpl::Reactor* ArenaServiceImpl::CreateLeague(Ctx* ctx,
                                                          const v1::CreateLeagueRequest* req,
                                                          v1::League* resp) {
  return Run(ctx, *req, queue_, [=, this]() -> absl::Status {
    auto who = Member(*ctx);
    if (!who.ok()) return who.status();
    if (play_.leagues == nullptr) {
      if (req->name().empty()) return absl::InvalidArgumentError("a league needs a name");
      return PlayAvailable();
    }
    std::vector<std::string> model_ids;
    for (const v1::LeagueParticipant& p : req->participants()) {
      if (p.spec().kind() == v1::SEAT_KIND_MODEL) model_ids.push_back(p.spec().model_id());
    }
    if (absl::Status s = CheckModelIds(model_ids); !s.ok()) return s;
    auto league = play_.leagues->Create(*who, *req);
    if (!league.ok()) return league.status();
    *resp = *std::move(league);
    return absl::OkStatus();
  });
}

ArenaServiceImpl::Reactor* ArenaServiceImpl::LeagueVerb(Ctx* ctx, const v1::LeagueRef* req,
                                                        v1::League* resp, const char* verb) {
  return Run(ctx, *req, queue_, [=, this]() -> absl::Status {
    auto who = Member(*ctx);
    if (!who.ok()) return who.status();
    if (auto id = ParseLeagueId(req->league_id()); !id.ok()) return id.status();
    if (absl::Status s = PlayAvailable(); !s.ok()) return s;
    auto league = play_.leagues->Transition(*who, req->league_id(), verb);
    if (!league.ok()) return league.status();
    *resp = *std::move(league);
    return absl::OkStatus();
  });
}

ArenaServiceImpl::Reactor* ArenaServiceImpl::StartLeague(Ctx* ctx, const v1::LeagueRef* req,
                                                         v1::League* resp) {
  return LeagueVerb(ctx, req, resp, "start");
}
ArenaServiceImpl::Reactor* ArenaServiceImpl::PauseLeague(Ctx* ctx, const v1::LeagueRef* req,
                                                         v1::League* resp) {
  return LeagueVerb(ctx, req, resp, "pause");
}
ArenaServiceImpl::Reactor* ArenaServiceImpl::ResumeLeague(Ctx* ctx, const v1::LeagueRef* req,
                                                          v1::League* resp) {
  return LeagueVerb(ctx, req, resp, "resume");
}
ArenaServiceImpl::Reactor* ArenaServiceImpl::CancelLeague(Ctx* ctx, const v1::LeagueRef* req,
                                                          v1::League* resp) {
  return LeagueVerb(ctx, req, resp, "cancel");
}

ArenaServiceImpl::Reactor* ArenaServiceImpl::ListLeagues(Ctx* ctx,
                                                         const v1::ListLeaguesRequest* req,
                                                         v1::ListLeaguesResponse* resp) {
  return Run(ctx, *req, queue_, [=, this]() -> absl::Status {
    if (play_.leagues == nullptr) return absl::OkStatus();  // none can exist
    auto leagues = play_.leagues->List(req->limit());
    if (!leagues.ok()) return leagues.status();
    for (auto& l : *leagues) *resp->add_leagues() = std::move(l);
    return absl::OkStatus();
  });
}

ArenaServiceImpl::Reactor* ArenaServiceImpl::GetStandings(Ctx* ctx, const v1::LeagueRef* req,
                                                          v1::StandingsResponse* resp) {
  return Run(ctx, *req, queue_, [=, this]() -> absl::Status {
    if (auto id = ParseLeagueId(req->league_id()); !id.ok()) return id.status();
    if (absl::Status s = PlayAvailable(); !s.ok()) return s;
    auto standings = play_.leagues->Standings(req->league_id());
    if (!standings.ok()) return standings.status();
    *resp = *std::move(standings);
    return absl::OkStatus();
  });
}

ArenaServiceImpl::Reactor* ArenaServiceImpl::GetLeaderboard(Ctx* ctx,
                                                            const v1::LeaderboardRequest* req,
                                                            v1::LeaderboardResponse* resp) {
  return Run(ctx, *req, queue_, [=, this]() -> absl::Status {
    const std::string& game = req->engine_game();
    if (game.empty()) return absl::InvalidArgumentError("name a game (engine_game)");
    auto board = Leaderboard(*play_.pool, game);
    if (!board.ok()) return board.status();
    *resp = *std::move(board);
    return absl::OkStatus();
  });
}

// --- History and statistics ------------------------------------------------------------------

ArenaServiceImpl::Reactor* ArenaServiceImpl::ListMatches(Ctx* ctx,
                                                         const v1::ListMatchesRequest* req,
                                                         v1::ListMatchesResponse* resp) {
  return Run(ctx, *req, queue_, [=, this]() -> absl::Status {
    int limit = req->limit() <= 0 || req->limit() > 1000 ? 100 : req->limit();
    return play_.pool->Transact([&](pqxx::transaction_base& txn) -> absl::Status {
      resp->Clear();
      pqxx::result r = txn.exec_params(
          "SELECT t.game_id, t.engine_game, coalesce(t.league_id::text, ''), t.state, "
          "coalesce(t.result_json, '{}'), (extract(epoch FROM t.created_at) * 1e6)::bigint, "
          "coalesce((extract(epoch FROM t.finished_at) * 1e6)::bigint, 0), "
          "(SELECT coalesce(json_agg(participant ORDER BY seat), '[]') FROM table_seats s "
          " WHERE s.game_id = t.game_id)::text "
          "FROM driven_tables t "
          "WHERE (t.settings_json::json ->> 'is_public') = 'true' "
          "AND ($1 = '' OR t.engine_game = $1) "
          "AND ($2 = '' OR EXISTS (SELECT 1 FROM table_seats s WHERE s.game_id = t.game_id "
          "     AND s.participant = $2)) "
          "AND ($3 = '' OR t.league_id::text = $3) AND ($4 = '' OR t.state = $4) "
          "ORDER BY t.created_at DESC, t.game_id LIMIT $5",
          req->engine_game(), req->participant(), req->league_id(), req->state(), limit);
      for (const auto& row : r) {
        v1::MatchSummary* m = resp->add_matches();
        m->set_game_id(row[0].as<std::string>());
        m->set_engine_game(row[1].as<std::string>());
        m->set_league_id(row[2].as<std::string>());
        m->set_state(row[3].as<std::string>());
        nlohmann::json result = nlohmann::json::parse(row[4].as<std::string>(), nullptr, false);
        if (result.is_object()) {
          m->set_result_text(result.value("result_text", ""));
          m->set_reason(result.value("reason", ""));
          if (result.contains("ranks")) {
            for (const auto& x : result["ranks"]) m->add_ranks(x.get<int>());
          }
        }
        MicrosToTimestamp(row[5].as<int64_t>(), m->mutable_created_at());
        if (row[6].as<int64_t>() > 0)
          MicrosToTimestamp(row[6].as<int64_t>(), m->mutable_finished_at());
        for (const auto& p : nlohmann::json::parse(row[7].as<std::string>())) {
          m->add_participants(p.get<std::string>());
        }
      }
      return absl::OkStatus();
    });
  });
}

absl::Status ArenaServiceImpl::ExportGameWork(const Ctx& ctx, const v1::ExportGameRequest& req,
                                              v1::ExportGameResponse* resp) {
  if (req.game_id().empty()) return absl::InvalidArgumentError("game_id is required");
  if (absl::Status s = PlayAvailable(); !s.ok()) return s;
  auto table = play_.driver->Load(req.game_id());
  if (!table.ok()) return table.status();
  if (!table->settings.is_public()) {
    auto who = Caller(ctx);
    if (!who.ok()) return who.status();
    if (who->account_id != table->owner_account && !who->is_admin()) {
      return absl::PermissionDeniedError("a private game is exported by its host only");
    }
  }
  v1::GameRecord record;
  {
    grpc::ClientContext c;
    play_.clients->Prepare(c, absl::Seconds(20));
    v1::GetRecordRequest get;
    get.set_game_id(req.game_id());
    grpc::Status s = play_.clients->game_state().GetRecord(&c, get, &record);
    if (!s.ok()) return common::FromGrpc(s);
  }
  nlohmann::json out;
  out["game_id"] = req.game_id();
  out["engine_game"] = table->engine_game;
  if (table->league_id) out["league_id"] = std::to_string(*table->league_id);
  out["settings"] = JsonOf(table->settings);
  out["policy"] = JsonOf(table->policy);
  out["seats"] = nlohmann::json::array();
  for (const DrivenSeat& d : table->seats) {
    out["seats"].push_back({{"seat", d.seat}, {"participant", d.participant}});
  }
  out["outcome"] = JsonOf(record.final_view().outcome());
  out["seed_commitment"] = record.final_view().seed_commitment();
  out["revealed_seed"] = record.final_view().revealed_seed();
  out["events"] = nlohmann::json::array();
  for (v1::GameEvent e : record.events()) {
    e.clear_snapshot();
    nlohmann::json ej = JsonOf(e);
    if (ej.contains("detail_json")) {
      ej["detail"] = nlohmann::json::parse(ej["detail_json"].get<std::string>(), nullptr, false);
      ej.erase("detail_json");
    }
    out["events"].push_back(std::move(ej));
  }
  out["model_turns"] = nlohmann::json::array();
  std::string league_name;
  absl::Status s = play_.pool->Transact([&](pqxx::transaction_base& txn) -> absl::Status {
    out["model_turns"] = nlohmann::json::array();
    if (table->league_id) {
      for (const auto& row :
           txn.exec_params("SELECT name FROM leagues WHERE league_id = $1", *table->league_id)) {
        league_name = row[0].as<std::string>();
      }
    }
    for (const auto& row :
         txn.exec_params("SELECT turn_seq, action_number, seat, participant, outcome, action_text, "
                         "reasoning, cost, tokens, latency_ms, attempts_json, state, "
                         "evaluation_json FROM ai_turns "
                         "WHERE game_id = $1 ORDER BY turn_seq",
                         req.game_id())) {
      out["model_turns"].push_back(
          {{"turn_seq", row[0].as<int64_t>()},
           {"action_number", row[1].as<int64_t>()},
           {"seat", row[2].as<int>()},
           {"participant", row[3].as<std::string>()},
           {"outcome", row[4].as<std::string>()},
           {"action", row[5].as<std::string>()},
           {"reasoning", row[6].as<std::string>()},
           {"cost_microcredits", row[7].as<int64_t>()},
           {"tokens", row[8].as<int64_t>()},
           {"latency_ms", row[9].as<int64_t>()},
           {"attempts", nlohmann::json::parse(row[10].as<std::string>(), nullptr, false)},
           {"state", row[11].as<std::string>()}});
      // The bot's judgement of the move (services/arena/move_judge.h), once it is written.
      if (!row[12].is_null()) {
        nlohmann::json e = nlohmann::json::parse(row[12].as<std::string>(), nullptr, false);
        if (e.is_object()) out["model_turns"].back()["evaluation"] = std::move(e);
      }
    }
    return absl::OkStatus();
  });
  if (!s.ok()) return s;
  resp->set_json(out.dump(2));
  // The PGN's Event is the league's name (game-state knows only its id), or says it was a table.
  std::string pgn = record.pgn();
  constexpr std::string_view kEvent = "[Event \"Chestonia Arena\"]";
  if (size_t at = pgn.find(kEvent); at != std::string::npos) {
    std::string event = league_name.empty() ? absl::StrCat("Chestonia Arena table ", req.game_id())
                                            : absl::StrCat("Chestonia Arena league ", league_name);
    for (char& c : event) {
      if (c == '"' || c == '\\') c = '\'';
    }
    pgn.replace(at, kEvent.size(), absl::StrCat("[Event \"", event, "\"]"));
  }
  resp->set_pgn(pgn);
  return absl::OkStatus();
}

ArenaServiceImpl::Reactor* ArenaServiceImpl::ExportGame(Ctx* ctx, const v1::ExportGameRequest* req,
                                                        v1::ExportGameResponse* resp) {
  return Run(ctx, *req, queue_, [=, this] { return ExportGameWork(*ctx, *req, resp); });
}

ArenaServiceImpl::Reactor* ArenaServiceImpl::GetModelStats(Ctx* ctx,
                                                           const v1::ModelStatsRequest* req,
                                                           v1::ModelStatsResponse* resp) {
  return Run(ctx, *req, queue_, [=, this]() -> absl::Status {
    // The variant filter: tables whose stored variant options contain every one given.
    nlohmann::json variant = nlohmann::json::object();
    for (const auto& [k, v] : req->variant().options()) variant[k] = v;
    return play_.pool->Transact([&](pqxx::transaction_base& txn) -> absl::Status {
      resp->Clear();
      pqxx::result r = txn.exec_params(
          "SELECT a.participant, count(*), count(DISTINCT a.game_id), sum(a.illegal), "
          "sum(a.unparsable), sum(a.tokens), sum(a.cost), sum(a.latency_ms), "
          "count(*) FILTER (WHERE a.action_kind IN ($2, $3)) FROM ai_turns a "
          "JOIN driven_tables t ON t.game_id = a.game_id "
          "WHERE a.participant LIKE 'model:%' AND ($1 = '' OR a.participant = 'model:' || $1) "
          "AND ($4 = '' OR t.engine_game = $4) "
          "AND coalesce(t.settings_json::jsonb -> 'variant' -> 'options', '{}'::jsonb) "
          "@> $5::jsonb "
          "GROUP BY a.participant ORDER BY a.participant",
          req->model_id(), static_cast<int>(v1::ACTION_KIND_FORFEIT_TURN),
          static_cast<int>(v1::ACTION_KIND_RESIGN), req->engine_game(), variant.dump());
      for (const auto& row : r) {
        v1::ModelStats* m = resp->add_models();
        const double moves = row[1].as<double>();
        const double games = row[2].as<double>();
        m->set_model_id(row[0].as<std::string>().substr(6));  // after "model:"
        m->set_moves(row[1].as<int64_t>());
        m->set_games(row[2].as<int64_t>());
        m->set_illegal_per_1000_moves(1000.0 * row[3].as<double>() / moves);
        m->set_unparsable_per_1000_moves(1000.0 * row[4].as<double>() / moves);
        m->set_tokens_per_move(row[5].as<double>() / moves);
        m->set_cost_per_game_microcredits(games > 0 ? row[6].as<double>() / games : 0);
        m->set_latency_ms_per_move(row[7].as<double>() / moves);
        m->set_forfeits(row[8].as<int64_t>());
      }
      return absl::OkStatus();
    });
  });
}

ArenaServiceImpl::Reactor* ArenaServiceImpl::ListModels(Ctx* ctx,
                                                        const v1::ArenaListModelsRequest* req,
                                                        v1::ArenaListModelsResponse* resp) {
  return Run(ctx, *req, queue_, [=, this]() -> absl::Status {
    if (absl::Status s = PlayAvailable(); !s.ok()) return s;
    if (play_.catalogue == nullptr) return absl::UnavailableError("no model catalogue");
    auto catalogue = play_.catalogue->Get();
    if (!catalogue.ok()) return catalogue.status();
    resp->Clear();
    for (const v1::ModelInfo& m : catalogue->models) *resp->add_models() = m;
    MicrosToTimestamp(absl::ToUnixMicros(catalogue->fetched_at), resp->mutable_fetched_at());
    resp->set_stale(catalogue->stale);
    return absl::OkStatus();
  });
}

}  // namespace arena::service
