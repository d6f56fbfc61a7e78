#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "core/io/ModelSource.h"
#include "core/onnx/OnnxIO.h"
#include "core/util/FileUtil.h"

using namespace fw;
namespace fs = std::filesystem;

namespace {

fs::path tempDir(const std::string& name) {
  fs::path p = fs::temp_directory_path() / ("fw_onnx_test_" + name + "_" + std::to_string(::getpid()));
  fs::create_directories(p);
  return p;
}

// A model that exercises what real exporters produce: a Constant weight, an If with subgraphs that
// read an outer value, fp16 and int8 initializers, every attribute kind we model, nodes stored in
// reverse (unsorted) order, and a model-local function.
Model featureModel() {
  Model m;
  m.opsetImports = {{"", 13}, {"custom.fn", 1}};
  auto g = std::make_shared<Graph>();
  g->name = "features";
  ValueId x = g->addInput("x", DType::Float32, Shape({Dim::sym("batch"), Dim(4)}));
  ValueId cond = g->addInput("cond", DType::Bool, Shape::ofInts({}));
  ValueId wHalf = g->addInitializer("w_half", Tensor::fromVector<uint16_t>(
                                                  DType::Float16, {4}, {floatToHalf(1.0f), floatToHalf(0.5f),
                                                                        floatToHalf(-2.0f), floatToHalf(3.0f)}));
  ValueId q = g->addInitializer("q_int8", Tensor::fromVector<int8_t>(DType::Int8, {2}, {-5, 7}));
  (void)q;
  ValueId wc = g->addValue("w_const");
  ValueId wf = g->addValue("w_float");
  ValueId a = g->addValue("a");
  ValueId r = g->addValue("r");
  ValueId y = g->addValue("y");
  ValueId f = g->addValue("f");

  // then/else branches read `a` from the enclosing graph.
  auto thenG = std::make_shared<Graph>();
  thenG->name = "then";
  {
    ValueId outer = thenG->addValue("a");
    ValueId t = thenG->addValue("then_out", DType::Float32, Shape({Dim::sym("batch"), Dim(4)}));
    thenG->addNode("Relu", {outer}, {t}, {}, "then_relu");
    thenG->addOutput(t);
  }
  auto elseG = std::make_shared<Graph>();
  elseG->name = "else";
  {
    ValueId outer = elseG->addValue("a");
    ValueId t = elseG->addValue("else_out", DType::Float32, Shape({Dim::sym("batch"), Dim(4)}));
    elseG->addNode("Neg", {outer}, {t}, {}, "else_neg");
    elseG->addOutput(t);
  }

  // Stored consumer-first so the file's node list is not topologically sorted.
  Attributes ifAttrs;
  ifAttrs.set(Attribute::makeGraph("then_branch", thenG));
  ifAttrs.set(Attribute::makeGraph("else_branch", elseG));
  g->addNode("MyFn", {r}, {f}, {}, "fn_call", "custom.fn");
  g->addNode("If", {cond}, {r}, ifAttrs, "branch");
  Attributes castAttrs;
  castAttrs.set(Attribute::makeInt("to", 1));
  g->addNode("Mul", {x, wf}, {a}, {}, "mul");
  g->addNode("Cast", {wHalf}, {wf}, castAttrs, "cast_half");
  Attributes cattrs;
  cattrs.set(Attribute::makeTensor("value", Tensor::floats({4}, {1, 2, 3, 4})));
  g->addNode("Constant", {}, {wc}, cattrs, "const_w");
  g->addNode("Add", {f, wc}, {y}, {}, "add_const");
  g->addOutput(y);
  m.graph = g;

  // Function MyFn(X) = Sigmoid(X)
  Function fn;
  fn.name = "MyFn";
  fn.domain = "custom.fn";
  fn.opsetImports = {{"", 13}};
  auto body = std::make_shared<Graph>();
  ValueId fx = body->addInput("X", DType::Undefined, Shape());
  ValueId fy = body->addValue("Y");
  body->addNode("Sigmoid", {fx}, {fy}, {}, "fn_sigmoid");
  body->addOutput(fy);
  fn.body = body;
  m.functions.push_back(fn);
  return m;
}

Result<Model> reparse(const Model& m, const ImportOptions& opts = {}, ImportReport* rep = nullptr) {
  auto bytes = serializeOnnx(m);
  if (!bytes.ok()) return bytes.error();
  return parseOnnxBytes(*bytes, "mem.onnx", "", opts, rep);
}

}  // namespace

TEST(OnnxImport, SortsConvertsConstantsAndKeepsSubgraphs) {
  ImportReport rep;
  auto m = reparse(featureModel(), {}, &rep);
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_TRUE(rep.wasUnsorted);
  EXPECT_EQ(rep.constantsFolded, 1u);
  EXPECT_EQ(m->storedNodeCount, 6);
  const Graph& g = *m->graph;
  EXPECT_EQ(g.liveNodeCount(), 5u);  // Constant became an initializer
  ValueId wc = g.findValue("w_const");
  ASSERT_NE(wc, kNoId);
  ASSERT_TRUE(g.value(wc).isInitializer());
  EXPECT_EQ(g.value(wc).initializer->toFloats(), (std::vector<float>{1, 2, 3, 4}));
  // Stored topologically now.
  auto order = g.topoOrder();
  ASSERT_TRUE(order.ok());
  for (size_t i = 0; i < order->size(); ++i) EXPECT_EQ((*order)[i], static_cast<NodeId>(i));
  // fp16 and int8 initializers survive with their types.
  const Tensor* h = g.constantOf(g.findValue("w_half"));
  ASSERT_NE(h, nullptr);
  EXPECT_EQ(h->dtype(), DType::Float16);
  EXPECT_FLOAT_EQ(static_cast<float>(h->getDouble(2)), -2.0f);
  const Tensor* q8 = g.constantOf(g.findValue("q_int8"));
  ASSERT_NE(q8, nullptr);
  EXPECT_EQ(q8->dtype(), DType::Int8);
  EXPECT_EQ(q8->getInt64(0), -5);
  // If subgraph reads the outer value.
  NodeId ifn = g.findNode("branch");
  ASSERT_NE(ifn, kNoId);
  auto thenG = g.node(ifn).attrs.getGraph("then_branch");
  ASSERT_TRUE(thenG);
  ValueId outer = thenG->findValue("a");
  ASSERT_NE(outer, kNoId);
  EXPECT_TRUE(thenG->value(outer).isOuterRef());
  // Function imported.
  ASSERT_EQ(m->functions.size(), 1u);
  EXPECT_EQ(m->functions[0].body->liveNodeCount(), 1u);
}

TEST(OnnxImport, ShapeInferenceFillsIntermediatesAndBindsSymbols) {
  auto m = reparse(featureModel());
  ASSERT_TRUE(m.ok()) << m.error().message;
  const Graph& g = *m->graph;
  EXPECT_EQ(g.value(g.findValue("a")).shape.str(), "[batch,4]");
  EXPECT_EQ(g.value(g.findValue("a")).dtype, DType::Float32);

  ImportOptions opts;
  opts.shapeOverrides.push_back(*parseShapeOverride("batch=8"));
  auto m8 = reparse(featureModel(), opts);
  ASSERT_TRUE(m8.ok()) << m8.error().message;
  EXPECT_EQ(m8->graph->value(m8->graph->findValue("x")).shape.str(), "[8,4]");
  EXPECT_EQ(m8->graph->value(m8->graph->findValue("a")).shape.str(), "[8,4]");

  ImportOptions byName;
  byName.shapeOverrides.push_back(*parseShapeOverride("x=3,4"));
  auto m3 = reparse(featureModel(), byName);
  ASSERT_TRUE(m3.ok()) << m3.error().message;
  EXPECT_EQ(m3->graph->value(m3->graph->findValue("a")).shape.str(), "[3,4]");

  ImportOptions bad;
  bad.shapeOverrides.push_back(*parseShapeOverride("nosuch=3"));
  auto mb = reparse(featureModel(), bad);
  ASSERT_FALSE(mb.ok());
  EXPECT_NE(mb.error().message.find("nosuch"), std::string::npos);
}

TEST(OnnxImport, ParseShapeOverride) {
  auto o = parseShapeOverride("input=1,3,224,224");
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o->name, "input");
  ASSERT_EQ(o->dims.size(), 4u);
  EXPECT_EQ(o->dims[3].value, 224);
  EXPECT_FALSE(parseShapeOverride("input").ok());
  EXPECT_FALSE(parseShapeOverride("input=").ok());
  EXPECT_FALSE(parseShapeOverride("input=1,,2").ok());
  auto s = parseShapeOverride("x=batch,3");
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->dims[0].symbol, "batch");
}

TEST(OnnxRoundTrip, ImportExportImportIsIdentical) {
  auto m1 = reparse(featureModel());
  ASSERT_TRUE(m1.ok()) << m1.error().message;
  auto b1 = serializeOnnx(*m1);
  ASSERT_TRUE(b1.ok());
  auto m2 = parseOnnxBytes(*b1, "rt.onnx", "");
  ASSERT_TRUE(m2.ok()) << m2.error().message;
  auto b2 = serializeOnnx(*m2);
  ASSERT_TRUE(b2.ok());
  EXPECT_EQ(*b1, *b2);
  EXPECT_EQ(m1->graph->liveNodeCount(), m2->graph->liveNodeCount());
  EXPECT_TRUE(checkOnnx(*m2).ok()) << checkOnnx(*m2).error().message;
}

TEST(OnnxRoundTrip, AttributesOfEveryKindSurvive) {
  Model m;
  auto g = std::make_shared<Graph>();
  ValueId x = g->addInput("x", DType::Float32, Shape::ofInts({2}));
  ValueId y = g->addValue("y");
  Attributes at;
  at.set(Attribute::makeFloat("f", 0.25f));
  at.set(Attribute::makeInt("i", -3));
  at.set(Attribute::makeString("s", "nearest"));
  at.set(Attribute::makeTensor("t", Tensor::int64s({2}, {7, 8})));
  at.set(Attribute::makeFloats("fs", {1.5f, 2.5f}));
  at.set(Attribute::makeInts("is", {0, 1, 2}));
  at.set(Attribute::makeStrings("ss", {"a", "b"}));
  Attribute ts;
  ts.name = "ts";
  ts.kind = AttrKind::Tensors;
  ts.tensors = {Tensor::floats({1}, {3.0f})};
  at.set(ts);
  auto sub = std::make_shared<Graph>();
  ValueId si = sub->addInput("si", DType::Float32, Shape::ofInts({1}));
  ValueId so = sub->addValue("so");
  sub->addNode("Identity", {si}, {so});
  sub->addOutput(so);
  at.set(Attribute::makeGraph("g", sub));
  Attribute gs;
  gs.name = "gs";
  gs.kind = AttrKind::Graphs;
  gs.graphs = {sub, sub};
  at.set(gs);
  g->addNode("Custom", {x}, {y}, at, "custom", "my.domain");
  g->addOutput(y);
  m.graph = g;
  m.opsetImports["my.domain"] = 1;
  auto back = reparse(m);
  ASSERT_TRUE(back.ok()) << back.error().message;
  const Node& n = back->graph->node(0);
  EXPECT_FLOAT_EQ(*n.attrs.getFloat("f"), 0.25f);
  EXPECT_EQ(*n.attrs.getInt("i"), -3);
  EXPECT_EQ(*n.attrs.getString("s"), "nearest");
  EXPECT_EQ(n.attrs.getTensor("t")->toInt64s(), (std::vector<int64_t>{7, 8}));
  EXPECT_EQ(*n.attrs.getFloats("fs"), (std::vector<float>{1.5f, 2.5f}));
  EXPECT_EQ(*n.attrs.getInts("is"), (std::vector<int64_t>{0, 1, 2}));
  EXPECT_EQ(n.attrs.find("ss")->strings, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(n.attrs.find("ts")->tensors.size(), 1u);
  EXPECT_EQ(n.attrs.getGraph("g")->liveNodeCount(), 1u);
  EXPECT_EQ(n.attrs.find("gs")->graphs.size(), 2u);
  EXPECT_EQ(n.domain, "my.domain");
}

TEST(OnnxImport, ExternalDataInsideFolderOnly) {
  fs::path dir = tempDir("ext");
  std::vector<float> w(1000);
  for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>(i) * 0.5f;
  Model m;
  auto g = std::make_shared<Graph>();
  ValueId x = g->addInput("x", DType::Float32, Shape::ofInts({1000}));
  ValueId wv = g->addInitializer("w", Tensor::floats({1000}, w));
  ValueId small = g->addInitializer("s", Tensor::floats({1}, {2.0f}));
  ValueId a = g->addValue("a"), y = g->addValue("y");
  g->addNode("Add", {x, wv}, {a});
  g->addNode("Mul", {a, small}, {y});
  g->addOutput(y);
  m.graph = g;

  SaveOptions so;
  so.externalData = true;
  fs::path model = dir / "m.onnx";
  ASSERT_TRUE(saveOnnxFile(m, model.string(), so).ok());
  EXPECT_TRUE(fs::exists(dir / "m.onnx.data"));
  EXPECT_LT(fs::file_size(model), 1000u);  // weights are not inside the model file
  auto back = loadOnnxFile(model.string());
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->graph->constantOf(back->graph->findValue("w"))->toFloats(), w);
  EXPECT_FLOAT_EQ(back->graph->constantOf(back->graph->findValue("s"))->toFloats()[0], 2.0f);

  // Truncated side file.
  fs::resize_file(dir / "m.onnx.data", 100);
  auto trunc = loadOnnxFile(model.string());
  ASSERT_FALSE(trunc.ok());
  EXPECT_NE(trunc.error().message.find("truncated"), std::string::npos) << trunc.error().message;
  EXPECT_NE(trunc.error().message.find("'w'"), std::string::npos) << trunc.error().message;

  // A location that leaves the model's folder is refused, even if the file exists.
  fs::create_directories(dir / "inner");
  so.dataFileName = "../escape.data";
  ASSERT_TRUE(saveOnnxFile(m, (dir / "inner" / "m2.onnx").string(), so).ok());
  ASSERT_TRUE(fs::exists(dir / "escape.data"));
  auto esc = loadOnnxFile((dir / "inner" / "m2.onnx").string());
  ASSERT_FALSE(esc.ok());
  EXPECT_NE(esc.error().message.find("leaves the model's folder"), std::string::npos) << esc.error().message;
  fs::remove_all(dir);
}

TEST(OnnxImport, BrokenInputsGiveOneClearError) {
  fs::path dir = tempDir("broken");
  auto expectBad = [&](const std::string& name, const std::string& content, const std::string& needle) {
    fs::path p = dir / name;
    {
      std::ofstream out(p, std::ios::binary);
      out << content;
    }
    auto m = loadOnnxFile(p.string());
    ASSERT_FALSE(m.ok()) << name;
    EXPECT_EQ(m.error().code, ErrorCode::BadInput) << name;
    EXPECT_NE(m.error().message.find(p.string()), std::string::npos) << m.error().message;
    EXPECT_NE(m.error().message.find(needle), std::string::npos) << m.error().message;
  };
  expectBad("empty.onnx", "", "empty");
  std::mt19937 rng(42);
  std::string random(4096, '\0');
  for (auto& c : random) c = static_cast<char>(rng());
  expectBad("random.onnx", random, "not");
  auto good = serializeOnnx(featureModel());
  ASSERT_TRUE(good.ok());
  expectBad("truncated.onnx", good->substr(0, good->size() / 2), "");
  auto missing = loadOnnxFile((dir / "nope.onnx").string());
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("no such file"), std::string::npos);

  // A cycle and a dangling input, written through the exporter (which does not validate).
  Model cyc;
  {
    auto g = std::make_shared<Graph>();
    ValueId x = g->addInput("x", DType::Float32, Shape::ofInts({1}));
    ValueId a = g->addValue("a"), b = g->addValue("b");
    g->addNode("Add", {x, b}, {a}, {}, "n1");
    g->addNode("Relu", {a}, {b}, {}, "n2");
    g->addOutput(b);
    cyc.graph = g;
  }
  expectBad("cycle.onnx", *serializeOnnx(cyc), "cycle");
  Model dang;
  {
    auto g = std::make_shared<Graph>();
    ValueId x = g->addInput("x", DType::Float32, Shape::ofInts({1}));
    ValueId ghost = g->addValue("ghost");
    ValueId y = g->addValue("y");
    g->addNode("Add", {x, ghost}, {y}, {}, "adder");
    g->addOutput(y);
    dang.graph = g;
  }
  expectBad("dangling.onnx", *serializeOnnx(dang), "'ghost' is not produced");
  fs::remove_all(dir);
}

TEST(OnnxExport, WritesAtomicallyAndNeverLeavesTempFiles) {
  fs::path dir = tempDir("atomic");
  auto m = reparse(featureModel());
  ASSERT_TRUE(m.ok());
  fs::path out = dir / "out.onnx";
  ASSERT_TRUE(saveOnnxFile(*m, out.string()).ok());
  ASSERT_TRUE(saveOnnxFile(*m, out.string()).ok());  // overwrite an output is fine
  size_t files = 0;
  for (auto& e : fs::directory_iterator(dir)) {
    (void)e;
    ++files;
  }
  EXPECT_EQ(files, 1u);
  auto back = loadOnnxFile(out.string());
  ASSERT_TRUE(back.ok()) << back.error().message;
  auto st = saveOnnxFile(*m, (dir / "no_such_dir" / "x.onnx").string());
  EXPECT_FALSE(st.ok());
  fs::remove_all(dir);
}
