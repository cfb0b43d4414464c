#include "services/arena/model_catalogue.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace arena::service {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

v1::ModelInfo Info(const std::string& id) {
  v1::ModelInfo m;
  m.set_id(id);
  return m;
}

TEST(ModelCatalogueTest, EditDistanceCountsInsertionsDeletionsAndSubstitutions) {
  EXPECT_EQ(EditDistance("", ""), 0);
  EXPECT_EQ(EditDistance("abc", ""), 3);
  EXPECT_EQ(EditDistance("kitten", "sitting"), 3);
  EXPECT_EQ(EditDistance("mock-competent", "mock-compteent"), 2);
  EXPECT_EQ(EditDistance("gpt-4o", "gpt-4o"), 0);
}

TEST(ModelCatalogueTest, NearestIdsAreOrderedByDistanceThenId) {
  std::vector<std::string> known = {"xyz", "ac", "ab", "abcd"};
  // ab and ac are both 1 away (ties by id), abcd 3, xyz 3.
  EXPECT_THAT(NearestIds("aa", known, 2), ElementsAre("ab", "ac"));
  EXPECT_THAT(NearestIds("aa", known, 10), ElementsAre("ab", "ac", "abcd", "xyz"));
  EXPECT_THAT(NearestIds("mock-competnet", {"mock-slow", "mock-competent", "route-llm"}, 1),
              ElementsAre("mock-competent"));
  EXPECT_THAT(NearestIds("x", {}, 3), ElementsAre());
}

TEST(ModelCatalogueTest, UnknownIdsAreRefusedWithTheNearestKnownOnes) {
  int fetches = 0;
  ModelCatalogue c(
      [&]() -> absl::StatusOr<std::vector<v1::ModelInfo>> {
        ++fetches;
        return std::vector<v1::ModelInfo>{Info("route-llm"), Info("mock-competent"),
                                          Info("mock-slow")};
      },
      absl::Minutes(10));
  EXPECT_TRUE(c.CheckKnown({"mock-competent", "route-llm"}).ok());
  absl::Status s = c.CheckKnown({"mock-slow", "mock-compettent"});
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("'mock-compettent'"));
  EXPECT_THAT(s.message(), HasSubstr("nearest known: mock-competent"));
  EXPECT_EQ(fetches, 1);  // cached
  auto list = c.Get();
  ASSERT_TRUE(list.ok());
  ASSERT_EQ(list->models.size(), 3u);
  EXPECT_EQ(list->models[0].id(), "mock-competent");  // sorted
}

TEST(ModelCatalogueTest, RefreshesAfterTheTtlAndServesTheLastListWhenARefreshFails) {
  int fetches = 0;
  bool fail = false;
  ModelCatalogue c(
      [&]() -> absl::StatusOr<std::vector<v1::ModelInfo>> {
        ++fetches;
        if (fail) return absl::UnavailableError("gateway away");
        return std::vector<v1::ModelInfo>{Info(fetches == 1 ? "old" : "new")};
      },
      absl::ZeroDuration());
  EXPECT_EQ(c.Get()->models[0].id(), "old");
  EXPECT_EQ(c.Get()->models[0].id(), "new");
  fail = true;
  auto stale = c.Get();
  ASSERT_TRUE(stale.ok());
  EXPECT_TRUE(stale->stale);
  EXPECT_EQ(stale->models[0].id(), "new");
  EXPECT_EQ(fetches, 3);
}

TEST(ModelCatalogueTest, NoListMeansUnavailableExceptWithoutAPlatformKey) {
  ModelCatalogue away(
      []() -> absl::StatusOr<std::vector<v1::ModelInfo>> {
        return absl::UnavailableError("gateway away");
      },
      absl::Minutes(1));
  EXPECT_EQ(away.CheckKnown({"mock-competent"}).code(), absl::StatusCode::kUnavailable);
  EXPECT_TRUE(away.CheckKnown({}).ok());
  ModelCatalogue own_keys_only(
      []() -> absl::StatusOr<std::vector<v1::ModelInfo>> {
        return absl::FailedPreconditionError("no platform key is configured");
      },
      absl::Minutes(1));
  EXPECT_TRUE(own_keys_only.CheckKnown({"anything"}).ok());
}

}  // namespace
}  // namespace arena::service
