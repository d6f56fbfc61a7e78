#include "simulator/HostOpCases.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/zoo/ZooBuilder.h"

namespace fw::sim {

using namespace hostbench;

// 32K elements a tensor (128 KiB): an op's inputs and output fit a core's own cache together, so the
// case measures the op's own rate; larger tensors are bound by the measured bandwidth curve instead.
CaseSize CaseSize::normal() { return {32, 1024, {1, 32, 32, 32}, {1, 32, 16, 16}}; }
CaseSize CaseSize::tiny() { return {2, 8, {1, 4, 2, 2}, {1, 4, 2, 2}}; }

namespace {

// A Softmax, LogSoftmax or LayerNormalization over the last axis of [rows, cols], 8 nodes.
Bench rowWiseOp(const std::string& op, int64_t rows, int64_t cols) {
  using fw::Attribute;
  const auto lastAxis = fw::zoo::attrs({Attribute::makeInt("axis", -1)});
  if (op == "LayerNormalization")
    return oneOp(op, {rows, cols}, {filled({cols}, 1.0f), filled({cols}, 0.0f)}, lastAxis, 8);
  return oneOp(op, {rows, cols}, {}, lastAxis, 8);
}

// A GridSample's grid [n, ho, wo, 2]: the output's positions turned by 0.3 rad and scaled by 0.9 (a spatial
// transformer's warp: neighbouring outputs read neighbouring inputs).
fw::Tensor warpGrid(int64_t n, int64_t ho, int64_t wo) {
  std::vector<float> v;
  v.reserve(static_cast<size_t>(n * ho * wo * 2));
  const float c = 0.9f * std::cos(0.3f), s = 0.9f * std::sin(0.3f);
  for (int64_t b = 0; b < n; ++b)
    for (int64_t y = 0; y < ho; ++y)
      for (int64_t x = 0; x < wo; ++x) {
        const float u = (2.0f * static_cast<float>(x) + 1.0f) / static_cast<float>(wo) - 1.0f;
        const float w = (2.0f * static_cast<float>(y) + 1.0f) / static_cast<float>(ho) - 1.0f;
        v.push_back(c * u - s * w);
        v.push_back(s * u + c * w);
      }
  return fw::Tensor::floats({n, ho, wo, 2}, v);
}

// NonMaxSuppression's boxes and scores, one class of n: unit boxes side by side ([y0, x0, y1, x1] =
// [0, 2k, 1, 2k + 1]), none overlapping another, so none is suppressed and each list keeps what its bound
// lets it; scores in a scattered order, so the sort has work.
std::vector<fw::Tensor> nmsInputs(int64_t n, int64_t maxOut) {
  std::vector<float> boxes, scores;
  for (int64_t k = 0; k < n; ++k) {
    const auto x = static_cast<float>(2 * k);
    boxes.insert(boxes.end(), {0.0f, x, 1.0f, x + 1.0f});
    scores.push_back(static_cast<float>((k * 37) % n + 1) / static_cast<float>(n));
  }
  return {fw::Tensor::floats({1, n, 4}, boxes), fw::Tensor::floats({1, 1, n}, scores),
          fw::Tensor::int64s({1}, {maxOut}), fw::Tensor::floats({1}, {0.5f})};
}

}  // namespace

std::vector<FamilyCase> rowCases() {
  std::vector<FamilyCase> cases;
  for (const char* op : {"Softmax", "LogSoftmax", "LayerNormalization"})
    cases.push_back({op, rowWiseOp(op, 4096, 8)});
  // Whole rows moved (familyCases' channel shuffle moves rows of 1024): [2, 2048, 8] to [2048, 2, 8].
  cases.push_back({"Transpose/rows", oneOp("Transpose", {2, 2048, 8}, {},
                                           fw::zoo::attrs({fw::Attribute::makeInts("perm", {1, 0, 2})}), 8)});
  // A Gather's picks (an embedding lookup of a categorical feature): 1024 rows of 8 floats picked
  // across a [4096, 8] table, beside the family case's 8 rows of 1024 (the same 8K floats out).
  std::vector<int64_t> picks(1024);
  for (size_t k = 0; k < picks.size(); ++k) picks[k] = static_cast<int64_t>(k * 37 % 4096);
  cases.push_back({"Gather", oneOp("Gather", {4096, 8}, {fw::Tensor::int64s({1024}, picks)},
                                   fw::zoo::attrs({fw::Attribute::makeInt("axis", 0)}), 8)});
  // A GatherND's tuples: 1024 rows of 8 picked across a [4096, 8] table, beside the family case's 8 rows of
  // 1024 (the same 8K floats out); each tuple's address is worked out apart.
  {
    std::vector<int64_t> at(1024);
    for (size_t k = 0; k < at.size(); ++k) at[k] = static_cast<int64_t>(k * 37 % 4096);
    cases.push_back({"GatherND", oneOp("GatherND", {4096, 8}, {fw::Tensor::int64s({1024, 1}, at)}, {}, 8)});
  }
  // A Gather of single floats (an unfold's picks, a column of a table): [8, 2048] along its last axis at
  // 1024 places, 8192 picks of one float each, beside the family case's 8 rows of 1024 ("Gather/elements").
  {
    std::vector<int64_t> at(1024);
    for (size_t k = 0; k < at.size(); ++k) at[k] = static_cast<int64_t>(k * 37 % 2048);
    cases.push_back({"Gather/elements", oneOp("Gather", {8, 2048}, {fw::Tensor::int64s({1024}, at)},
                                              fw::zoo::attrs({fw::Attribute::makeInt("axis", 1)}), 8)});
  }
  // A GridSample's positions: one channel at 128 x 256 positions, beside the family case's 32 channels at
  // 32 x 32 (the same 32K values out): each position's coordinates, taps and weights are worked out once
  // for all its channels (core/exec/ops_region.cpp; a spatial transformer samples 3 channels a position).
  cases.push_back({"GridSample", oneOp("GridSample", {1, 1, 128, 256}, {warpGrid(1, 128, 256)}, {}, 8)});
  // A Pad of many small planes by one on each side of its last two axes, [1, 2312, 2, 2] to 4x4: 9248 rows of
  // 4, beside the family case's [1, 32, 32, 32] to 34x34 (1088 rows of 34, the same 36992 values out). Each
  // row's source is looked up and its parts copied apart (Inception-v3's count-including pads before its
  // branch pools, [2, 2048, 3, 3] to 5x5: 90 us alone, 24 simulated at the elements' rate; session 77).
  cases.push_back(
      {"Pad", oneOp("Pad", {1, 2312, 2, 2}, {fw::Tensor::int64s({8}, {0, 0, 1, 1, 0, 0, 1, 1})}, {}, 8)});
  // Reductions over the last axis in rows of 8 ([4096, 8]), beside the family cases' rows of 1024: each
  // output's row is reduced on its own (a DGCNN's max over 16 neighbours, a state-space scan's sum over a
  // state of 8: 2-3 ns a row here, session 38).
  for (const char* op : {"ReduceMean", "ReduceSum", "ReduceMax", "ReduceLogSumExp"}) {
    const bool axesInput = std::string(op) == "ReduceSum";  // as its family case takes them (opset 13)
    cases.push_back({op, axesInput ? oneOp(op, {4096, 8}, {fw::Tensor::int64s({1}, {-1})},
                                           fw::zoo::attrs({fw::Attribute::makeInt("keepdims", 1)}), 8)
                                   : oneOp(op, {4096, 8}, {},
                                           fw::zoo::attrs({fw::Attribute::makeInts("axes", {-1}),
                                                           fw::Attribute::makeInt("keepdims", 1)}),
                                           8)});
  }
  // An ArgMax and an ArgMin in rows of 8 ([65536, 8], as many elements as their family cases, 16 times the
  // others'): each row's scan stops where its extreme is, a branch the predictor misses (13.9 ns a row of 8
  // over 256K floats, 0.4 ns an element in rows of 1024; session 81).
  for (const char* op : {"ArgMax", "ArgMin"})
    cases.push_back({op, oneOpOn(op, filled({65536, 8}, 0.5f), {},
                                 fw::zoo::attrs({fw::Attribute::makeInt("axis", -1),
                                                 fw::Attribute::makeInt("keepdims", 1)}),
                                 8, fw::DType::Int64)});
  // A sum and a mean over the last axis in rows of 4 ([8192, 4]), keyed "<Op>/short" (OpFamily.h:
  // efficiencyKey): rows of 2 to 7 run the executor's loop over four rows at a time, beside the family
  // cases' rows of 1024 (session 81: 0.4-0.8 ns a row of 2-7 beyond the elements, rows of 8 0.3).
  cases.push_back({"ReduceSum/short", oneOp("ReduceSum", {8192, 4}, {fw::Tensor::int64s({1}, {-1})},
                                            fw::zoo::attrs({fw::Attribute::makeInt("keepdims", 1)}), 8)});
  cases.push_back({"ReduceMean/short", oneOp("ReduceMean", {8192, 4}, {},
                                             fw::zoo::attrs({fw::Attribute::makeInts("axes", {-1}),
                                                             fw::Attribute::makeInt("keepdims", 1)}),
                                             8)});
  // Each operand broadcast along a different axis, [64, 64, 1] * [64, 1, 8]: 4096 rows of 8 through the
  // executor's general loop, beside the family cases' two whole [32, 1024] (a state-space scan's [2, 192, 1]
  // * [2, 1, 8], StyleGAN2's modulation in rows of 9). ([64, 64, 8] * [64, 1, 8] until session 51: a row
  // repeated down a dense operand, which the executor now runs as planes against a tile of the row.)
  for (const char* op : {"Add", "Sub", "Mul", "Div"})
    cases.push_back({op, oneOp(op, {64, 64, 1}, {filled({64, 1, 8}, 1.5f)}, {}, 8)});
  // A comparison of the same operands into bool, beside the family's Equal with a single element: its rows
  // through the same general loop (an outer comparison, ids [4096, 1] == [1, 64] making a k-means step's
  // one-hot assignment: 91.5 us a trip measured, 31.8 simulated without its rows or int64 figures; session
  // 82). A Less, Greater, LessOrEqual or GreaterOrEqual pays this row's figure (CpuCost.cpp).
  cases.push_back({"Equal", oneOpOn("Equal", filled({64, 64, 1}, 0.5f), {filled({64, 1, 8}, 1.5f)}, {}, 8,
                                    fw::DType::Bool)});
  // A row of 4 repeated down each plane of 8 rows of the other operand, [1024, 1, 4] * [1024, 8, 4]: 1024
  // planes, each against a tile of its row made apart, beside the family's "/row" case (a bias over [32,
  // 1024], as many elements). A point cloud's offsets to each point's neighbours, [2, 1024, 1, 3] -
  // [2, 1024, 16, 3]: 62 us measured, 10 simulated at the elements' rate alone (session 51).
  for (const char* op : {"Add", "Sub", "Mul", "Div"})
    cases.push_back({std::string(op) + "/row", oneOp(op, {1024, 1, 4}, {filled({1024, 8, 4}, 1.5f)}, {}, 8)});
  // The top 16 of 4096 rows of 64 (156K values going in among a row's best, the family case's 512 rows of
  // 1024 42K): a DGCNN's nearest neighbours, a detector's best boxes ("rows" are those insertions). As many
  // rows as the branch predictor cannot learn (the family case, below): [512, 64] took 0.54 us a row,
  // [4096, 64] 0.63.
  cases.push_back({"TopK", oneOpOn("TopK", filled({4096, 64}, 0.5f), {fw::Tensor::int64s({1}, {16})}, {}, 8,
                                   fw::DType::Float32, 2)});
  // A BatchNormalization's planes of 8 ([1, 4096, 2, 4]), beside the family case's 32 planes of 1024: a
  // MobileNet's last stages normalise hundreds of channels of 7x7 (session 35: [1, 960, 7, 7] measured
  // 14-30 us where the elements' rate alone said 8).
  {
    const int64_t ch = 4096;
    cases.push_back(
        {"BatchNormalization",
         oneOp("BatchNormalization", {1, ch, 2, 4},
               {filled({ch}, 1.0f), filled({ch}, 0.0f), filled({ch}, 0.0f), filled({ch}, 1.0f)}, {}, 8)});
  }
  // A GlobalAveragePool over 4096 planes of 2x4 ([1, 4096, 2, 4]), beside the family case's 32 planes of
  // 32x32: each plane's reduction set up apart (an SE block's pools over hundreds of channels of 4x4 to 8x8).
  // So is a GlobalMaxPool's (without its figure, [1, 4096, 2, 4] was simulated at 5.7 us against 11.4
  // measured; session 72).
  for (const char* op : {"GlobalAveragePool", "GlobalMaxPool"})
    cases.push_back({op, oneOp(op, {1, 4096, 2, 4}, {}, {}, 8)});
  // A 3x3 MaxPool and AveragePool (padded, stride 1) over 2048 planes of 4x4 ([1, 2048, 4, 4]), beside the
  // family cases' 32 planes of 32x32: each plane's passes set up apart (an Inception branch's pools over
  // hundreds of channels of 6x6; session 59).
  for (const char* op : {"MaxPool", "AveragePool"})
    cases.push_back({op, oneOp(op, {1, 2048, 4, 4}, {},
                               fw::zoo::attrs({fw::Attribute::makeInts("kernel_shape", {3, 3}),
                                               fw::Attribute::makeInts("pads", {1, 1, 1, 1})}),
                               std::string(op) == "AveragePool" ? 2 : 8)});
  // NonMaxSuppression of 1024 boxes with every one kept: 523776 box pairs tested, beside the family case's
  // 1024 boxes of which it keeps one ("rows" are the pairs, OpFamily.h: rowWiseRows).
  {
    auto in = nmsInputs(1024, 1024);
    const fw::Tensor boxes = in.front();
    in.erase(in.begin());
    cases.push_back({"NonMaxSuppression", oneOpOn("NonMaxSuppression", boxes, in, {}, 8, fw::DType::Int64)});
  }
  // A scatter-add of rows of 8: [4096, 8] updates onto as many data rows, each row of indices naming its
  // data row, beside the family case's 32 rows of 1024 (the same 32K updates over as much data). Each row's
  // place in the data is worked out apart (a detector's RoI-pool level merge scatters in rows of 7).
  {
    std::vector<int64_t> at(4096 * 8);
    for (size_t k = 0; k < at.size(); ++k) at[k] = static_cast<int64_t>((k / 8) * 37 % 4096);
    cases.push_back({"ScatterElements", oneOp("ScatterElements", {4096, 8},
                                              {fw::Tensor::int64s({4096, 8}, at), filled({4096, 8}, 0.5f)},
                                              fw::zoo::attrs({fw::Attribute::makeInt("axis", 0),
                                                              fw::Attribute::makeString("reduction", "add")}),
                                              8)});
  }
  // A Split's parts a row at a time: [2048, 16] into two halves of 8, beside the family case's [32, 1024]
  // into two of 512.
  cases.push_back(
      {"Split", oneOpOn("Split", filled({2048, 16}, 0.0f), {fw::Tensor::int64s({2}, {8, 8})},
                        fw::zoo::attrs({fw::Attribute::makeInt("axis", 1)}), 8, fw::DType::Float32, 2)});
  // A Slice's rows: [1024, 32] to its first 16 columns, 1024 rows of 16, beside the family case's [32, 1024]
  // to 32 rows of 512 (a cost volume's shifted windows, a rotary embedding's halves).
  cases.push_back({"Slice", oneOp("Slice", {1024, 32},
                                  {fw::Tensor::int64s({1}, {0}), fw::Tensor::int64s({1}, {16}),
                                   fw::Tensor::int64s({1}, {1})},
                                  {}, 8)});
  return cases;
}

std::vector<FamilyCase> familyCases(const CaseSize& z) {
  using fw::Attribute;
  const int64_t rows = z.rows, cols = z.cols;
  const std::vector<int64_t> img = z.img;
  const int64_t ch = img[1];
  std::vector<FamilyCase> cases;
  auto I64 = [](std::vector<int64_t> v) { return fw::Tensor::int64s({static_cast<int64_t>(v.size())}, v); };
  const fw::Tensor same = filled({rows, cols}, 0.5f);
  for (const char* op : {"Add", "Mul", "Sub", "Div", "Max"}) cases.push_back({"elementwise", oneOp(op, {rows, cols}, {same}, {}, 8)});
  // With a one-element operand (x + 3, x / 6): the executor's own loop, timed on its own as "<Op>/scalar".
  for (const char* op : {"Add", "Mul", "Sub", "Div"})
    cases.push_back({"elementwise", oneOp(op, {rows, cols}, {fw::Tensor::floats({}, {1.5f})}, {}, 8)});
  // With a row of the trailing axes (a bias over [rows, cols]): the one operand streamed, "<Op>/row".
  for (const char* op : {"Add", "Mul", "Sub", "Div"})
    cases.push_back({"elementwise", oneOp(op, {rows, cols}, {filled({cols}, 1.5f)}, {}, 8)});
  // Every unary math op the executor has that networks use: their loops differ by 200x over 32K
  // elements (Abs 2.3 us, Sin 85.5, Softplus 491.9 in session 18), so none is left to the family's
  // median rate (3.5 us there), which had charged a NeRF-style sin/cos encoding a fifth of its time.
  for (const char* op :
       {"Relu",      "Sigmoid",   "Tanh", "Erf",      "Sqrt",     "Exp",        "HardSigmoid",
        "HardSwish", "LeakyRelu", "Neg",  "Abs",      "Log",      "Reciprocal", "Floor",
        "Round",     "Sin",       "Cos",  "Softplus", "Softsign", "Elu"}) {
    cases.push_back({"elementwise", oneOp(op, {rows, cols}, {}, {}, 8)});
    // Sqrt or Log of a negative number takes the library's error path; a network takes the root of a
    // variance or the log of a positive value.
    if (std::string(op) == "Sqrt" || std::string(op) == "Log")
      cases.back().bench.inputs = {filled({rows, cols}, 1.5f)};
  }
  cases.push_back({"elementwise", oneOp("Clip", {rows, cols}, {fw::Tensor::floats({}, {0.0f}), fw::Tensor::floats({}, {6.0f})}, {}, 8)});
  cases.push_back({"elementwise", oneOp("Pow", {rows, cols}, {fw::Tensor::floats({}, {2.0f})}, {}, 8)});
  // Masks (attention masks, padding): a comparison into bool, its negation, a select by it. Each has
  // its own loop in the executor, not the float ops' (Swin's [25,49,49] masks).
  {
    std::vector<uint8_t> bits(static_cast<size_t>(rows * cols));
    for (size_t i = 0; i < bits.size(); ++i) bits[i] = static_cast<uint8_t>((i * 2654435761u) >> 31);
    const fw::Tensor mask = fw::Tensor::fromVector<uint8_t>(fw::DType::Bool, {rows, cols}, bits);
    cases.push_back(
        {"elementwise", oneOpOn("Equal", same, {fw::Tensor::floats({}, {0.5f})}, {}, 8, fw::DType::Bool)});
    // The same on int64 operands (ids, positions), "Equal/int64" (OpFamily.cpp: efficiencyKey): its own
    // figures only.
    std::vector<int64_t> ids(static_cast<size_t>(rows * cols));
    for (size_t i = 0; i < ids.size(); ++i) ids[i] = static_cast<int64_t>(i % 97);
    cases.push_back({"elementwise",
                     oneOpOn("Equal", fw::Tensor::int64s({rows, cols}, ids), {fw::Tensor::int64s({}, {5})},
                             {}, 8, fw::DType::Bool),
                     true});
    cases.push_back({"elementwise", oneOpOn("Not", mask, {}, {}, 8, fw::DType::Bool)});
    cases.push_back({"elementwise", oneOpOn("Where", mask, {same, fw::Tensor::floats({}, {-100.0f})}, {}, 8,
                                            fw::DType::Float32)});
    // A mask made a float (an attention mask's 0/1, a spiking neuron's spikes): its own figures only. At the
    // family's median rate, a spiking CNN's Casts of [16, 32, 32, 32] were simulated at 1.4x their time
    // (session 52).
    cases.push_back(
        {"elementwise",
         oneOpOn("Cast", mask, {}, fw::zoo::attrs({Attribute::makeInt("to", 1)}), 8, fw::DType::Float32),
         true});
  }
  cases.push_back({"reduction", oneOp("ReduceMean", {rows, cols}, {},
                                      fw::zoo::attrs({Attribute::makeInts("axes", {-1}), Attribute::makeInt("keepdims", 1)}), 8)});
  cases.push_back({"reduction", oneOp("ReduceSum", {rows, cols}, {I64({-1})}, fw::zoo::attrs({Attribute::makeInt("keepdims", 1)}), 8)});
  cases.push_back({"reduction", oneOp("GlobalAveragePool", img, {}, {}, 8)});
  // A GlobalMaxPool: its own figures only (a plane's maximum, no sum to scale: [1, 32, 32, 32] took 2.9 us
  // against the average's 5.0 on session 72's Xeon, and at the family's rate was simulated at 2x its time).
  cases.push_back({"reduction", oneOp("GlobalMaxPool", img, {}, {}, 8), true});
  // Over a middle axis ([4, 16, 512], axis 1: a mean over the tokens of [batch, tokens, dim]): the executor's
  // column loop, timed as "<Op>/middle", its own figures only (session 59: a two-tower model's mean over 8
  // items of [32, 8, 64] took 4.4 us, simulated 2.5 at the last-axis rate).
  {
    const int64_t outer = std::max<int64_t>(1, rows / 8), len = std::min<int64_t>(16, rows),
                  inner = rows * cols / (outer * len);
    for (const char* op : {"ReduceMean", "ReduceSum", "ReduceMax"}) {
      const bool axesInput = std::string(op) == "ReduceSum";  // opset 13
      cases.push_back({"reduction",
                       axesInput ? oneOp(op, {outer, len, inner}, {I64({1})},
                                         fw::zoo::attrs({Attribute::makeInt("keepdims", 0)}), 8)
                                 : oneOp(op, {outer, len, inner}, {},
                                         fw::zoo::attrs({Attribute::makeInts("axes", {1}),
                                                         Attribute::makeInt("keepdims", 0)}),
                                         8),
                       true});
    }
  }
  // log(sum(exp(x))) along each row: a maximum, the exponentials and their sum (a Sinkhorn matching's
  // iterations, a CTC or CRF's forward pass). Its own figures only: with the other reductions' rate, a
  // LogSumExp over [4, 257, 257] was simulated at 41 us against 260 measured (session 52).
  cases.push_back(
      {"reduction",
       oneOp("ReduceLogSumExp", {rows, cols}, {},
             fw::zoo::attrs({Attribute::makeInts("axes", {-1}), Attribute::makeInt("keepdims", 1)}), 8),
       true});
  // A running sum along each row (a sparsemax's threshold, a CTC's positions): each element adds to the one
  // before (core/exec/ops_math.cpp: a double accumulator a row), a chain no reduction's rate prices. Its own
  // figures only (session 59: a sparsemax attention's CumSum over [8, 4, 64, 64], 87 us measured, 20
  // simulated at the reductions' median rate).
  cases.push_back({"reduction", oneOp("CumSum", {rows, cols}, {fw::Tensor::int64s({}, {-1})}, {}, 8), true});
  // The top 16 of each row (the top 4 of a tiny one's 8): few of a long row's values go in among the best.
  // Over 16 times the family's rows: a TopK's branches (a block of 16 values with one better than the k-th
  // best or none, each insertion's place) depend on the data, and the same input timed again and again
  // lets the branch predictor learn a few rows' whole pattern. The top 16 of [32, 1024] took 0.9 us a row,
  // of [64, 1024] 0.9, [128, 1024] 2.3, [256, 1024] 2.6, [512, 1024] 2.7 and [4096, 1024] 2.7 (fwb profile,
  // 20 repeats, 1 thread, session 49): a model's TopK over thousands of rows, or on fresh data, runs at the
  // unlearned rate (PointNet++'s neighbours, [4, 1024, 1024]: 11.2 ms measured, 5.8 simulated on the
  // learned one).
  cases.push_back(
      {"reduction", oneOpOn("TopK", filled({16 * rows, cols}, 0.5f), {I64({std::min<int64_t>(16, cols / 2)})},
                            {}, 8, fw::DType::Float32, 2)});
  // The index of each row's largest (smallest) value: the row's extreme, then a scan for its index
  // (core/exec/ops_math.cpp). Its own figures only: at the reductions' median rate a k-means step's ArgMin
  // over [4096, 64] was simulated at 40 us a trip against 136 measured (session 81). Over 16 times the
  // family's rows, as TopK: where the scan stops is a branch, and rows timed again and again teach the
  // predictor their pattern (rows of 8: 4.3 ns a row over [4096, 8], 13.9 over [32768, 8]).
  for (const char* op : {"ArgMax", "ArgMin"})
    cases.push_back(
        {"reduction",
         oneOpOn(op, filled({16 * rows, cols}, 0.5f), {},
                 fw::zoo::attrs({Attribute::makeInt("axis", -1), Attribute::makeInt("keepdims", 1)}), 8,
                 fw::DType::Int64),
         true});
  cases.push_back({"softmax", rowWiseOp("Softmax", rows, cols)});
  cases.push_back({"softmax", rowWiseOp("LogSoftmax", rows, cols)});
  cases.push_back({"norm", rowWiseOp("LayerNormalization", rows, cols)});
  cases.push_back({"norm", oneOp("BatchNormalization", img,
                                 {filled({ch}, 1.0f), filled({ch}, 0.0f), filled({ch}, 0.0f), filled({ch}, 1.0f)}, {}, 8)});
  cases.push_back({"norm", oneOp("InstanceNormalization", img, {filled({ch}, 1.0f), filled({ch}, 0.0f)}, {}, 8)});
  cases.push_back({"pooling", oneOp("MaxPool", img, {},
                                    fw::zoo::attrs({Attribute::makeInts("kernel_shape", {3, 3}),
                                                    Attribute::makeInts("pads", {1, 1, 1, 1})}), 8)});
  // The 2x2 window at stride 2 (a U-Net's or VGG's downsampling) on the executor's own loop: its own figures
  // ("MaxPool/2x2").
  cases.push_back({"pooling",
                   oneOp("MaxPool", img, {},
                         fw::zoo::attrs({Attribute::makeInts("kernel_shape", {2, 2}),
                                         Attribute::makeInts("strides", {2, 2})}),
                         8),
                   true});
  cases.push_back({"pooling", oneOp("AveragePool", img, {},
                                    fw::zoo::attrs({Attribute::makeInts("kernel_shape", {3, 3}),
                                                    Attribute::makeInts("pads", {1, 1, 1, 1})}), 2)});
  // A window of 3 at stride 2 along one axis, [1, 32, 1024] (a 1-D CNN's pools; the last pass of a strided
  // 2-D pool): every tap one value a stride apart, timed on its own as "MaxPool/strided" and
  // "AveragePool/strided" (poolLoops: 0.34 ns a tap where stride 1 took 0.16, session 65).
  for (const char* op : {"MaxPool", "AveragePool"})
    cases.push_back(
        {"pooling",
         oneOp(op, {img[0], img[1], img[2] * img[3]}, {},
               fw::zoo::attrs({Attribute::makeInts("kernel_shape", {3}), Attribute::makeInts("strides", {2}),
                               Attribute::makeInts("pads", {1, 1})}),
               std::string(op) == "AveragePool" ? 2 : 8),
         true});
  cases.push_back({"data_movement", oneOp("Transpose", {rows, cols}, {}, fw::zoo::attrs({Attribute::makeInts("perm", {1, 0})}), 8)});
  cases.push_back({"data_movement", oneOp("Transpose", img, {}, fw::zoo::attrs({Attribute::makeInts("perm", {0, 2, 3, 1})}), 8)});
  // Whole rows move (a channel shuffle): timed on their own as "Transpose/rows".
  cases.push_back({"data_movement", oneOp("Transpose", {2, ch / 2, img[2], img[3]}, {}, fw::zoo::attrs({Attribute::makeInts("perm", {1, 0, 2, 3})}), 8)});
  cases.push_back({"data_movement", oneOp("Concat", {rows, cols}, {same}, fw::zoo::attrs({Attribute::makeInt("axis", 1)}), 8)});
  cases.push_back({"data_movement", oneOp("Slice", {rows, cols}, {I64({0}), I64({cols / 2}), I64({1})}, {}, 8)});
  // A Split copies its parts as a Slice does, each part a run of rows (a fused QKV product's three parts).
  cases.push_back(
      {"data_movement", oneOpOn("Split", filled({rows, cols}, 0.0f), {I64({cols / 2, cols / 2})},
                                fw::zoo::attrs({Attribute::makeInt("axis", 1)}), 8, fw::DType::Float32, 2)});
  cases.push_back({"data_movement", oneOp("Gather", {rows, cols}, {rows >= 32 ? I64({0, 3, 5, 9, 13, 17, 25, rows - 1}) : I64({0, rows - 1})},
                                          fw::zoo::attrs({Attribute::makeInt("axis", 0)}), 8)});
  // A GatherND of whole rows, as the Gather above (its tuples' addresses worked out first, then each slice
  // copied), and a NonZero over a mask of half ones: a detector's post-processing picks each class's boxes
  // above a threshold so (SSDlite320's 90 classes of 3234 boxes: 17-18 us a GatherND, 7-10 a NonZero,
  // 0.9-2.1 and 0.8-1.4 simulated on their families' rates; set 111, session 77). Their own figures only.
  {
    const auto idx = rows >= 32 ? std::vector<int64_t>{0, 3, 5, 9, 13, 17, 25, rows - 1}
                                : std::vector<int64_t>{0, rows - 1};
    cases.push_back({"data_movement",
                     oneOp("GatherND", {rows, cols},
                           {fw::Tensor::int64s({static_cast<int64_t>(idx.size()), 1}, idx)}, {}, 8),
                     true});
    std::vector<float> mask(static_cast<size_t>(rows * cols));
    for (size_t k = 0; k < mask.size(); ++k) mask[k] = static_cast<float>((k * 7 / 3) % 2);
    cases.push_back({"reduction",
                     oneOpOn("NonZero", fw::Tensor::floats({rows, cols}, mask), {}, {}, 8, fw::DType::Int64),
                     true});
  }
  // Each element picked from anywhere along its row (a DGCNN's neighbours, a detector's best boxes): a
  // load whose address waits on its index, several times a copied element's time.
  {
    std::vector<int64_t> at(static_cast<size_t>(rows * cols));
    for (size_t k = 0; k < at.size(); ++k)
      at[k] = static_cast<int64_t>((k * 2654435761u) % static_cast<size_t>(cols));
    cases.push_back(
        {"data_movement", oneOp("GatherElements", {rows, cols}, {fw::Tensor::int64s({rows, cols}, at)},
                                fw::zoo::attrs({Attribute::makeInt("axis", 1)}), 8)});
  }
  cases.push_back({"data_movement", oneOp("Expand", {1, cols}, {I64({rows, cols})}, {}, 8)});
  // A scatter-add of whole rows (a graph network's messages summed onto their receivers): each row of
  // updates onto the data row its expanded index names, in index order. Its own figures only (not in the
  // family's median).
  {
    std::vector<int64_t> at(static_cast<size_t>(rows * cols));
    for (size_t k = 0; k < at.size(); ++k)
      at[k] = static_cast<int64_t>((k / static_cast<size_t>(cols)) * 37 % static_cast<size_t>(rows));
    cases.push_back(
        {"data_movement",
         oneOp("ScatterElements", {rows, cols}, {fw::Tensor::int64s({rows, cols}, at), same},
               fw::zoo::attrs({Attribute::makeInt("axis", 0), Attribute::makeString("reduction", "add")}), 8),
         true});
  }
  // NonMaxSuppression of `cols` boxes of one class keeping one: its candidates' sort, the box pairs apart
  // (rowCases). Its own figures only.
  {
    auto in = nmsInputs(cols, 1);
    const fw::Tensor boxes = in.front();
    in.erase(in.begin());
    cases.push_back({"reduction", oneOpOn("NonMaxSuppression", boxes, in, {}, 8, fw::DType::Int64), true});
  }
  // Bilinear resampling of every channel at positions a warp gives (spatial transformers, optical-flow
  // warping, deformable sampling): four taps a value.
  cases.push_back({"data_movement", oneOp("GridSample", img, {warpGrid(img[0], img[2], img[3])}, {}, 8)});
  // RoIAlign (a two-stage detector's head): 32 boxes of about a quarter of the map each, 7x7 bins of 2x2
  // bilinear samples, every channel. Its own figures only: at the family's median rate a head's RoIAlign of
  // 128 boxes over [2, 128, 32, 32] was simulated at 0.26 of its time (session 53).
  {
    const int64_t H = img[2], W = img[3], boxes = 32;
    std::vector<float> r(static_cast<size_t>(boxes * 4));
    for (int64_t k = 0; k < boxes; ++k) {
      const float x1 = static_cast<float>(k * 7 % W) * 0.5f, y1 = static_cast<float>(k * 11 % H) * 0.5f;
      r[static_cast<size_t>(k * 4)] = x1;
      r[static_cast<size_t>(k * 4 + 1)] = y1;
      r[static_cast<size_t>(k * 4 + 2)] =
          std::min(static_cast<float>(W), x1 + static_cast<float>(W / 4 + k % 5));
      r[static_cast<size_t>(k * 4 + 3)] =
          std::min(static_cast<float>(H), y1 + static_cast<float>(H / 4 + k % 3));
    }
    cases.push_back(
        {"data_movement",
         oneOp("RoiAlign", img,
               {fw::Tensor::floats({boxes, 4}, r),
                fw::Tensor::int64s({boxes}, std::vector<int64_t>(static_cast<size_t>(boxes), 0))},
               fw::zoo::attrs({Attribute::makeInt("output_height", 7), Attribute::makeInt("output_width", 7),
                               Attribute::makeInt("sampling_ratio", 2)}),
               8),
         true});
  }
  // Upsampling (feature pyramids, decoders): 2x in both spatial dims, the two common modes.
  const fw::Tensor noRoi = fw::Tensor::floats({0}, {});
  const fw::Tensor twice = fw::Tensor::floats({4}, {1.f, 1.f, 2.f, 2.f});
  const std::vector<int64_t> small = z.small;
  cases.push_back({"data_movement", oneOp("Resize", small, {noRoi, twice},
                                          fw::zoo::attrs({Attribute::makeString("mode", "nearest")}), 8)});
  cases.push_back({"data_movement", oneOp("Resize", small, {noRoi, twice},
                                          fw::zoo::attrs({Attribute::makeString("mode", "linear")}), 8)});
  // A cubic one (16 taps a value in 2-D): its own figures only ("Resize/cubic"; the linear case is
  // "Resize/linear" since session 71, the nearest one the op type's).
  cases.push_back(
      {"data_movement",
       oneOp("Resize", small, {noRoi, twice}, fw::zoo::attrs({Attribute::makeString("mode", "cubic")}), 8),
       true});
  // Pad of the two kinds (OpFamily.h): the spatial axes of [N,C,H,W], the last axis padded, and those
  // of channels-last activations, the last axis kept ("Pad/rows").
  cases.push_back({"data_movement", oneOp("Pad", img, {I64({0, 0, 1, 1, 0, 0, 1, 1})}, {}, 8)});
  {
    const int64_t h = std::max<int64_t>(1, img[2] / 4), w = std::max<int64_t>(1, img[3] / 4);
    const int64_t channels = img[1] * img[2] * img[3] / (h * w);
    cases.push_back(
        {"data_movement", oneOp("Pad", {1, h, w, channels}, {I64({0, 1, 1, 0, 0, 1, 1, 0})}, {}, 8)});
  }
  cases.push_back({"reduction", oneOp("ReduceMax", {rows, cols}, {},
                                      fw::zoo::attrs({Attribute::makeInts("axes", {-1}), Attribute::makeInt("keepdims", 1)}), 8)});
  // The quantisation boundary of QDQ models: float -> uint8 and back, per-tensor scale and zero point.
  {
    const fw::Tensor scale = fw::Tensor::floats({}, {0.02f});
    const fw::Tensor zp = fw::Tensor::fromVector<uint8_t>(fw::DType::UInt8, {}, std::vector<uint8_t>{128});
    cases.push_back({"elementwise", oneOpOn("QuantizeLinear", filled({rows, cols}, 0.0f), {scale, zp}, {}, 8, fw::DType::UInt8)});
    std::vector<uint8_t> q(static_cast<size_t>(rows * cols));
    for (size_t i = 0; i < q.size(); ++i) q[i] = static_cast<uint8_t>((i * 2654435761u) >> 24);
    cases.push_back({"elementwise", oneOpOn("DequantizeLinear", fw::Tensor::fromVector<uint8_t>(fw::DType::UInt8, {rows, cols}, q),
                                            {scale, zp}, {}, 8, fw::DType::Float32)});
  }
  return cases;
}

}  // namespace fw::sim
