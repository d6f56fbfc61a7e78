#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/util/FileUtil.h"
#include "simulator/HwProfile.h"

namespace fw::sim {
namespace {

using nlohmann::json;

json toyJson() {
  auto text = readFileBytes(hwProfileDir() + "/toy.json");
  EXPECT_TRUE(text.ok());
  return json::parse(*text);
}

std::string errorOf(const json& j) {
  auto p = parseHwProfile(j, "test.json");
  EXPECT_FALSE(p.ok());
  if (p.ok()) return {};
  EXPECT_EQ(p.error().code, ErrorCode::BadInput);
  return p.error().message;
}

TEST(HwProfile, ShippedProfilesLoad) {
  const auto names = listHwProfiles();
  for (const char* want : {"ascend910b2", "ascend910", "ascend310", "toy"})
    EXPECT_NE(std::find(names.begin(), names.end(), want), names.end()) << want;
  for (const auto& n : names) {
    auto p = resolveHwProfile(n);
    ASSERT_TRUE(p.ok()) << p.error().message;
    EXPECT_EQ(p->name, n);
    EXPECT_FALSE(p->notes.empty()) << n << ": every profile says where its figures come from";
  }
}

TEST(HwProfile, PeaksAreDerivedFromFields) {
  auto b2 = resolveHwProfile("ascend910b2");
  ASSERT_TRUE(b2.ok());
  EXPECT_NEAR(b2->peakFlops(), 24.0 * 4096 * 2 * 1.8e9, 1e6);  // ≈ 353.9 TFLOPS
  EXPECT_NEAR(b2->peakFlops() / b2->hbmBandwidth, 236.0, 0.5);  // roofline ridge (NPU.md)
  auto a910 = resolveHwProfile("ascend910");
  ASSERT_TRUE(a910.ok());
  EXPECT_NEAR(a910->peakFlops(), 256e12, 1e6);
  EXPECT_TRUE(a910->isEstimate("clock_hz"));
  auto a310 = resolveHwProfile("ascend310");
  ASSERT_TRUE(a310.ok());
  EXPECT_NEAR(a310->peakFlops(), 8e12, 1e6);
  EXPECT_EQ(defaultHwProfileName(), "ascend910b2");
  auto def = resolveHwProfile("");
  ASSERT_TRUE(def.ok());
  EXPECT_EQ(def->name, "ascend910b2");
}

TEST(HwProfile, ErrorsNameTheJsonPath) {
  json j = toyJson();
  j["ub_bytes"] = 0;
  EXPECT_NE(errorOf(j).find("test.json: $.ub_bytes: must be a positive integer"), std::string::npos);

  j = toyJson();
  j["cube"]["m"] = "sixteen";
  EXPECT_NE(errorOf(j).find("$.cube.m: must be a positive integer"), std::string::npos);

  j = toyJson();
  j["cube"]["m"] = 16.5;
  EXPECT_NE(errorOf(j).find("$.cube.m"), std::string::npos);

  j = toyJson();
  j.erase("clock_hz");
  EXPECT_NE(errorOf(j).find("$.clock_hz: missing"), std::string::npos);

  j = toyJson();
  j["hbm_bandwidth_bytes_per_s"] = -1;
  EXPECT_NE(errorOf(j).find("$.hbm_bandwidth_bytes_per_s: must be positive"), std::string::npos);

  j = toyJson();
  j["ub_byte"] = 1024;  // a typo must not pass silently
  EXPECT_NE(errorOf(j).find("$.ub_byte: unknown field"), std::string::npos);

  j = toyJson();
  j["cube"]["q"] = 1;
  EXPECT_NE(errorOf(j).find("$.cube.q: unknown field"), std::string::npos);

  j = toyJson();
  j["dtype"] = "float8";
  EXPECT_NE(errorOf(j).find("$.dtype: must be one of"), std::string::npos);

  j = toyJson();
  j["notes"][0]["estimate"] = "yes";
  EXPECT_NE(errorOf(j).find("$.notes[0].estimate: must be true or false"), std::string::npos);

  j = toyJson();
  j["notes"][0]["field"] = "$.no_such_field";
  EXPECT_NE(errorOf(j).find("$.notes[0].field"), std::string::npos);

  j = toyJson();
  j["l0c_bytes"] = 512;  // cannot hold one 16×16 fp32 accumulator fractal
  EXPECT_NE(errorOf(j).find("$.l0c_bytes: must hold one"), std::string::npos);

  j = toyJson();
  j["launch_us"] = 0;  // zero is allowed for costs
  EXPECT_TRUE(parseHwProfile(j, "test.json").ok());
}

// Fuzz finding (UBSan): acc_bytes = 47777777777777777 overflowed int64 in the l0c check m*n*acc_bytes.
// Integer fields now have upper bounds, so no product of them can overflow.
TEST(HwProfile, HugeIntegerFieldsAreClearErrors) {
  json j = toyJson();
  j["cube"]["acc_bytes"] = 47777777777777777LL;
  EXPECT_NE(errorOf(j).find("$.cube.acc_bytes: must be at most 65536"), std::string::npos);

  j = toyJson();  // each side fits alone; m*n*k = 2^66 would not
  j["cube"]["m"] = 4194304;
  j["cube"]["n"] = 4194304;
  j["cube"]["k"] = 4194304;
  j["l0c_bytes"] = 9000000000000000000ULL;
  EXPECT_NE(errorOf(j).find("$.cube.m: must be at most"), std::string::npos);

  j = toyJson();
  j["l1_bytes"] = 18446744073709551615ULL;  // above int64
  EXPECT_NE(errorOf(j).find("$.l1_bytes: must be at most 1099511627776"), std::string::npos);

  j = toyJson();
  j["ub_bytes"] = 1e30;
  EXPECT_NE(errorOf(j).find("$.ub_bytes: must be at most"), std::string::npos);

  j = toyJson();
  j["vector_lanes"] = -3.0;
  EXPECT_NE(errorOf(j).find("$.vector_lanes: must be a positive integer"), std::string::npos);

  j = toyJson();  // the bounds themselves are accepted
  j["cube_cores"] = 65536;
  j["l2_bytes"] = 1099511627776LL;
  EXPECT_TRUE(parseHwProfile(j, "test.json").ok());
}

TEST(HwProfile, ResolveUnknownNameListsKnown) {
  auto p = resolveHwProfile("ascend9000");
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.error().message.find("unknown hardware profile 'ascend9000'"), std::string::npos);
  EXPECT_NE(p.error().message.find("ascend910b2"), std::string::npos);
  auto bad = parseHwProfileText("{ not json", "x.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("x.json: not valid JSON"), std::string::npos);
}

}  // namespace
}  // namespace fw::sim
