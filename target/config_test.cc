#include "target/config.h"

#include <set>

#include "gtest/gtest.h"

namespace qnnc::target {
namespace {

TEST(Config, SpaceEnumeratesEveryPointOnce) {
  ConfigSpace space{{{"a", {1, 2, 3}}, {"b", {4, 8}}}};
  EXPECT_EQ(space.size(), 6);
  std::set<std::string> seen;
  for (int64_t i = 0; i < space.size(); ++i) {
    Config c = space.At(i);
    EXPECT_TRUE(space.Validate(c).ok());
    seen.insert(ConfigToJson(c));
  }
  EXPECT_EQ(seen.size(), 6u);
  EXPECT_FALSE(space.Validate({{"a", 5}, {"b", 4}}).ok());
  EXPECT_FALSE(space.Validate({{"a", 1}}).ok());
  EXPECT_EQ(ConfigSpace{}.size(), 1);
}

TEST(Config, JsonRoundTrip) {
  Config c{{"tile_co", 16}, {"tile_ow", 8}};
  EXPECT_EQ(ConfigToJson(c), R"({"tile_co":16,"tile_ow":8})");
  EXPECT_EQ(*ConfigFromJson(ConfigToJson(c)), c);
  EXPECT_EQ(ConfigToJson({}), "{}");
  EXPECT_FALSE(ConfigFromJson("[1]").ok());
  EXPECT_FALSE(ConfigFromJson("{\"a\": 1.5}").ok());
  EXPECT_FALSE(ConfigFromJson("{broken").ok());
}

}  // namespace
}  // namespace qnnc::target
