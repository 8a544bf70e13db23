#include "util/config_json.h"

#include "gtest/gtest.h"

namespace qnnc::util {
namespace {

TEST(ConfigJson, RoundTrips) {
  const Config config = {{"tile_ow", 8}, {"tile_co", 32}};
  const std::string text = ConfigToJson(config);
  EXPECT_EQ(text, R"({"tile_co":32,"tile_ow":8})");
  auto back = ConfigFromJson(text);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, config);
  EXPECT_EQ(ConfigToJson({}), "{}");
  EXPECT_TRUE(ConfigFromJson("{}")->empty());
}

TEST(ConfigJson, RefusesWhatIsNotAnObjectOfIntegers) {
  for (const char* bad : {"", "[1]", "{\"tile_co\": 1.5}", "{\"tile_co\": \"8\"}", "{"}) {
    EXPECT_FALSE(ConfigFromJson(bad).ok()) << bad;
  }
  EXPECT_NE(ConfigFromJson(R"({"tile_co": true})").status().message().find("knob 'tile_co'"),
            std::string::npos);
}

}  // namespace
}  // namespace qnnc::util
