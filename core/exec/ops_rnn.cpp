// Recurrent layers: LSTM, GRU, RNN (forward, reverse, bidirectional; sequence_lens, initial states,
// activations with alpha/beta, clip, the batch-first layout of opset 14). The machinery they share
// is in RnnCommon.h: argument checks, the time-major copy of X, the input projection of the whole
// sequence in one GEMM (Gemm.h, oneDNN), the initial states and the output layout. Per step each
// layer runs one GEMM of the hidden state against R (GRU without linear_before_reset: two), each
// prepared once for all steps (PreparedGemm), and the gate functions over whole gate blocks.
//
// Rows past their sequence length keep their state (Y_h/Y_c are the state after the row's last
// step; a row of length 0 keeps its initial state) and their Y entries stay zero; a reverse pass
// starts at the row's last valid step.
#include "core/exec/RnnCommon.h"

#include <cmath>

#include "core/exec/FastMath.h"
#include "core/exec/Gemm.h"

namespace fw::exec {
namespace rnn {

namespace {
// A scalar function applied over the array.
template <class F>
Act each(F f) {
  return Act([f](float* x, int64_t n) {
    for (int64_t i = 0; i < n; ++i) x[i] = f(x[i]);
  });
}
}  // namespace

Result<Act> makeActivation(const OpContext& c, const std::string& name, const std::vector<float>& alphas,
                           const std::vector<float>& betas, size_t& ai, size_t& bi) {
  auto alpha = [&](float def) { return ai < alphas.size() ? alphas[ai++] : def; };
  auto beta = [&](float def) { return bi < betas.size() ? betas[bi++] : def; };
  // The two every exported layer uses run on vector lanes (FastMath.h).
  if (name == "Sigmoid") return Act([](float* x, int64_t n) { fastmath::sigmoid(x, x, n); });
  if (name == "Tanh") return Act([](float* x, int64_t n) { fastmath::tanh(x, x, n); });
  if (name == "Relu") return each([](float v) { return v > 0 ? v : 0.f; });
  if (name == "Softsign") return each([](float v) { return v / (1.f + std::fabs(v)); });
  if (name == "Softplus") return Act([](float* x, int64_t n) { fastmath::softplus(x, x, n); });
  if (name == "LeakyRelu") {
    const float a = alpha(0.01f);
    return each([a](float v) { return v >= 0 ? v : a * v; });
  }
  if (name == "Elu") {
    const float a = alpha(1.f);
    return each([a](float v) { return v >= 0 ? v : a * (std::exp(v) - 1.f); });
  }
  if (name == "ThresholdedRelu") {
    const float a = alpha(1.f);
    return each([a](float v) { return v > a ? v : 0.f; });
  }
  if (name == "HardSigmoid") {
    const float a = alpha(0.2f), b = beta(0.5f);
    return each([a, b](float v) { return std::max(0.f, std::min(1.f, a * v + b)); });
  }
  if (name == "Affine") {
    const float a = alpha(1.f), b = beta(0.f);
    return each([a, b](float v) { return a * v + b; });
  }
  if (name == "ScaledTanh") {
    const float a = alpha(1.f), b = beta(1.f);
    return Act([a, b](float* x, int64_t n) {
      for (int64_t i = 0; i < n; ++i) x[i] *= b;
      fastmath::tanh(x, x, n);
      for (int64_t i = 0; i < n; ++i) x[i] *= a;
    });
  }
  return c.fail("unsupported activation '" + name + "'");
}

Result<Setup> setup(OpContext& c, int64_t gates, const std::vector<std::string>& defaultActs) {
  if (!c.has(0) || !c.has(1) || !c.has(2)) return c.fail("expects inputs X, W and R");
  Setup s;
  s.G = gates;
  s.layout = c.opset >= 14 ? c.attrInt("layout", 0) : 0;
  if (s.layout != 0 && s.layout != 1) return c.fail("layout must be 0 or 1, got " + std::to_string(s.layout));
  RtTensor X = asFloat(c.input(0));
  s.W = asFloat(c.input(1));
  s.R = asFloat(c.input(2));
  if (X.rank() != 3) return c.fail("X must be 3-D, got " + dimsStr(X.dims));
  if (s.W.rank() != 3 || s.R.rank() != 3) return c.fail("W and R must be 3-D, got " + dimsStr(s.W.dims) + " and " + dimsStr(s.R.dims));
  s.seq = s.layout ? X.dims[1] : X.dims[0];
  s.batch = s.layout ? X.dims[0] : X.dims[1];
  s.I = X.dims[2];
  s.dirs = s.W.dims[0];
  s.H = s.R.dims[2];
  if (c.attrs.has("hidden_size") && c.attrInt("hidden_size", s.H) != s.H)
    return c.fail("hidden_size " + std::to_string(c.attrInt("hidden_size", 0)) + " does not match R " + dimsStr(s.R.dims));
  if (s.W.dims[1] != gates * s.H || s.W.dims[2] != s.I)
    return c.fail("W must be [num_directions, " + std::to_string(gates) + "*hidden_size, input_size], got " + dimsStr(s.W.dims));
  if (s.R.dims[0] != s.dirs || s.R.dims[1] != gates * s.H)
    return c.fail("R must be [num_directions, " + std::to_string(gates) + "*hidden_size, hidden_size], got " + dimsStr(s.R.dims));
  s.direction = c.attrStr("direction", "forward");
  if (s.direction != "forward" && s.direction != "reverse" && s.direction != "bidirectional")
    return c.fail("direction must be forward, reverse or bidirectional, got '" + s.direction + "'");
  if ((s.direction == "bidirectional" ? 2 : 1) != s.dirs)
    return c.fail("direction '" + s.direction + "' does not match W " + dimsStr(s.W.dims));
  s.clip = c.attrFloat("clip", 0.f);
  if (s.clip < 0) return c.fail("clip must not be negative");
  if (c.has(3)) {
    s.B = asFloat(c.input(3));
    if (s.B.numel() != s.dirs * 2 * gates * s.H)
      return c.fail("B must be [num_directions, " + std::to_string(2 * gates) + "*hidden_size], got " + dimsStr(s.B.dims));
  }

  s.lens.assign(static_cast<size_t>(s.batch), s.seq);
  if (c.has(4)) {
    s.lens = c.input(4).toInts();
    if (static_cast<int64_t>(s.lens.size()) != s.batch) return c.fail("sequence_lens must have one entry per batch row");
    for (int64_t v : s.lens)
      if (v < 0 || v > s.seq)
        return c.fail("sequence_lens entry " + std::to_string(v) + " is outside [0, " + std::to_string(s.seq) + "]");
  }

  std::vector<std::string> names;
  if (auto a = c.attrs.find("activations"); a && a->kind == AttrKind::Strings) names = a->strings;
  const int64_t per = static_cast<int64_t>(defaultActs.size());
  if (names.empty())
    for (int64_t d = 0; d < s.dirs; ++d) names.insert(names.end(), defaultActs.begin(), defaultActs.end());
  // A unidirectional node may list the functions twice (exporters write the bidirectional form).
  if (s.dirs == 1 && static_cast<int64_t>(names.size()) == 2 * per) names.resize(static_cast<size_t>(per));
  if (static_cast<int64_t>(names.size()) != per * s.dirs)
    return c.fail("activations must list " + std::to_string(per) + " functions per direction, got " +
                  std::to_string(names.size()));
  const auto alphas = c.attrs.getFloats("activation_alpha").value_or(std::vector<float>{});
  const auto betas = c.attrs.getFloats("activation_beta").value_or(std::vector<float>{});
  size_t ai = 0, bi = 0;
  for (const auto& n : names) {
    auto a = makeActivation(c, n, alphas, betas, ai, bi);
    if (!a.ok()) return a.error();
    s.acts.push_back(*a);
  }

  // Time-major copy of X for layout 1.
  if (s.layout) {
    RtTensor t = RtTensor::alloc(DType::Float32, {s.seq, s.batch, s.I});
    for (int64_t q = 0; q < s.seq; ++q)
      for (int64_t b = 0; b < s.batch; ++b)
        std::copy(X.f() + (b * s.seq + q) * s.I, X.f() + (b * s.seq + q + 1) * s.I, t.mf() + (q * s.batch + b) * s.I);
    X = t;
  }
  s.X = X;
  return s;
}

float Setup::bias(int64_t d, int64_t k) const { return B.defined() ? B.f()[d * 2 * G * H + k] : 0.f; }

Result<std::vector<float>> Setup::initialState(const OpContext& c, size_t input, int64_t d) const {
  std::vector<float> h(static_cast<size_t>(batch * H), 0.f);
  if (!c.has(input)) return h;
  const RtTensor t = asFloat(c.input(input));
  const std::vector<int64_t> want = layout ? std::vector<int64_t>{batch, dirs, H} : std::vector<int64_t>{dirs, batch, H};
  if (t.dims != want)
    return c.fail("initial state input " + std::to_string(input) + " must be " + dimsStr(want) + ", got " + dimsStr(t.dims));
  for (int64_t b = 0; b < batch; ++b) {
    const float* src = t.f() + (layout ? (b * dirs + d) * H : (d * batch + b) * H);
    std::copy(src, src + H, h.begin() + b * H);
  }
  return h;
}

void Setup::project(int64_t d, const std::vector<float>& gateBias, std::vector<float>& xw) const {
  const int64_t N = G * H;
  xw.resize(static_cast<size_t>(seq * batch * N));
  if (seq * batch == 0 || N == 0) return;
  if (I == 0)
    std::fill(xw.begin(), xw.end(), 0.f);
  else
    sgemm(false, true, seq * batch, N, I, 1.f, X.f(), I, W.f() + d * N * I, I, 0.f, xw.data(), N,
          W.constantOwner());
  parallelFor(seq * batch, N, [&](int64_t r0, int64_t r1) {
    for (int64_t r = r0; r < r1; ++r) {
      float* row = xw.data() + r * N;
      for (int64_t k = 0; k < N; ++k) row[k] += gateBias[static_cast<size_t>(k)];
    }
  });
}

void Setup::forRows(int64_t step, bool rev, const std::function<void(int64_t b, int64_t t)>& fn) const {
  parallelFor(batch, G * H * 16, [&](int64_t b0, int64_t b1) {
    for (int64_t b = b0; b < b1; ++b) {
      const int64_t len = lens[static_cast<size_t>(b)];
      if (step < len) fn(b, rev ? len - 1 - step : step);
    }
  });
}

void Setup::finish(OpContext& c, const RtTensor& Y, const std::vector<const RtTensor*>& states) const {
  const DType dt = c.input(0).dtype;
  if (!layout) {
    if (!c.out.empty()) c.out[0] = Y.retyped(dt);
    for (size_t k = 0; k < states.size() && k + 1 < c.out.size(); ++k) c.out[k + 1] = states[k]->retyped(dt);
    return;
  }
  if (!c.out.empty()) {
    RtTensor y1 = RtTensor::alloc(dt, {batch, seq, dirs, H});
    for (int64_t q = 0; q < seq; ++q)
      for (int64_t d = 0; d < dirs; ++d)
        for (int64_t b = 0; b < batch; ++b)
          std::copy(Y.f() + ((q * dirs + d) * batch + b) * H, Y.f() + ((q * dirs + d) * batch + b + 1) * H,
                    y1.mf() + ((b * seq + q) * dirs + d) * H);
    c.out[0] = y1;
  }
  for (size_t k = 0; k < states.size() && k + 1 < c.out.size(); ++k) {
    RtTensor o = RtTensor::alloc(dt, {batch, dirs, H});
    for (int64_t d = 0; d < dirs; ++d)
      for (int64_t b = 0; b < batch; ++b)
        std::copy(states[k]->f() + (d * batch + b) * H, states[k]->f() + (d * batch + b + 1) * H,
                  o.mf() + (b * dirs + d) * H);
    c.out[k + 1] = o;
  }
}

}  // namespace rnn

namespace {

using rnn::Act;
using rnn::Setup;

// it = f(Xt*Wi + Ht-1*Ri + Pi.Ct-1 + Wbi + Rbi), ft likewise (or 1 - it with input_forget),
// ct = g(Xt*Wc + Ht-1*Rc + Wbc + Rbc), Ct = ft.Ct-1 + it.ct, ot = f(Xt*Wo + Ht-1*Ro + Po.Ct + ...),
// Ht = ot.h(Ct). Gate order in W, R, B: i, o, f, c; P: i, o, f.
Status opLSTM(OpContext& c) {
  auto sr = rnn::setup(c, 4, {"Sigmoid", "Tanh", "Tanh"});
  if (!sr.ok()) return sr.error();
  const Setup& s = *sr;
  const int64_t H = s.H, batch = s.batch, dirs = s.dirs;
  const bool inputForget = c.attrInt("input_forget", 0) != 0;
  RtTensor P;
  if (c.has(7)) {
    P = asFloat(c.input(7));
    if (P.numel() != dirs * 3 * H) return c.fail("P must be [num_directions, 3*hidden_size], got " + dimsStr(P.dims));
  }
  RtTensor Y = RtTensor::zeros(DType::Float32, {s.seq, dirs, batch, H});
  RtTensor Yh = RtTensor::alloc(DType::Float32, {dirs, batch, H});
  RtTensor Yc = RtTensor::alloc(DType::Float32, {dirs, batch, H});
  std::vector<float> xw, gates(static_cast<size_t>(batch * 4 * H));
  for (int64_t d = 0; d < dirs; ++d) {
    std::vector<float> bias(static_cast<size_t>(4 * H)), peep(static_cast<size_t>(3 * H), 0.f);
    for (int64_t k = 0; k < 4 * H; ++k) bias[static_cast<size_t>(k)] = s.bias(d, k) + s.bias(d, 4 * H + k);
    if (P.defined()) std::copy(P.f() + d * 3 * H, P.f() + (d + 1) * 3 * H, peep.begin());
    auto h0 = s.initialState(c, 5, d);
    if (!h0.ok()) return h0.error();
    auto c0 = s.initialState(c, 6, d);
    if (!c0.ok()) return c0.error();
    std::vector<float>& h = *h0;
    std::vector<float>& cs = *c0;
    const Act& f = s.act(d, 3, 0);
    const Act& g = s.act(d, 3, 1);
    const Act& hAct = s.act(d, 3, 2);
    s.project(d, bias, xw);
    const float* Rd = s.R.f() + d * 4 * H * H;
    // Ht-1 * R^T, the same shape every step
    PreparedGemm recur(true, batch, 4 * H, H, H, H, 4 * H, Rd, s.R.constantOwner());
    for (int64_t step = 0; step < s.steps(); ++step) {
      recur.run(h.data(), Rd, gates.data());
      s.forRows(step, s.reverse(d), [&](int64_t b, int64_t t) {
        // The row's gate blocks in place: Ht-1*R + Xt*W + biases, the peepholes on Ct-1, the clip and
        // the functions, each over a whole block.
        float* gi = gates.data() + b * 4 * H;
        float *go = gi + H, *gf = gi + 2 * H, *gc = gi + 3 * H;
        const float* xt = xw.data() + (t * batch + b) * 4 * H;
        float* cb = cs.data() + b * H;
        for (int64_t k = 0; k < 4 * H; ++k) gi[k] += xt[k];
        if (P.defined())
          for (int64_t k = 0; k < H; ++k) {
            gi[k] += peep[static_cast<size_t>(k)] * cb[k];
            gf[k] += peep[static_cast<size_t>(2 * H + k)] * cb[k];
          }
        s.clipAll(gi, H);
        s.clipAll(gf, H);
        s.clipAll(gc, H);
        f(gi, H);
        if (!inputForget) f(gf, H);
        g(gc, H);
        for (int64_t k = 0; k < H; ++k) cb[k] = (inputForget ? 1.f - gi[k] : gf[k]) * cb[k] + gi[k] * gc[k];
        if (P.defined())
          for (int64_t k = 0; k < H; ++k) go[k] += peep[static_cast<size_t>(H + k)] * cb[k];
        s.clipAll(go, H);
        f(go, H);
        std::copy(cb, cb + H, gc);  // the c block, used up, takes h(Ct)
        hAct(gc, H);
        float* hb = h.data() + b * H;
        float* y = Y.mf() + ((t * dirs + d) * batch + b) * H;
        for (int64_t k = 0; k < H; ++k) y[k] = hb[k] = go[k] * gc[k];
      });
    }
    std::copy(h.begin(), h.end(), Yh.mf() + d * batch * H);
    std::copy(cs.begin(), cs.end(), Yc.mf() + d * batch * H);
  }
  s.finish(c, Y, {&Yh, &Yc});
  return {};
}

// Ht = f(Xt*Wi + Ht-1*Ri + Wbi + Rbi).
Status opRNN(OpContext& c) {
  auto sr = rnn::setup(c, 1, {"Tanh"});
  if (!sr.ok()) return sr.error();
  const Setup& s = *sr;
  const int64_t H = s.H, batch = s.batch, dirs = s.dirs;
  RtTensor Y = RtTensor::zeros(DType::Float32, {s.seq, dirs, batch, H});
  RtTensor Yh = RtTensor::alloc(DType::Float32, {dirs, batch, H});
  std::vector<float> xw, hr(static_cast<size_t>(batch * H));
  for (int64_t d = 0; d < dirs; ++d) {
    std::vector<float> bias(static_cast<size_t>(H));
    for (int64_t k = 0; k < H; ++k) bias[static_cast<size_t>(k)] = s.bias(d, k) + s.bias(d, H + k);
    auto h0 = s.initialState(c, 5, d);
    if (!h0.ok()) return h0.error();
    std::vector<float>& h = *h0;
    const Act& f = s.act(d, 1, 0);
    s.project(d, bias, xw);
    const float* Rd = s.R.f() + d * H * H;
    PreparedGemm recur(true, batch, H, H, H, H, H, Rd, s.R.constantOwner());
    for (int64_t step = 0; step < s.steps(); ++step) {
      recur.run(h.data(), Rd, hr.data());
      s.forRows(step, s.reverse(d), [&](int64_t b, int64_t t) {
        const float* xt = xw.data() + (t * batch + b) * H;
        float* hb = h.data() + b * H;
        float* y = Y.mf() + ((t * dirs + d) * batch + b) * H;
        for (int64_t k = 0; k < H; ++k) y[k] = xt[k] + hr[static_cast<size_t>(b * H + k)];
        s.clipAll(y, H);
        f(y, H);
        std::copy(y, y + H, hb);
      });
    }
    std::copy(h.begin(), h.end(), Yh.mf() + d * batch * H);
  }
  s.finish(c, Y, {&Yh});
  return {};
}

}  // namespace

std::vector<OpEntry> rnnOps() {
  std::vector<OpEntry> ops = {{"LSTM", opLSTM}, {"RNN", opRNN}};
  for (const auto& e : rnn::gruOps()) ops.push_back(e);
  return ops;
}

}  // namespace fw::exec
