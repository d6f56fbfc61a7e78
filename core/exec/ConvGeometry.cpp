#include "core/exec/ConvGeometry.h"

namespace fw::exec {

namespace {

// What the geometry reads: a node's attributes (a function body's references resolved), and its name and
// op type for an error.
struct NodeAttrs {
  const Node& node;
  const Attributes& attrs;
  std::vector<int64_t> attrInts(std::string_view n) const {
    return attrs.getInts(n).value_or(std::vector<int64_t>{});
  }
  std::string attrStr(std::string_view n, std::string def) const { return attrs.stringOr(n, std::move(def)); }
  int64_t attrInt(std::string_view n, int64_t def) const { return attrs.intOr(n, def); }
  Error fail(const std::string& msg) const {
    return Error::badInput("node '" + node.name + "' (" + node.opType + "): " + msg);
  }
};

int64_t ceilDiv(int64_t a, int64_t b) { return a >= 0 ? (a + b - 1) / b : -((-a) / b); }
int64_t floorDiv(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

Status common(const NodeAttrs& c, ConvGeometry& g) {
  const size_t r = g.in.size();
  g.strides = c.attrInts("strides");
  g.dilations = c.attrInts("dilations");
  const auto pads = c.attrInts("pads");
  if (g.strides.empty()) g.strides.assign(r, 1);
  if (g.dilations.empty()) g.dilations.assign(r, 1);
  if (g.strides.size() != r || g.dilations.size() != r)
    return c.fail("strides/dilations must have " + std::to_string(r) + " values");
  for (size_t d = 0; d < r; ++d)
    if (g.strides[d] <= 0 || g.dilations[d] <= 0) return c.fail("strides and dilations must be positive");
  if (!pads.empty() && pads.size() != 2 * r) return c.fail("pads must have " + std::to_string(2 * r) + " values");
  g.padsBegin.assign(r, 0);
  g.padsEnd.assign(r, 0);
  if (!pads.empty())
    for (size_t d = 0; d < r; ++d) {
      g.padsBegin[d] = pads[d];
      g.padsEnd[d] = pads[d + r];
    }
  return {};
}

}  // namespace

Result<ConvGeometry> convGeometry(const OpContext& ctx, const std::vector<int64_t>& in,
                                  const std::vector<int64_t>& kernel, bool transposed) {
  const NodeAttrs c{ctx.node, ctx.attrs};
  ConvGeometry g;
  g.in = in;
  g.kernel = kernel;
  const size_t r = in.size();
  const auto ks = c.attrInts("kernel_shape");
  if (!ks.empty() && ks != kernel)
    return c.fail("kernel_shape " + dimsStr(ks) + " does not match the weights " + dimsStr(kernel));
  FW_TRY_STATUS(common(c, g));
  const std::string autoPad = c.attrStr("auto_pad", "NOTSET");
  g.out.assign(r, 0);
  if (!transposed) {
    for (size_t d = 0; d < r; ++d) {
      const int64_t ke = (kernel[d] - 1) * g.dilations[d] + 1;
      if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
        g.out[d] = ceilDiv(in[d], g.strides[d]);
        const int64_t total = std::max<int64_t>(0, (g.out[d] - 1) * g.strides[d] + ke - in[d]);
        g.padsBegin[d] = autoPad == "SAME_UPPER" ? total / 2 : total - total / 2;
        g.padsEnd[d] = total - g.padsBegin[d];
      } else {
        if (autoPad == "VALID") g.padsBegin[d] = g.padsEnd[d] = 0;
        else if (autoPad != "NOTSET") return c.fail("unknown auto_pad '" + autoPad + "'");
        g.out[d] = floorDiv(in[d] + g.padsBegin[d] + g.padsEnd[d] - ke, g.strides[d]) + 1;
      }
      if (g.out[d] <= 0) return c.fail("output would be empty along spatial axis " + std::to_string(d));
    }
    return g;
  }
  auto outPad = c.attrInts("output_padding");
  if (outPad.empty()) outPad.assign(r, 0);
  const auto outShape = c.attrInts("output_shape");
  if (outPad.size() != r) return c.fail("output_padding must have " + std::to_string(r) + " values");
  for (size_t d = 0; d < r; ++d) {
    const int64_t ke = (kernel[d] - 1) * g.dilations[d] + 1;
    const int64_t full = g.strides[d] * (in[d] - 1) + outPad[d] + ke;
    if (!outShape.empty() || autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
      int64_t target = in[d] * g.strides[d];
      if (!outShape.empty()) target = outShape[outShape.size() - r + d];
      const int64_t total = std::max<int64_t>(0, full - target);
      if (autoPad == "SAME_UPPER") {
        g.padsBegin[d] = total / 2;
        g.padsEnd[d] = total - total / 2;
      } else {
        g.padsBegin[d] = total - total / 2;
        g.padsEnd[d] = total / 2;
      }
      g.out[d] = target;
    } else {
      if (autoPad == "VALID") g.padsBegin[d] = g.padsEnd[d] = 0;
      g.out[d] = full - g.padsBegin[d] - g.padsEnd[d];
    }
    if (g.out[d] <= 0) return c.fail("output would be empty along spatial axis " + std::to_string(d));
  }
  return g;
}

Result<ConvGeometry> poolGeometry(const OpContext& c, const std::vector<int64_t>& in) {
  return poolGeometry(c.node, c.attrs, in);
}

Result<ConvGeometry> poolGeometry(const Node& node, const Attributes& attrs, const std::vector<int64_t>& in) {
  const NodeAttrs c{node, attrs};
  ConvGeometry g;
  g.in = in;
  g.kernel = c.attrInts("kernel_shape");
  const size_t r = in.size();
  if (g.kernel.size() != r) return c.fail("kernel_shape must have " + std::to_string(r) + " values");
  FW_TRY_STATUS(common(c, g));
  const std::string autoPad = c.attrStr("auto_pad", "NOTSET");
  const bool ceilMode = c.attrInt("ceil_mode", 0) != 0;
  g.out.assign(r, 0);
  for (size_t d = 0; d < r; ++d) {
    const int64_t ke = (g.kernel[d] - 1) * g.dilations[d] + 1;
    if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
      g.out[d] = ceilDiv(in[d], g.strides[d]);
      const int64_t total = std::max<int64_t>(0, (g.out[d] - 1) * g.strides[d] + ke - in[d]);
      g.padsBegin[d] = autoPad == "SAME_UPPER" ? total / 2 : total - total / 2;
      g.padsEnd[d] = total - g.padsBegin[d];
    } else {
      if (autoPad == "VALID") g.padsBegin[d] = g.padsEnd[d] = 0;
      else if (autoPad != "NOTSET") return c.fail("unknown auto_pad '" + autoPad + "'");
      const int64_t span = in[d] + g.padsBegin[d] + g.padsEnd[d] - ke;
      g.out[d] = (ceilMode ? ceilDiv(span, g.strides[d]) : floorDiv(span, g.strides[d])) + 1;
      // A last window starting entirely in the end padding is dropped (as every framework does).
      if (ceilMode && (g.out[d] - 1) * g.strides[d] >= in[d] + g.padsBegin[d]) --g.out[d];
    }
    if (g.out[d] <= 0) return c.fail("output would be empty along spatial axis " + std::to_string(d));
  }
  return g;
}

}  // namespace fw::exec
