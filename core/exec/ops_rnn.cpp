// LSTM (forward, reverse, bidirectional; peepholes, clip, input_forget, sequence_lens, layout).
#include <cmath>
#include <functional>

#include "core/exec/Gemm.h"
#include "core/exec/Kernel.h"

namespace fw::exec {
namespace {

using Act = std::function<float(float)>;

Result<Act> makeActivation(const OpContext& c, const std::string& name, const std::vector<float>& alphas,
                           const std::vector<float>& betas, size_t& ai, size_t& bi) {
  auto alpha = [&](float def) { return ai < alphas.size() ? alphas[ai++] : def; };
  auto beta = [&](float def) { return bi < betas.size() ? betas[bi++] : def; };
  if (name == "Sigmoid") return Act([](float v) { return 1.f / (1.f + std::exp(-v)); });
  if (name == "Tanh") return Act([](float v) { return std::tanh(v); });
  if (name == "Relu") return Act([](float v) { return v > 0 ? v : 0.f; });
  if (name == "Softsign") return Act([](float v) { return v / (1.f + std::fabs(v)); });
  if (name == "Softplus") return Act([](float v) { return std::log1p(std::exp(v)); });
  if (name == "LeakyRelu") {
    const float a = alpha(0.01f);
    return Act([a](float v) { return v >= 0 ? v : a * v; });
  }
  if (name == "Elu") {
    const float a = alpha(1.f);
    return Act([a](float v) { return v >= 0 ? v : a * (std::exp(v) - 1.f); });
  }
  if (name == "ThresholdedRelu") {
    const float a = alpha(1.f);
    return Act([a](float v) { return v > a ? v : 0.f; });
  }
  if (name == "HardSigmoid") {
    const float a = alpha(0.2f), b = beta(0.5f);
    return Act([a, b](float v) { return std::max(0.f, std::min(1.f, a * v + b)); });
  }
  if (name == "Affine") {
    const float a = alpha(1.f), b = beta(0.f);
    return Act([a, b](float v) { return a * v + b; });
  }
  if (name == "ScaledTanh") {
    const float a = alpha(1.f), b = beta(1.f);
    return Act([a, b](float v) { return a * std::tanh(b * v); });
  }
  return c.fail("unsupported activation '" + name + "'");
}

Status opLSTM(OpContext& c) {
  if (!c.has(0) || !c.has(1) || !c.has(2)) return c.fail("expects X, W and R");
  const int64_t layout = c.attrInt("layout", 0);
  RtTensor X = asFloat(c.input(0));
  const RtTensor W = asFloat(c.input(1)), R = asFloat(c.input(2));
  if (X.rank() != 3 || W.rank() != 3 || R.rank() != 3) return c.fail("X, W, R must be 3-D");
  const int64_t seq = layout ? X.dims[1] : X.dims[0], batch = layout ? X.dims[0] : X.dims[1], I = X.dims[2];
  const int64_t dirs = W.dims[0], H = R.dims[2];
  if (c.attrs.has("hidden_size") && c.attrInt("hidden_size", H) != H) return c.fail("hidden_size does not match R");
  if (W.dims[1] != 4 * H || W.dims[2] != I || R.dims[1] != 4 * H) return c.fail("W or R has an unexpected shape");
  const std::string direction = c.attrStr("direction", "forward");
  if ((direction == "bidirectional") != (dirs == 2)) return c.fail("direction '" + direction + "' does not match W");
  const float clip = c.attrFloat("clip", 0.f);
  const bool inputForget = c.attrInt("input_forget", 0) != 0;

  // Time-major copy of X for layout 1.
  if (layout) {
    RtTensor t = RtTensor::alloc(DType::Float32, {seq, batch, I});
    for (int64_t s = 0; s < seq; ++s)
      for (int64_t b = 0; b < batch; ++b)
        std::copy(X.f() + (b * seq + s) * I, X.f() + (b * seq + s + 1) * I, t.mf() + (s * batch + b) * I);
    X = t;
  }
  std::vector<int64_t> lens(static_cast<size_t>(batch), seq);
  if (c.has(4)) {
    lens = c.input(4).toInts();
    if (static_cast<int64_t>(lens.size()) != batch) return c.fail("sequence_lens must have one entry per batch");
  }
  std::vector<std::string> actNames;
  if (auto a = c.attrs.find("activations"); a && a->kind == AttrKind::Strings) actNames = a->strings;
  if (actNames.empty())
    for (int64_t d = 0; d < dirs; ++d) actNames.insert(actNames.end(), {"Sigmoid", "Tanh", "Tanh"});
  if (static_cast<int64_t>(actNames.size()) != 3 * dirs) return c.fail("activations must list 3 functions per direction");
  const auto alphas = c.attrs.getFloats("activation_alpha").value_or(std::vector<float>{});
  const auto betas = c.attrs.getFloats("activation_beta").value_or(std::vector<float>{});
  size_t ai = 0, bi = 0;
  std::vector<Act> acts;
  for (const auto& n : actNames) {
    auto a = makeActivation(c, n, alphas, betas, ai, bi);
    if (!a.ok()) return a.error();
    acts.push_back(*a);
  }

  RtTensor Y = RtTensor::zeros(DType::Float32, {seq, dirs, batch, H});
  RtTensor Yh = RtTensor::alloc(DType::Float32, {dirs, batch, H});
  RtTensor Yc = RtTensor::alloc(DType::Float32, {dirs, batch, H});
  std::vector<float> xw(static_cast<size_t>(seq * batch * 4 * H)), gates(static_cast<size_t>(batch * 4 * H));
  for (int64_t d = 0; d < dirs; ++d) {
    const bool reverse = direction == "reverse" || d == 1;
    const float* Wd = W.f() + d * 4 * H * I;
    const float* Rd = R.f() + d * 4 * H * H;
    std::vector<float> bias(static_cast<size_t>(4 * H), 0.f), peep(static_cast<size_t>(3 * H), 0.f);
    if (c.has(3)) {
      const RtTensor B = asFloat(c.input(3));
      if (B.numel() != dirs * 8 * H) return c.fail("B must be [num_directions, 8*hidden_size]");
      for (int64_t k = 0; k < 4 * H; ++k) bias[static_cast<size_t>(k)] = B.f()[d * 8 * H + k] + B.f()[d * 8 * H + 4 * H + k];
    }
    if (c.has(7)) {
      const RtTensor P = asFloat(c.input(7));
      if (P.numel() != dirs * 3 * H) return c.fail("P must be [num_directions, 3*hidden_size]");
      std::copy(P.f() + d * 3 * H, P.f() + (d + 1) * 3 * H, peep.begin());
    }
    std::vector<float> h(static_cast<size_t>(batch * H), 0.f), cs(static_cast<size_t>(batch * H), 0.f);
    if (c.has(5)) {
      const RtTensor h0 = asFloat(c.input(5));
      std::copy(h0.f() + d * batch * H, h0.f() + (d + 1) * batch * H, h.begin());
    }
    if (c.has(6)) {
      const RtTensor c0 = asFloat(c.input(6));
      std::copy(c0.f() + d * batch * H, c0.f() + (d + 1) * batch * H, cs.begin());
    }
    const Act& f = acts[static_cast<size_t>(3 * d)];
    const Act& g = acts[static_cast<size_t>(3 * d + 1)];
    const Act& hAct = acts[static_cast<size_t>(3 * d + 2)];
    sgemm(false, true, seq * batch, 4 * H, I, 1.f, X.f(), I, Wd, I, 0.f, xw.data(), 4 * H);
    for (int64_t step = 0; step < seq; ++step) {
      sgemm(false, true, batch, 4 * H, H, 1.f, h.data(), H, Rd, H, 0.f, gates.data(), 4 * H);
      for (int64_t b = 0; b < batch; ++b) {
        const int64_t len = lens[static_cast<size_t>(b)];
        if (step >= len) continue;
        const int64_t t = reverse ? len - 1 - step : step;
        float* gt = gates.data() + b * 4 * H;
        const float* xt = xw.data() + (t * batch + b) * 4 * H;
        for (int64_t k = 0; k < H; ++k) {
          auto pre = [&](int64_t gate) {
            float v = gt[gate * H + k] + xt[gate * H + k] + bias[static_cast<size_t>(gate * H + k)];
            return v;
          };
          auto clipped = [&](float v) { return clip > 0 ? std::max(-clip, std::min(clip, v)) : v; };
          const float cPrev = cs[static_cast<size_t>(b * H + k)];
          const float it = f(clipped(pre(0) + peep[static_cast<size_t>(k)] * cPrev));
          const float ft = inputForget ? 1.f - it : f(clipped(pre(2) + peep[static_cast<size_t>(2 * H + k)] * cPrev));
          const float ct = g(clipped(pre(3)));
          const float cNew = ft * cPrev + it * ct;
          const float ot = f(clipped(pre(1) + peep[static_cast<size_t>(H + k)] * cNew));
          const float hNew = ot * hAct(cNew);
          cs[static_cast<size_t>(b * H + k)] = cNew;
          h[static_cast<size_t>(b * H + k)] = hNew;
          Y.mf()[((t * dirs + d) * batch + b) * H + k] = hNew;
        }
      }
      // Rows past their sequence length keep their state; the GEMM above reads h for them too.
    }
    std::copy(h.begin(), h.end(), Yh.mf() + d * batch * H);
    std::copy(cs.begin(), cs.end(), Yc.mf() + d * batch * H);
  }
  const DType dt = c.input(0).dtype;
  if (layout) {
    RtTensor y1 = RtTensor::alloc(dt, {batch, seq, dirs, H});
    for (int64_t s = 0; s < seq; ++s)
      for (int64_t d = 0; d < dirs; ++d)
        for (int64_t b = 0; b < batch; ++b)
          std::copy(Y.f() + ((s * dirs + d) * batch + b) * H, Y.f() + ((s * dirs + d) * batch + b + 1) * H,
                    y1.mf() + ((b * seq + s) * dirs + d) * H);
    auto swap01 = [&](const RtTensor& t) {
      RtTensor o = RtTensor::alloc(dt, {batch, dirs, H});
      for (int64_t d = 0; d < dirs; ++d)
        for (int64_t b = 0; b < batch; ++b)
          std::copy(t.f() + (d * batch + b) * H, t.f() + (d * batch + b + 1) * H, o.mf() + (b * dirs + d) * H);
      return o;
    };
    c.out[0] = y1;
    if (c.out.size() > 1) c.out[1] = swap01(Yh);
    if (c.out.size() > 2) c.out[2] = swap01(Yc);
  } else {
    c.out[0] = Y.retyped(dt);
    if (c.out.size() > 1) c.out[1] = Yh.retyped(dt);
    if (c.out.size() > 2) c.out[2] = Yc.retyped(dt);
  }
  return {};
}

}  // namespace

std::vector<OpEntry> rnnOps() { return {{"LSTM", opLSTM}}; }

}  // namespace fw::exec
