// BERT encoder (Hugging Face BertModel) as torch.onnx.export writes it below opset 17's LayerNormalization:
// LayerNorm decomposed into ReduceMean/Sub/Pow/ReduceMean/Add/Sqrt/Div/Mul/Add, exact GELU as
// Div/Erf/Add/Mul/Mul, attention as MatMul -> Div(sqrt(head_dim)) -> Add(mask) -> Softmax -> MatMul with
// Reshape/Transpose around the heads, and the extended attention mask built from an int64 mask by
// Unsqueeze/Cast/Sub/Mul. The vocabulary is 1024 words instead of 30522: the embedding Gather is the
// same op at any vocabulary size, and the smaller table keeps the model light.
#include <cmath>

#include "core/zoo/ZooModels.h"

namespace fw::zoo {
namespace {

constexpr int64_t kVocab = 1024;
constexpr int64_t kMaxPositions = kBertMaxSeq;
constexpr float kInitStd = 0.02f;  // HF initializer_range

struct Dims {
  int64_t batch, seq, hidden, heads, headDim;
};

ValueId sharedScalar(ZooBuilder& b, const std::string& name, float v) {
  return b.sharedConstant(name, Tensor::scalarFloat(v));
}

ValueId layerNorm(ZooBuilder& b, ValueId x, int64_t hidden, const std::string& outName = {}) {
  auto sc = b.scope("LayerNorm");
  ValueId gamma = b.uniform("weight", {hidden}, 0.9f, 1.1f);
  ValueId beta = b.uniform("bias", {hidden}, -0.05f, 0.05f);
  const Attributes reduce = attrs({Attribute::makeInts("axes", {-1}), Attribute::makeInt("keepdims", 1)});
  ValueId mean = b.op("ReduceMean", {x}, reduce);
  ValueId d = b.op("Sub", {x, mean});
  ValueId sq = b.op("Pow", {d, sharedScalar(b, "const.two", 2.0f)});
  ValueId var = b.op("ReduceMean", {sq}, reduce);
  ValueId ve = b.op("Add", {var, sharedScalar(b, "const.layernorm_eps", 1e-12f)});
  ValueId norm = b.op("Div", {d, b.op("Sqrt", {ve})});
  return b.op("Add", {b.op("Mul", {norm, gamma}), beta}, {}, {}, outName);
}

ValueId gelu(ZooBuilder& b, ValueId x) {
  auto sc = b.scope("intermediate_act_fn");
  ValueId e = b.op("Erf", {b.op("Div", {x, sharedScalar(b, "const.sqrt2", std::sqrt(2.0f))})});
  ValueId onePlus = b.op("Add", {e, sharedScalar(b, "const.one", 1.0f)});
  return b.op("Mul", {b.op("Mul", {x, onePlus}), sharedScalar(b, "const.half", 0.5f)});
}

ValueId selfAttention(ZooBuilder& b, ValueId x, ValueId mask, const Dims& d) {
  auto sc = b.scope("self");
  ValueId headsShape =
      b.sharedConstant("const.heads_shape", Tensor::int64s({4}, {d.batch, d.seq, d.heads, d.headDim}));
  auto split = [&](const char* name, std::vector<int64_t> perm) {
    ValueId y = b.linear(x, d.hidden, d.hidden, name, kInitStd);
    auto s2 = b.scope(name);
    y = b.op("Reshape", {y, headsShape});
    return b.op("Transpose", {y}, attrs({Attribute::makeInts("perm", perm)}));
  };
  ValueId q = split("query", {0, 2, 1, 3});
  ValueId kT = split("key", {0, 2, 3, 1});  // transpose_for_scores then .transpose(-1, -2), merged
  ValueId v = split("value", {0, 2, 1, 3});
  ValueId scores = b.op("MatMul", {q, kT});
  scores = b.op("Div",
                {scores, sharedScalar(b, "const.attention_scale", std::sqrt(static_cast<float>(d.headDim)))});
  scores = b.op("Add", {scores, mask});
  ValueId probs = b.op("Softmax", {scores}, attrs({Attribute::makeInt("axis", -1)}));
  ValueId ctx = b.op("MatMul", {probs, v});
  ctx = b.op("Transpose", {ctx}, attrs({Attribute::makeInts("perm", {0, 2, 1, 3})}));
  ValueId merged = b.sharedConstant("const.hidden_shape", Tensor::int64s({3}, {d.batch, d.seq, d.hidden}));
  return b.op("Reshape", {ctx, merged});
}

// HF BertSelfOutput / BertOutput: dense, residual Add, LayerNorm.
ValueId denseAddNorm(ZooBuilder& b, ValueId x, ValueId residual, int64_t in, int64_t out,
                     const std::string& outName = {}) {
  ValueId y = b.linear(x, in, out, "dense", kInitStd);
  y = b.op("Add", {y, residual});
  return layerNorm(b, y, out, outName);
}

ValueId encoderLayer(ZooBuilder& b, ValueId x, ValueId mask, const Dims& d, const std::string& outName) {
  ValueId attn;
  {
    auto sc = b.scope("attention");
    ValueId ctx = selfAttention(b, x, mask, d);
    auto so = b.scope("output");
    attn = denseAddNorm(b, ctx, x, d.hidden, d.hidden);
  }
  ValueId inter;
  {
    auto sc = b.scope("intermediate");
    inter = gelu(b, b.linear(attn, d.hidden, 4 * d.hidden, "dense", kInitStd));
  }
  auto sc = b.scope("output");
  return denseAddNorm(b, inter, attn, 4 * d.hidden, d.hidden, outName);
}

// Every weight the builder draws: per layer q/k/v/attention-output (h x h + h each), intermediate
// (h x 4h + 4h), output (4h x h + h), two LayerNorms (2h each); embeddings, their LayerNorm and the pooler.
double bertWeights(int64_t layers, int64_t hidden) {
  const double h = double(hidden);
  const double perLayer = 12.0 * h * h + 13.0 * h;
  return double(layers) * perLayer + double(kVocab + kMaxPositions + 2) * h + 2.0 * h + h * h + h;
}

bool bertFits(int64_t layers, int64_t hidden) { return bertWeights(layers, hidden) <= kMaxWeights; }

}  // namespace

std::string bertSizeLimits() {
  const int64_t at768 = largestFitting(1, kBertMaxLayers, [](int64_t l) { return bertFits(l, 768); });
  const int64_t at1500 = largestFitting(8, 4096, [](int64_t h) { return bertFits(1500, h); });
  return "weights (about 12 x layers x hidden^2) at most 400M: hidden 768 allows " + std::to_string(at768) +
         " layers, 1500 layers allow hidden " + std::to_string(at1500);
}

Result<Model> buildBert(const ZooParams& p) {
  FW_ASSIGN_OR_RETURN(int64_t layers, param("bert", "layers", p.layers));
  FW_ASSIGN_OR_RETURN(int64_t hidden, param("bert", "hidden", p.hidden));
  FW_ASSIGN_OR_RETURN(int64_t heads, param("bert", "heads", p.heads));
  FW_ASSIGN_OR_RETURN(int64_t seq, param("bert", "seq", p.seq));
  if (hidden % heads != 0) {
    int64_t fit = heads;
    while (hidden % fit != 0) --fit;
    return Error::badInput("zoo model bert: --hidden (" + std::to_string(hidden) +
                           ") must be divisible by --heads (" + std::to_string(heads) + "), e.g. --heads " +
                           std::to_string(fit));
  }
  if (const double w = bertWeights(layers, hidden); w > kMaxWeights) {
    const int64_t maxLayers = largestFitting(1, layers, [&](int64_t l) { return bertFits(l, hidden); });
    const int64_t maxHidden = largestFitting(8, hidden, [&](int64_t h) { return bertFits(layers, h); });
    std::string hint = "lower ";
    if (maxLayers >= 1)
      hint += "--layers to at most " + std::to_string(maxLayers) + " (at --hidden " + std::to_string(hidden) +
              ") or ";
    hint += "--hidden to at most " + std::to_string(maxHidden) + " (at --layers " + std::to_string(layers) +
            "; --heads must divide it)";
    FW_TRY_STATUS(checkWeightBudget("bert", w, hint));
  }
  const Dims d{p.batch, seq, hidden, heads, hidden / heads};

  ZooBuilder b("bert", p.seed);
  ValueId ids = b.input("input_ids", DType::Int64, {d.batch, seq});
  ValueId maskIn = b.input("attention_mask", DType::Int64, {d.batch, seq});

  ValueId x;
  {
    auto sc = b.scope("embeddings");
    const float a = kInitStd * std::sqrt(3.0f);
    ValueId wordTable = b.uniform("word_embeddings.weight", {kVocab, hidden}, -a, a);
    ValueId posTable = b.uniform("position_embeddings.weight", {kMaxPositions, hidden}, -a, a);
    ValueId typeTable = b.uniform("token_type_embeddings.weight", {2, hidden}, -a, a);
    std::vector<int64_t> positions(static_cast<size_t>(seq));
    for (int64_t i = 0; i < seq; ++i) positions[static_cast<size_t>(i)] = i;
    ValueId posIds = b.constant("position_ids", Tensor::int64s({1, seq}, positions));
    ValueId typeIds =
        b.constant("token_type_ids", Tensor::int64s({1, seq}, std::vector<int64_t>(positions.size(), 0)));
    ValueId words = b.op("Gather", {wordTable, ids}, {}, "word_embeddings");
    ValueId types = b.op("Gather", {typeTable, typeIds}, {}, "token_type_embeddings");
    x = b.op("Add", {words, types});
    x = b.op("Add", {x, b.op("Gather", {posTable, posIds}, {}, "position_embeddings")});
    x = layerNorm(b, x, hidden);
  }
  ValueId mask;
  {
    // get_extended_attention_mask: (1 - mask[:, None, None, :]) * -10000, added to the scores.
    auto sc = b.scope("extended_attention_mask");
    ValueId m = b.op("Unsqueeze", {maskIn, b.constI64("axes", {1, 2})});
    m = b.op("Cast", {m}, attrs({Attribute::makeInt("to", static_cast<int64_t>(DType::Float32))}));
    m = b.op("Sub", {sharedScalar(b, "const.one", 1.0f), m});
    mask = b.op("Mul", {m, b.scalarF("min_value", -10000.0f)});
  }
  {
    auto enc = b.scope("encoder");
    auto lay = b.scope("layer");
    for (int64_t i = 0; i < layers; ++i) {
      auto sc = b.scope(std::to_string(i));
      x = encoderLayer(b, x, mask, d, i + 1 == layers ? "last_hidden_state" : "");
    }
  }
  const ValueId lastHidden = x;
  ValueId pooled;
  {
    auto sc = b.scope("pooler");
    ValueId first = b.op("Gather", {lastHidden, b.sharedConstant("const.zero_index", Tensor::scalarInt64(0))},
                         attrs({Attribute::makeInt("axis", 1)}), "first_token");
    pooled = b.gemm(first, hidden, hidden, "dense");
    pooled = b.op("Tanh", {pooled}, {}, "activation", "pooler_output");
  }
  return b.finish({lastHidden, pooled},
                  "BERT encoder (HF BertModel layout, decomposed LayerNorm/GELU): " + std::to_string(layers) +
                      " layers, hidden " + std::to_string(hidden) + ", " + std::to_string(heads) +
                      " heads, seq " + std::to_string(seq) + ", vocab " + std::to_string(kVocab));
}

}  // namespace fw::zoo
