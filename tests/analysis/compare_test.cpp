// Per-chip comparison: a chip with a small Unified Buffer refuses merges the other accepts, and the
// comparison names them, the kernels that differ and what each plan costs on each chip.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "core/io/ModelSource.h"
#include "ui/analysis/Compare.h"

namespace {

std::string smallUbProfile() {
  std::ifstream in(std::string(FW_TEST_DATA_DIR) + "/../../resources/hw/toy.json");
  auto j = nlohmann::json::parse(in);
  j["name"] = "toy_small_ub";
  j["ub_bytes"] = 16384;
  auto path = (std::filesystem::temp_directory_path() / "fw_compare_small_ub.json").string();
  std::ofstream(path) << j.dump(1);
  return path;
}

TEST(CompareChips, ListsTheDecisionsASmallerUnifiedBufferRefuses) {
  auto m = fw::loadModel("zoo:bert?layers=1&seq=64");
  ASSERT_TRUE(m.ok()) << m.error().message;
  fw::CompareOptions o;
  o.hw = {"toy", smallUbProfile()};
  auto r = fw::compareChips(*m, o);
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->chips.size(), 2u);
  EXPECT_EQ(r->chips[1].hw, "toy_small_ub");
  EXPECT_GT(r->chips[1].kernels, r->chips[0].kernels);
  ASSERT_FALSE(r->decisions.empty());
  bool ubRefusal = false;
  for (const auto& d : r->decisions) {
    ASSERT_EQ(d.outcome.size(), 2u);
    ubRefusal = ubRefusal || d.outcome[1].find("UB 16 KiB exceeded") != std::string::npos;
  }
  EXPECT_TRUE(ubRefusal);
  EXPECT_FALSE(r->kernelChanges[1].empty());
  for (const auto& c : r->chips) {
    ASSERT_EQ(c.onChip.size(), 2u);
    EXPECT_GT(c.afterUs, 0);
  }
  EXPECT_DOUBLE_EQ(r->chips[0].onChip[0], r->chips[0].afterUs);
  EXPECT_NE(r->toText().find("fusion decisions differ"), std::string::npos);
  EXPECT_EQ(r->toJson()["chips"].size(), 2u);
}

TEST(CompareChips, SameLimitsSameKernelsAndOneChipIsAnError) {
  auto m = fw::loadModel("zoo:resnet50?image=64");
  ASSERT_TRUE(m.ok());
  fw::CompareOptions o;
  o.hw = {"ascend910b2", "ascend310"};  // the same UB: fusion sees the same limits
  auto r = fw::compareChips(*m, o);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(r->decisions.empty());
  EXPECT_TRUE(r->kernelChanges[1].empty());
  EXPECT_NE(r->toText().find("the plans are the same kernels"), std::string::npos);
  o.hw = {"ascend910b2"};
  EXPECT_FALSE(fw::compareChips(*m, o).ok());
}

}  // namespace
