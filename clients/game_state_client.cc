#include "clients/game_state_client.h"

#include "common/grpc_util.h"
#include "common/proto_words.h"

namespace arena::clients {

std::optional<std::string> RedirectedTo(const grpc::Status& status) {
  if (status.error_code() != grpc::StatusCode::UNAVAILABLE) return std::nullopt;
  const std::string& m = status.error_message();
  if (m.find(" is served by replica ") == std::string::npos) return std::nullopt;
  const size_t at = m.rfind(" at ");
  if (at == std::string::npos) return std::nullopt;  // the owner's address is not known yet
  std::string address = m.substr(at + 4);
  if (address.empty() || address.find(' ') != std::string::npos) return std::nullopt;
  return address;
}

void Credentials::Attach(grpc::ClientContext& ctx) const {
  if (service != nullptr) service->Attach(ctx);
  if (!seat.empty()) ctx.AddMetadata("x-arena-seat-credential", seat);
  if (!host.empty()) ctx.AddMetadata("x-arena-host-credential", host);
}

v1::SubmitActionRequest SeatAction(const std::string& game_id, int seat, const std::string& text,
                                   int64_t expected_action_number, const std::string& annotation) {
  v1::SubmitActionRequest req;
  req.set_game_id(game_id);
  req.set_seat(seat);
  req.set_kind(common::ActionKindOfText(text));
  req.mutable_move()->set_text(text);
  req.set_expected_action_number(expected_action_number);
  req.set_annotation(annotation);
  return req;
}

GameStateClient::GameStateClient(std::shared_ptr<grpc::Channel> channel, absl::Duration timeout)
    : stub_(v1::GameStateService::NewStub(std::move(channel))), timeout_(timeout) {}

void GameStateClient::Prepare(grpc::ClientContext& ctx, const Credentials& as) const {
  common::SetDeadline(ctx, timeout_);
  as.Attach(ctx);
}

grpc::Status GameStateClient::Create(const v1::CreateTableRequest& req, const Credentials& as,
                                     v1::CreateTableResponse* resp) {
  grpc::ClientContext ctx;
  Prepare(ctx, as);
  return stub_->CreateTable(&ctx, req, resp);
}

grpc::Status GameStateClient::Join(const v1::JoinTableRequest& req, const Credentials& as,
                                   v1::JoinTableResponse* resp) {
  grpc::ClientContext ctx;
  Prepare(ctx, as);
  return stub_->JoinTable(&ctx, req, resp);
}

grpc::Status GameStateClient::Get(const v1::GetGameRequest& req, const Credentials& as,
                                  v1::GameView* view) {
  grpc::ClientContext ctx;
  Prepare(ctx, as);
  return stub_->GetGame(&ctx, req, view);
}

grpc::Status GameStateClient::Submit(const v1::SubmitActionRequest& req, const Credentials& as,
                                     v1::SubmitActionResponse* resp) {
  return SubmitOn(*stub_, req, as, timeout_, resp);
}

grpc::Status GameStateClient::SubmitOn(v1::GameStateService::Stub& stub,
                                       const v1::SubmitActionRequest& req, const Credentials& as,
                                       absl::Duration timeout, v1::SubmitActionResponse* resp) {
  grpc::ClientContext ctx;
  common::SetDeadline(ctx, timeout);
  as.Attach(ctx);
  v1::SubmitActionResponse local;
  return stub.SubmitAction(&ctx, req, resp != nullptr ? resp : &local);
}

}  // namespace arena::clients
