// GRU (reached from rnnOps() in ops_rnn.cpp; shared machinery in RnnCommon.h). Gate order in W, R,
// B: z (update), r (reset), h (hidden).
//   zt = f(Xt*Wz + Ht-1*Rz + Wbz + Rbz), rt = f(Xt*Wr + Ht-1*Rr + Wbr + Rbr)
//   ht = g(Xt*Wh + (rt.Ht-1)*Rh + Rbh + Wbh)          linear_before_reset = 0 (two GEMMs a step)
//   ht = g(Xt*Wh + rt.(Ht-1*Rh + Rbh) + Wbh)          linear_before_reset != 0 (PyTorch's form)
//   Ht = (1 - zt).ht + zt.Ht-1
#include "core/exec/Gemm.h"
#include "core/exec/RnnCommon.h"

namespace fw::exec {
namespace {

using rnn::Act;
using rnn::Setup;

Status opGRU(OpContext& c) {
  auto sr = rnn::setup(c, 3, {"Sigmoid", "Tanh"});
  if (!sr.ok()) return sr.error();
  const Setup& s = *sr;
  const int64_t H = s.H, batch = s.batch, dirs = s.dirs;
  const bool lbr = c.opset >= 3 && c.attrInt("linear_before_reset", 0) != 0;
  RtTensor Y = RtTensor::zeros(DType::Float32, {s.seq, dirs, batch, H});
  RtTensor Yh = RtTensor::alloc(DType::Float32, {dirs, batch, H});
  // hr: Ht-1 * R^T for the gates the step's first GEMM covers (z, r and, with lbr, h);
  // rh / rhR: (rt.Ht-1) and its product with Rh (lbr = 0 only).
  const int64_t first = lbr ? 3 * H : 2 * H;
  std::vector<float> xw, hr(static_cast<size_t>(batch * first)), zr(static_cast<size_t>(batch * 2 * H));
  std::vector<float> rh, rhR;
  if (!lbr) {
    rh.assign(static_cast<size_t>(batch * H), 0.f);
    rhR.resize(static_cast<size_t>(batch * H));
  }
  for (int64_t d = 0; d < dirs; ++d) {
    // W and R biases of z and r add up; Rbh adds outside the reset only without lbr.
    std::vector<float> bias(static_cast<size_t>(3 * H)), rbh(static_cast<size_t>(H));
    for (int64_t k = 0; k < 3 * H; ++k) {
      const float rb = s.bias(d, 3 * H + k);
      bias[static_cast<size_t>(k)] = s.bias(d, k) + (k < 2 * H || !lbr ? rb : 0.f);
      if (k >= 2 * H) rbh[static_cast<size_t>(k - 2 * H)] = rb;
    }
    auto h0 = s.initialState(c, 5, d);
    if (!h0.ok()) return h0.error();
    std::vector<float>& h = *h0;
    const Act& f = s.act(d, 2, 0);
    const Act& g = s.act(d, 2, 1);
    s.project(d, bias, xw);
    const float* Rd = s.R.f() + d * 3 * H * H;
    const float* Rh = Rd + 2 * H * H;
    // The step's products, the same shapes every step.
    PreparedGemm recur(true, batch, first, H, H, H, first, Rd, s.R.constantOwner()),
        reset(true, batch, H, H, H, H, H, lbr ? nullptr : Rh, s.R.constantOwner());  // used without lbr only
    for (int64_t step = 0; step < s.steps(); ++step) {
      const bool rev = s.reverse(d);
      recur.run(h.data(), Rd, hr.data());
      // z and r of every running row; without lbr also rt.Ht-1 for the second GEMM.
      s.forRows(step, rev, [&](int64_t b, int64_t t) {
        const float* xt = xw.data() + (t * batch + b) * 3 * H;
        const float* hrb = hr.data() + b * first;
        float* zrb = zr.data() + b * 2 * H;
        for (int64_t k = 0; k < 2 * H; ++k) zrb[k] = xt[k] + hrb[k];
        s.clipAll(zrb, 2 * H);
        f(zrb, 2 * H);
        if (!lbr)
          for (int64_t k = 0; k < H; ++k) rh[static_cast<size_t>(b * H + k)] = zrb[H + k] * h[static_cast<size_t>(b * H + k)];
      });
      if (!lbr) reset.run(rh.data(), Rh, rhR.data());
      s.forRows(step, rev, [&](int64_t b, int64_t t) {
        const float* xt = xw.data() + (t * batch + b) * 3 * H + 2 * H;
        const float* zrb = zr.data() + b * 2 * H;
        const float* hrb = hr.data() + b * first + 2 * H;
        float* hb = h.data() + b * H;
        float* y = Y.mf() + ((t * dirs + d) * batch + b) * H;
        // The candidate ht is formed in the row of Y, then Y and Ht take the blend.
        for (int64_t k = 0; k < H; ++k)
          y[k] = lbr ? xt[k] + zrb[H + k] * (hrb[k] + rbh[static_cast<size_t>(k)]) : xt[k] + rhR[static_cast<size_t>(b * H + k)];
        s.clipAll(y, H);
        g(y, H);
        for (int64_t k = 0; k < H; ++k) y[k] = hb[k] = (1.f - zrb[k]) * y[k] + zrb[k] * hb[k];
      });
    }
    std::copy(h.begin(), h.end(), Yh.mf() + d * batch * H);
  }
  s.finish(c, Y, {&Yh});
  return {};
}

}  // namespace

std::vector<OpEntry> rnn::gruOps() { return {{"GRU", opGRU}}; }

}  // namespace fw::exec
