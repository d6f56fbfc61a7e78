// The executor's Conv on oneDNN: the layout a depthwise Conv runs in, and the staging buffers a Conv's
// activations take in the library's layout (core/exec/ConvPrimitive.cpp, core/exec/OneDnn.h).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "core/exec/ConvPrimitive.h"
#include "core/exec/OneDnn.h"

namespace {

using fw::exec::ConvProblem;

// A 3x3 Conv, pads 1, stride 1, over N x C x hw x hw into M channels in `group` groups.
ConvProblem conv3x3(int64_t n, int64_t c, int64_t m, int64_t hw, int64_t group) {
  ConvProblem p;
  p.N = n, p.C = c, p.M = m, p.group = group;
  p.geo.in = {hw, hw};
  p.geo.out = {hw, hw};
  p.geo.kernel = {3, 3};
  p.geo.strides = {1, 1};
  p.geo.dilations = {1, 1};
  p.geo.padsBegin = {1, 1};
  p.geo.padsEnd = {1, 1};
  return p;
}

}  // namespace

// oneDNN 2.6 on AVX-512 would run a depthwise Conv channels-last and the executor would transpose its
// NCHW activations to and from it on every call; it runs on channel blocks instead, on every ISA (under
// ONEDNN_MAX_CPU_ISA=AVX2 or SSE41 the library itself picks 8-channel blocks). Channels that are a
// multiple of 8 but not of 16 take 8-channel blocks everywhere.
TEST(ExecConvLayout, DepthwiseConvRunsOnChannelBlocksNotChannelsLast) {
  for (int64_t c : {32, 128, 24, 72}) {
    const std::string layout = fw::exec::convolutionSourceLayout(conv3x3(2, c, c, 16, c));
    EXPECT_TRUE(layout == "blocked16" || layout == "blocked8") << c << " channels: " << layout;
    if (c % 16 != 0) {
      EXPECT_EQ(layout, "blocked8") << c << " channels";
    }
  }
  // A dense Conv keeps the library's choice: on AVX-512 channels-last brgconv ran from 19 % faster to 13 %
  // slower than 16-channel blocks over eight dense shapes, reorders included, and a first Conv on 3
  // channels has no blocked kernel but the reference one.
  EXPECT_NE(fw::exec::convolutionSourceLayout(conv3x3(1, 64, 64, 16, 1)), "other");
}

// A Conv's staging buffer is grown and kept: a smaller layout after a larger one reuses the storage, and
// the two slots are distinct (a Conv's source and destination are staged at once).
TEST(ExecConvLayout, StagingBuffersAreReusedPerSlot) {
  using dnnl::memory;
  const memory::desc big({4, 64, 32, 32}, memory::data_type::f32, memory::format_tag::nChw16c);
  const memory::desc small({1, 16, 8, 8}, memory::data_type::f32, memory::format_tag::nChw16c);
  void* first = fw::exec::onednn::staged(0, big).get_data_handle();
  EXPECT_EQ(fw::exec::onednn::staged(0, small).get_data_handle(), first);
  EXPECT_EQ(fw::exec::onednn::staged(0, big).get_data_handle(), first);
  EXPECT_NE(fw::exec::onednn::staged(1, small).get_data_handle(), first);
  EXPECT_THROW(fw::exec::onednn::staged(2, small), std::invalid_argument);
}
