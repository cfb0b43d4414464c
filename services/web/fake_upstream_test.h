// Test support: an in-process ArenaService whose WhoAmI reports the metadata it was sent, so
// the edge's tests can see exactly what reaches arena.
#pragma once

#include <memory>
#include <string>

#include "arena/v1/arena.grpc.pb.h"
#include "grpcpp/grpcpp.h"

namespace arena::web::testing {

class EchoArena : public v1::ArenaService::CallbackService {
 public:
  // WhoAmI: name = the `authorization` metadata, role = "service" when any x-arena-service
  // metadata came (it never should), account_id = the x-arena-seat-credential metadata.
  grpc::ServerUnaryReactor* WhoAmI(grpc::CallbackServerContext* ctx, const v1::WhoAmIRequest*,
                                   v1::WhoAmIResponse* resp) override {
    auto meta = [&](const char* key) {
      auto it = ctx->client_metadata().find(key);
      return it == ctx->client_metadata().end() ? std::string()
                                                : std::string(it->second.data(), it->second.size());
    };
    resp->set_name(meta("authorization"));
    resp->set_account_id(meta("x-arena-seat-credential"));
    if (ctx->client_metadata().count("x-arena-service") ||
        ctx->client_metadata().count("x-arena-credential")) {
      resp->set_role("service");
    }
    auto* r = ctx->DefaultReactor();
    r->Finish(grpc::Status::OK);
    return r;
  }
  // Block: refuses, to show a status on the way back.
  grpc::ServerUnaryReactor* Block(grpc::CallbackServerContext* ctx, const v1::BlockRequest* req,
                                  v1::BlockResponse*) override {
    auto* r = ctx->DefaultReactor();
    r->Finish(grpc::Status(grpc::StatusCode::PERMISSION_DENIED, "admins only: " + req->name()));
    return r;
  }
};

class InProcessArena {
 public:
  InProcessArena() {
    grpc::ServerBuilder b;
    b.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port_);
    b.RegisterService(&service_);
    server_ = b.BuildAndStart();
  }
  ~InProcessArena() { server_->Shutdown(); }
  std::shared_ptr<grpc::Channel> channel() const {
    return grpc::CreateChannel("127.0.0.1:" + std::to_string(port_),
                               grpc::InsecureChannelCredentials());
  }

 private:
  EchoArena service_;
  int port_ = 0;
  std::unique_ptr<grpc::Server> server_;
};

}  // namespace arena::web::testing
