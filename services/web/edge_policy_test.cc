#include "services/web/edge_policy.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace arena::web {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

TEST(EdgePolicy, StatusCodesMapAsTheGoogleApiDoes) {
  EXPECT_EQ(HttpStatusFor(grpc::StatusCode::OK), 200u);
  EXPECT_EQ(HttpStatusFor(grpc::StatusCode::INVALID_ARGUMENT), 400u);
  EXPECT_EQ(HttpStatusFor(grpc::StatusCode::FAILED_PRECONDITION), 400u);
  EXPECT_EQ(HttpStatusFor(grpc::StatusCode::UNAUTHENTICATED), 401u);
  EXPECT_EQ(HttpStatusFor(grpc::StatusCode::PERMISSION_DENIED), 403u);
  EXPECT_EQ(HttpStatusFor(grpc::StatusCode::NOT_FOUND), 404u);
  EXPECT_EQ(HttpStatusFor(grpc::StatusCode::ALREADY_EXISTS), 409u);
  EXPECT_EQ(HttpStatusFor(grpc::StatusCode::ABORTED), 409u);
  EXPECT_EQ(HttpStatusFor(grpc::StatusCode::RESOURCE_EXHAUSTED), 429u);
  EXPECT_EQ(HttpStatusFor(grpc::StatusCode::UNAVAILABLE), 503u);
  EXPECT_EQ(HttpStatusFor(grpc::StatusCode::DEADLINE_EXCEEDED), 504u);
  EXPECT_EQ(HttpStatusFor(grpc::StatusCode::INTERNAL), 500u);
}

TEST(EdgePolicy, ErrorBodyNamesTheCodeAndSurvivesBadBytes) {
  auto j = nlohmann::json::parse(ErrorJson(grpc::StatusCode::PERMISSION_DENIED, "admins only"));
  EXPECT_EQ(j["code"], "PERMISSION_DENIED");
  EXPECT_EQ(j["message"], "admins only");
  // Not UTF-8: replaced, never thrown.
  auto bad = nlohmann::json::parse(ErrorJson(grpc::StatusCode::INTERNAL, "x\xff y"));
  EXPECT_EQ(bad["code"], "INTERNAL");
}

TEST(EdgePolicy, ContentSecurityPolicyAllowsNoInlineScriptAndNoFraming) {
  std::string csp(ContentSecurityPolicy());
  EXPECT_THAT(csp, HasSubstr("script-src 'self'"));
  EXPECT_THAT(csp, HasSubstr("default-src 'none'"));
  EXPECT_THAT(csp, HasSubstr("frame-ancestors 'none'"));
  EXPECT_THAT(csp, Not(HasSubstr("unsafe-inline")));
  EXPECT_THAT(csp, Not(HasSubstr("unsafe-eval")));
  bool has_csp = false;
  for (const auto& [k, v] : SecurityHeaders()) {
    EXPECT_THAT(k, Not(HasSubstr("Access-Control"))) << "no CORS header, ever";
    has_csp = has_csp || k == "Content-Security-Policy";
  }
  EXPECT_TRUE(has_csp);
}

TEST(EdgePolicy, OnlyThePersonsOwnCredentialsAreForwarded) {
  for (const ForwardedHeader& h : kForwardedHeaders) {
    EXPECT_NE(h.metadata, "x-arena-service");
    EXPECT_NE(h.metadata, "x-arena-credential");
  }
  EXPECT_TRUE(ValidMetadataValue("Bearer abc.DEF-123"));
  EXPECT_FALSE(ValidMetadataValue("Bearer a\nb"));
  EXPECT_FALSE(ValidMetadataValue("Bearer \xc3\xa9"));
  EXPECT_FALSE(ValidMetadataValue(std::string(1025, 'a')));
}

}  // namespace
}  // namespace arena::web
