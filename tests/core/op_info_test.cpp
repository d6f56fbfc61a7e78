// The one op table (core/ir/OpInfo.h) against the executor and the ONNX opset.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "core/exec/Executor.h"
#include "core/ir/OpInfo.h"

namespace {

TEST(OpInfo, EveryOpTheExecutorRunsHasARow) {
  std::vector<std::string> missing;
  for (const auto& op : fw::supportedOps())
    if (!fw::findOpInfo(op)) missing.push_back(op);
  EXPECT_TRUE(missing.empty()) << "no row in core/ir/OpInfo.cpp for: " << ::testing::PrintToString(missing);
}

TEST(OpInfo, RowsAreUniqueAndSorted) {
  std::string prev;
  for (const auto& r : fw::opInfoTable()) {
    EXPECT_LT(prev, std::string(r.op)) << "rows must be sorted by name and unique: " << r.op;
    prev = std::string(r.op);
  }
}

TEST(OpInfo, FusionAndSimulatorAgreeOnCubeOps) {
  // A cube pattern is costed on the cube; recurrent cells are cube work that fusion keeps whole.
  for (const auto& r : fw::opInfoTable()) {
    if (r.pattern == fw::OpPattern::Cube) {
      EXPECT_EQ(r.family, fw::CostFamily::Cube) << r.op;
    }
    if (r.pattern == fw::OpPattern::ControlFlow) {
      EXPECT_EQ(r.family, fw::CostFamily::ControlFlow) << r.op;
    }
  }
  for (const char* op : {"QLinearConv", "QLinearMatMul", "MatMulInteger", "ConvInteger"})
    EXPECT_EQ(fw::findOpInfo(op)->pattern, fw::OpPattern::Cube) << op;
  for (const char* op : {"LSTM", "GRU", "RNN"}) {
    EXPECT_EQ(fw::findOpInfo(op)->pattern, fw::OpPattern::Opaque) << op;
    EXPECT_EQ(fw::findOpInfo(op)->family, fw::CostFamily::Cube) << op;
  }
}

TEST(OpInfo, DropoutAndIdentityAreViews) {
  EXPECT_EQ(fw::findOpInfo("Dropout")->family, fw::CostFamily::View);
  EXPECT_EQ(fw::findOpInfo("Identity")->family, fw::CostFamily::View);
  EXPECT_EQ(fw::findOpInfo("NoSuchOp"), nullptr);
}

}  // namespace
