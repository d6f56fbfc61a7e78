#pragma once
// Internal to core/exec: what the recurrent layers (ops_rnn.cpp: LSTM, RNN; ops_rnn_gru.cpp: GRU)
// share. Shapes follow ONNX: W [dirs, G*H, I], R [dirs, G*H, H], B [dirs, 2*G*H] (W biases then R
// biases), initial states [dirs, batch, H] ([batch, dirs, H] with layout 1), gates stacked in W/R
// in the op's own order.
#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "core/exec/OpContext.h"

namespace fw::exec::rnn {

// An activation applied in place over an array: x[i] = f(x[i]) for i < n. Each step applies it to a
// whole gate block of a row, so Sigmoid and Tanh run on vector lanes (FastMath.h).
using Act = std::function<void(float* x, int64_t n)>;

// One activation by ONNX name; alpha/beta consumed in order from the lists by the functions that
// take them (ai/bi advance).
Result<Act> makeActivation(const OpContext& c, const std::string& name, const std::vector<float>& alphas,
                           const std::vector<float>& betas, size_t& ai, size_t& bi);

struct Setup {
  int64_t G = 1, layout = 0, seq = 0, batch = 0, I = 0, dirs = 1, H = 0;
  std::string direction;
  float clip = 0;  // 0 = no clip
  RtTensor X;      // float32, time-major [seq, batch, I]
  RtTensor W, R;   // float32
  RtTensor B;      // float32 or undefined
  std::vector<int64_t> lens;  // per batch row, each in [0, seq]
  std::vector<Act> acts;      // per direction, the op's functions in order

  // Steps the recurrence runs (0 when there is no batch row or no hidden unit: nothing to compute).
  int64_t steps() const { return batch == 0 || H == 0 ? 0 : seq; }
  bool reverse(int64_t d) const { return direction == "reverse" || d == 1; }
  // x[i] limited to [-clip, clip] for i < n (nothing without a clip).
  void clipAll(float* x, int64_t n) const {
    if (clip > 0)
      for (int64_t i = 0; i < n; ++i) x[i] = std::max(-clip, std::min(clip, x[i]));
  }
  const Act& act(int64_t d, int64_t per, int64_t k) const { return acts[static_cast<size_t>(d * per + k)]; }
  // Element k of direction d's row of B (0 when B is absent); k < 2*G*H.
  float bias(int64_t d, int64_t k) const;
  // Initial state of direction d from input `input` as [batch, H] (zeros when omitted).
  Result<std::vector<float>> initialState(const OpContext& c, size_t input, int64_t d) const;
  // xw[seq*batch, G*H] = X * W[d]^T + gateBias (one GEMM over the whole sequence).
  void project(int64_t d, const std::vector<float>& gateBias, std::vector<float>& xw) const;
  // fn(b, t) for every batch row still running at `step` (t = its time index), rows in parallel.
  void forRows(int64_t step, bool rev, const std::function<void(int64_t b, int64_t t)>& fn) const;
  // Y [seq, dirs, batch, H] and the final states [dirs, batch, H] (float32) to c.out in the node's
  // layout and X's dtype.
  void finish(OpContext& c, const RtTensor& Y, const std::vector<const RtTensor*>& states) const;
};

// Checks X, W, R, B, sequence_lens and the attributes of a layer with `gates` gates; the default
// activations are those of one direction.
Result<Setup> setup(OpContext& c, int64_t gates, const std::vector<std::string>& defaultActs);

std::vector<OpEntry> gruOps();  // ops_rnn_gru.cpp

}  // namespace fw::exec::rnn
