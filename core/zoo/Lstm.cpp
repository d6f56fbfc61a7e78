// A stacked LSTM unrolled over time, as tracing a hand-written LSTM cell exports it: per layer and step,
// gates = x_t @ W_ih + b_ih + h @ W_hh + b_hh, split into i, f, g, o (PyTorch gate order), then
// c = sigmoid(f) * c + sigmoid(i) * tanh(g) and h = sigmoid(o) * tanh(c). Input is [seq, batch, 128]
// (batch_first=False); weights are stored transposed ([in, 4*hidden]) so MatMul needs no Transpose.
// Outputs as torch.nn.LSTM returns them: output [seq, batch, hidden], h_n and c_n [layers, batch, hidden].
#include <cmath>

#include "core/zoo/ZooModels.h"

namespace fw::zoo {
namespace {

constexpr int64_t kInputSize = 128;

// Every weight the builder draws: per layer W_ih [in, 4h], W_hh [h, 4h] and two biases [4h]; the first
// layer reads the 128-wide input, the others the previous layer's h. The sequence length adds none.
double lstmWeights(int64_t layers, int64_t hidden) {
  const double h = double(hidden);
  const auto layer = [&](double in) { return 4.0 * h * (in + h) + 8.0 * h; };
  return layer(double(kInputSize)) + double(layers - 1) * layer(h);
}

bool lstmFits(int64_t layers, int64_t hidden) { return lstmWeights(layers, hidden) <= kMaxWeights; }

}  // namespace

std::string lstmSizeLimits() {
  const int64_t at4096 = largestFitting(1, 16, [](int64_t l) { return lstmFits(l, 4096); });
  const int64_t at16 = largestFitting(1, 4096, [](int64_t h) { return lstmFits(16, h); });
  return "weights (about 8 x layers x hidden^2) at most 400M: hidden 4096 allows " + std::to_string(at4096) +
         " layers, 16 layers allow hidden " + std::to_string(at16);
}

Result<Model> buildLstm(const ZooParams& p) {
  FW_ASSIGN_OR_RETURN(int64_t layers, param("lstm", "layers", p.layers));
  FW_ASSIGN_OR_RETURN(int64_t hidden, param("lstm", "hidden", p.hidden));
  FW_ASSIGN_OR_RETURN(int64_t seq, param("lstm", "seq", p.seq));
  if (const double w = lstmWeights(layers, hidden); w > kMaxWeights) {
    const int64_t maxLayers = largestFitting(1, layers, [&](int64_t l) { return lstmFits(l, hidden); });
    const int64_t maxHidden = largestFitting(1, hidden, [&](int64_t h) { return lstmFits(layers, h); });
    std::string hint = "lower ";
    if (maxLayers >= 1)
      hint += "--layers to at most " + std::to_string(maxLayers) + " (at --hidden " + std::to_string(hidden) +
              ") or ";
    hint += "--hidden to at most " + std::to_string(maxHidden) + " (at --layers " + std::to_string(layers) + ")";
    FW_TRY_STATUS(checkWeightBudget("lstm", w, hint));
  }
  const int64_t batch = p.batch;

  ZooBuilder b("lstm", p.seed);
  ValueId input = b.input("input", DType::Float32, {seq, batch, kInputSize});
  auto top = b.scope("lstm");
  const float bound = 1.0f / std::sqrt(static_cast<float>(hidden));  // torch.nn.LSTM init
  ValueId zeros = b.constant(
      "zero_state", Tensor::floats({batch, hidden}, std::vector<float>(size_t(batch * hidden), 0.f)));
  ValueId gateSplit = b.constI64("gate_split", {hidden, hidden, hidden, hidden});
  ValueId axis0 = b.constI64("axis0", {0});

  // Layer-0 inputs per step: Gather(input, t) along the time axis.
  std::vector<ValueId> xs;
  {
    auto sc = b.scope("input_steps");
    for (int64_t t = 0; t < seq; ++t)
      xs.push_back(b.op("Gather", {input, b.constant("t" + std::to_string(t), Tensor::scalarInt64(t))},
                        attrs({Attribute::makeInt("axis", 0)}), "t" + std::to_string(t)));
  }
  std::vector<ValueId> hN, cN;
  for (int64_t l = 0; l < layers; ++l) {
    const std::string sfx = "_l" + std::to_string(l);
    const int64_t in = l == 0 ? kInputSize : hidden;
    ValueId wIh = b.uniform("weight_ih" + sfx, {in, 4 * hidden}, -bound, bound);
    ValueId wHh = b.uniform("weight_hh" + sfx, {hidden, 4 * hidden}, -bound, bound);
    ValueId bIh = b.uniform("bias_ih" + sfx, {4 * hidden}, -bound, bound);
    ValueId bHh = b.uniform("bias_hh" + sfx, {4 * hidden}, -bound, bound);
    auto ls = b.scope("layer" + std::to_string(l));
    ValueId h = zeros, c = zeros;
    for (int64_t t = 0; t < seq; ++t) {
      auto ts = b.scope("t" + std::to_string(t));
      ValueId gi = b.op("Add", {b.op("MatMul", {xs[size_t(t)], wIh}, {}, "ih"), bIh}, {}, "ih_bias");
      ValueId gh = b.op("Add", {b.op("MatMul", {h, wHh}, {}, "hh"), bHh}, {}, "hh_bias");
      ValueId gates = b.op("Add", {gi, gh}, {}, "gates");
      auto parts = b.opN("Split", {gates, gateSplit}, attrs({Attribute::makeInt("axis", 1)}), "split", 4);
      ValueId i = b.op("Sigmoid", {parts[0]}, {}, "input_gate");
      ValueId f = b.op("Sigmoid", {parts[1]}, {}, "forget_gate");
      ValueId g = b.op("Tanh", {parts[2]}, {}, "cell_gate");
      ValueId o = b.op("Sigmoid", {parts[3]}, {}, "output_gate");
      c = b.op("Add", {b.op("Mul", {f, c}, {}, "forget"), b.op("Mul", {i, g}, {}, "write")}, {}, "c");
      h = b.op("Mul", {o, b.op("Tanh", {c}, {}, "tanh_c")}, {}, "h");
      xs[size_t(t)] = h;  // the next layer's input at step t
    }
    hN.push_back(h);
    cN.push_back(c);
  }
  auto stack = [&](const std::vector<ValueId>& vs, const std::string& name) {
    auto sc = b.scope(name);
    std::vector<ValueId> un;
    for (size_t k = 0; k < vs.size(); ++k)
      un.push_back(b.op("Unsqueeze", {vs[k], axis0}, {}, "unsqueeze" + std::to_string(k)));
    return b.op("Concat", un, attrs({Attribute::makeInt("axis", 0)}), "concat", name);
  };
  ValueId output = stack(xs, "output");
  ValueId hOut = stack(hN, "h_n");
  ValueId cOut = stack(cN, "c_n");
  return b.finish({output, hOut, cOut}, "Unrolled LSTM: " + std::to_string(layers) + " layers, hidden " +
                                            std::to_string(hidden) + ", seq " + std::to_string(seq) +
                                            ", input " + std::to_string(kInputSize));
}

}  // namespace fw::zoo
