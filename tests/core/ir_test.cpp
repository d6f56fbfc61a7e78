#include <gtest/gtest.h>

#include <chrono>
#include <cmath>

#include "core/ir/Einsum.h"
#include "core/ir/Graph.h"
#include "core/ir/Model.h"

using namespace fw;

namespace {

// x -> Relu -> Sigmoid -> y, with a weight input on an Add.
Graph smallChain() {
  Graph g;
  g.name = "chain";
  ValueId x = g.addInput("x", DType::Float32, Shape::ofInts({2, 3}));
  ValueId w = g.addInitializer("w", Tensor::floats({3}, {1, 2, 3}));
  ValueId a = g.addValue("a");
  ValueId b = g.addValue("b");
  ValueId y = g.addValue("y");
  g.addNode("Add", {x, w}, {a}, {}, "add");
  g.addNode("Relu", {a}, {b}, {}, "relu");
  g.addNode("Sigmoid", {b}, {y}, {}, "sig");
  g.addOutput(y);
  return g;
}

}  // namespace

TEST(Shape, SymbolicAndStatic) {
  Shape s({Dim::sym("batch"), Dim(3), Dim(224)});
  EXPECT_FALSE(s.isStatic());
  EXPECT_EQ(s.str(), "[batch,3,224]");
  EXPECT_FALSE(s.numel().has_value());
  Shape t = Shape::ofInts({2, 3, 4});
  EXPECT_TRUE(t.isStatic());
  EXPECT_EQ(*t.numel(), 24);
  EXPECT_EQ(Shape().str(), "?");
  EXPECT_EQ(Shape::ofInts({}).str(), "[]");
  EXPECT_EQ(*Shape::ofInts({}).numel(), 1);
}

TEST(Tensor, SharedStorageAndConversion) {
  Tensor t = Tensor::floats({2, 2}, {1.5f, -2, 3, 4});
  Tensor u = t;  // shares bytes
  EXPECT_EQ(t.rawData(), u.rawData());
  EXPECT_EQ(t.numel(), 4);
  EXPECT_DOUBLE_EQ(t.getDouble(1), -2.0);
  Tensor r = t.reshaped({4});
  EXPECT_EQ(r.rawData(), t.rawData());
  EXPECT_EQ(r.dims(), std::vector<int64_t>{4});
  EXPECT_THROW(t.reshaped({3}), std::logic_error);
}

TEST(Tensor, HalfConversionRoundTrips) {
  for (float f : {0.0f, 1.0f, -2.5f, 65504.0f, 6.1035156e-05f, 5.9604645e-08f, 0.333251953125f}) {
    EXPECT_EQ(halfToFloat(floatToHalf(f)), f) << f;
  }
  EXPECT_EQ(floatToHalf(1.0f), 0x3c00);
  EXPECT_EQ(floatToHalf(-2.0f), 0xc000);
  EXPECT_TRUE(std::isinf(halfToFloat(floatToHalf(1e6f))));
}

TEST(Graph, UseListsAndTopoOrder) {
  Graph g = smallChain();
  EXPECT_EQ(g.checkConsistency(), "");
  ValueId a = g.findValue("a");
  ASSERT_NE(a, kNoId);
  EXPECT_EQ(g.value(a).consumers.size(), 1u);
  EXPECT_EQ(g.node(g.value(a).producer).name, "add");
  auto order = g.topoOrder();
  ASSERT_TRUE(order.ok());
  ASSERT_EQ(order->size(), 3u);
  EXPECT_EQ(g.node((*order)[0]).name, "add");
  EXPECT_EQ(g.node((*order)[2]).name, "sig");
}

TEST(Graph, RemoveAndReplaceThenCompact) {
  Graph g = smallChain();
  NodeId relu = g.findNode("relu");
  ValueId a = g.findValue("a"), b = g.findValue("b");
  g.replaceAllUses(b, a);
  g.removeNode(relu);
  EXPECT_EQ(g.liveNodeCount(), 2u);
  EXPECT_EQ(g.checkConsistency(), "");
  g.compact();
  EXPECT_EQ(g.nodes().size(), 2u);
  EXPECT_EQ(g.findValue("b"), kNoId);  // unused value dropped
  EXPECT_EQ(g.checkConsistency(), "");
  EXPECT_EQ(g.node(g.value(g.findValue("y")).producer).name, "sig");
}

TEST(Graph, CycleIsReportedWithNames) {
  Graph g;
  ValueId x = g.addInput("x", DType::Float32, Shape::ofInts({1}));
  ValueId a = g.addValue("a"), b = g.addValue("b");
  g.addNode("Add", {x, b}, {a}, {}, "n1");
  g.addNode("Relu", {a}, {b}, {}, "n2");
  g.addOutput(b);
  auto order = g.topoOrder();
  ASSERT_FALSE(order.ok());
  EXPECT_NE(order.error().message.find("cycle"), std::string::npos);
  EXPECT_NE(order.error().message.find("'n1'"), std::string::npos);
  EXPECT_EQ(order.error().code, ErrorCode::BadInput);
}

TEST(Graph, UniqueValueNames) {
  Graph g;
  ValueId a = g.addValue("t");
  ValueId b = g.addValue("t");
  EXPECT_NE(g.value(a).name, g.value(b).name);
}

TEST(Model, CopyOnWriteLeavesOriginalUntouched) {
  Model m;
  m.graph = std::make_shared<const Graph>(smallChain());
  Model copy = m;
  EXPECT_EQ(copy.graph.get(), m.graph.get());
  Graph& g = copy.mutableGraph();
  g.removeNode(g.findNode("relu"));
  EXPECT_NE(copy.graph.get(), m.graph.get());
  EXPECT_EQ(m.graph->liveNodeCount(), 3u);
  EXPECT_EQ(copy.graph->liveNodeCount(), 2u);
}

TEST(Graph, HundredThousandNodesIsFine) {
  // A long chain: build, sort, copy and compact must all be quick (no quadratic step).
  Graph g;
  ValueId cur = g.addInput("x", DType::Float32, Shape::ofInts({1, 16}));
  for (int i = 0; i < 100000; ++i) {
    ValueId next = g.addValue("v" + std::to_string(i));
    g.addNode(i % 2 ? "Relu" : "Sigmoid", {cur}, {next});
    cur = next;
  }
  g.addOutput(cur);
  auto t0 = std::chrono::steady_clock::now();
  auto order = g.topoOrder();
  ASSERT_TRUE(order.ok());
  EXPECT_EQ(order->size(), 100000u);
  Graph copy = g;
  copy.compact();
  EXPECT_EQ(copy.nodes().size(), 100000u);
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(secs, 10.0);  // generous: guards against quadratic behaviour, not a benchmark
}

TEST(Graph, SubgraphOuterReferencesAreUses) {
  // a = Relu(x) is stored AFTER the If that reads `a` inside its branch: the If must sort after it,
  // `a` must count the If as a consumer, and replacing `a` renames the reference in the branch.
  Graph g;
  ValueId x = g.addInput("x", DType::Float32, Shape::ofInts({2}));
  ValueId cond = g.addInput("cond", DType::Bool, Shape::ofInts({}));
  ValueId a = g.addValue("a");
  ValueId r = g.addValue("r");
  auto branch = std::make_shared<Graph>();
  ValueId outer = branch->addValue("a");
  ValueId bo = branch->addValue("bo");
  branch->addNode("Neg", {outer}, {bo});
  branch->addOutput(bo);
  Attributes at;
  at.set(Attribute::makeGraph("then_branch", branch));
  at.set(Attribute::makeGraph("else_branch", branch));
  NodeId ifn = g.addNode("If", {cond}, {r}, at, "if");
  g.addNode("Relu", {x}, {a}, {}, "relu");
  g.addOutput(r);
  EXPECT_EQ(g.checkConsistency(), "");
  ASSERT_EQ(g.node(ifn).implicitInputs.size(), 1u);
  EXPECT_EQ(g.value(a).consumers.size(), 1u);
  auto order = g.topoOrder();
  ASSERT_TRUE(order.ok());
  EXPECT_EQ(g.node((*order)[0]).name, "relu");

  ValueId b = g.addValue("b");
  g.addNode("Sigmoid", {x}, {b}, {}, "sig");
  g.replaceAllUses(a, b);
  EXPECT_EQ(g.checkConsistency(), "");
  EXPECT_TRUE(g.value(a).consumers.empty());
  auto thenG = g.node(ifn).attrs.getGraph("then_branch");
  EXPECT_NE(thenG->findValue("b"), kNoId);
  EXPECT_EQ(thenG->findValue("a"), kNoId);
  g.removeNode(g.findNode("relu"));
  g.compact();
  EXPECT_EQ(g.checkConsistency(), "");
  EXPECT_EQ(g.liveNodeCount(), 2u);
}

TEST(Graph, ReplacingASubgraphRecomputesItsOuterUses) {
  Graph g;
  ValueId x = g.addInput("x", DType::Float32, Shape::ofInts({2}));
  ValueId cond = g.addInput("cond", DType::Bool, Shape::ofInts({}));
  ValueId a = g.addValue("a"), r = g.addValue("r");
  g.addNode("Relu", {x}, {a}, {}, "relu");
  auto readsA = std::make_shared<Graph>();
  {
    ValueId o = readsA->addValue("a"), t = readsA->addValue("t");
    readsA->addNode("Neg", {o}, {t});
    readsA->addOutput(t);
  }
  auto readsX = std::make_shared<Graph>();
  {
    ValueId o = readsX->addValue("x"), t = readsX->addValue("t");
    readsX->addNode("Neg", {o}, {t});
    readsX->addOutput(t);
  }
  Attributes at;
  at.set(Attribute::makeGraph("then_branch", readsA));
  at.set(Attribute::makeGraph("else_branch", readsA));
  NodeId ifn = g.addNode("If", {cond}, {r}, at, "if");
  g.addOutput(r);
  ASSERT_EQ(g.value(a).consumers.size(), 1u);
  Attributes next;
  next.set(Attribute::makeGraph("then_branch", readsX));
  next.set(Attribute::makeGraph("else_branch", readsX));
  g.setNodeAttributes(ifn, next);
  EXPECT_TRUE(g.value(a).consumers.empty());  // the Relu is now dead code
  ASSERT_EQ(g.node(ifn).implicitInputs.size(), 1u);
  EXPECT_EQ(g.node(ifn).implicitInputs[0], x);
  EXPECT_EQ(g.checkConsistency(), "");
}

// A body that reads two outer names of which one becomes the other (an exporter's Identity between two
// equal LayerNorm weights, removed by a rewrite): its readers of the old name read the one value of the new
// name, and the body stays consistent (set 117's decoder: "value 'n1.weight' not indexed").
TEST(Graph, AnOuterNameRenamedToOneTheBodyAlreadyReadsMergesTheTwo) {
  auto body = std::make_shared<Graph>();
  {
    ValueId w1 = body->addValue("w1"), w2 = body->addValue("w2");
    ValueId a = body->addValue("a"), b = body->addValue("b");
    body->addNode("Neg", {w1}, {a}, {}, "neg1");
    body->addNode("Neg", {w2}, {b}, {}, "neg2");
    body->addOutput(a);
    body->addOutput(b);
  }
  const GraphPtr renamed = renameOuterRef(*body, "w2", "w1");
  EXPECT_EQ(renamed->checkConsistency(), "");
  const ValueId w1 = renamed->findValue("w1");
  ASSERT_NE(w1, kNoId);
  EXPECT_EQ(renamed->value(w1).consumers.size(), 2u);
  EXPECT_EQ(renamed->node(renamed->findNode("neg2")).inputs[0], w1);
  // A body value of the new name (not an outer reference) moves aside; the outer reference takes the name.
  auto local = std::make_shared<Graph>();
  {
    ValueId w2 = local->addValue("w2"), t = local->addValue("t"), u = local->addValue("w1");
    local->addNode("Neg", {w2}, {t}, {}, "neg");
    local->addNode("Neg", {t}, {u}, {}, "neg2");
    local->addOutput(u);
  }
  const GraphPtr moved = renameOuterRef(*local, "w2", "w1");
  EXPECT_EQ(moved->checkConsistency(), "");
  EXPECT_TRUE(moved->value(moved->findValue("w1")).isOuterRef());
  EXPECT_EQ(moved->node(moved->findNode("neg")).inputs[0], moved->findValue("w1"));
  EXPECT_EQ(moved->value(moved->node(moved->findNode("neg2")).outputs[0]).name, "w1_sub");
}

TEST(Einsum, ResolvesLabelsAndFindsTheBatchedProduct) {
  // Implicit output: the labels in one operand only, upper case first.
  auto f = fw::resolveEinsum("ij , jK", {{2, 3}, {3, 4}});
  ASSERT_TRUE(f.ok()) << f.error().message;
  EXPECT_EQ(f->outLabels, (std::vector<int>{26 + ('K' - 'A'), 'i' - 'a'}));
  EXPECT_EQ(f->sumLabels, (std::vector<int>{'j' - 'a'}));
  // An ellipsis covers the leading dims, broadcast across operands.
  auto e = fw::resolveEinsum("...ij,...jk->...ik", {{5, 1, 2, 3}, {7, 3, 4}});
  ASSERT_TRUE(e.ok()) << e.error().message;
  EXPECT_EQ(e->size[fw::kEinsumEllipsis], 5);
  EXPECT_EQ(e->size[fw::kEinsumEllipsis + 1], 7);
  EXPECT_FALSE(fw::einsumProduct(*e, {{5, 1, 2, 3}, {7, 3, 4}}).has_value());  // broadcast from 1

  // MoE experts: t -> M, d -> K, h -> N, and e, which leads the output and is in the second operand only,
  // the batch, the first operand shared: nothing moved (as [t] x [(e h)], B and C would be).
  const std::vector<std::vector<int64_t>> moe = {{64, 256}, {8, 256, 512}};
  auto m = fw::resolveEinsum("td,edh->eth", moe);
  ASSERT_TRUE(m.ok()) << m.error().message;
  auto p = fw::einsumProduct(*m, moe);
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->batches, 8);
  EXPECT_EQ(p->M, 64);
  EXPECT_EQ(p->K, 256);
  EXPECT_EQ(p->N, 512);
  EXPECT_EQ(p->shared, fw::EinsumProduct::Shared::A);
  EXPECT_FALSE(p->moveA || p->moveB || p->moveC || p->transB);
  EXPECT_EQ(p->aElements(), 64 * 256);
  EXPECT_EQ(p->bElements(), 8 * 256 * 512);
  EXPECT_EQ(p->movedElements(), 0);
  // The output [e, h, t]: e and h the batch, t the rows of one column each; B moved to [e, h, d].
  auto q = fw::einsumProduct(*fw::resolveEinsum("td,edh->eht", moe), moe);
  ASSERT_TRUE(q.has_value());
  EXPECT_EQ(q->shared, fw::EinsumProduct::Shared::A);
  EXPECT_EQ(q->batches, 8 * 512);
  EXPECT_TRUE(q->moveB);
  EXPECT_FALSE(q->moveC);
  EXPECT_EQ(q->movedElements(), 8 * 256 * 512);
  // Attention scores: batch b h, M i, N j, K d; the second operand [b, h, j, d] read transposed.
  const std::vector<std::vector<int64_t>> att = {{2, 4, 16, 8}, {2, 4, 16, 8}};
  auto a = fw::einsumProduct(*fw::resolveEinsum("bhid,bhjd->bhij", att), att);
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a->batches, 8);
  EXPECT_EQ(a->shared, fw::EinsumProduct::Shared::None);
  EXPECT_TRUE(a->transB);
  EXPECT_FALSE(a->moveA || a->moveB || a->moveC);
  // A label in all three keeps the plain form: [b, d] against [b, e, d, h] moves B.
  const std::vector<std::vector<int64_t>> mixed = {{2, 6, 4}, {2, 3, 4, 5}};
  auto x = fw::einsumProduct(*fw::resolveEinsum("bnd,bedh->benh", mixed), mixed);
  ASSERT_TRUE(x.has_value());
  EXPECT_EQ(x->shared, fw::EinsumProduct::Shared::None);
  EXPECT_TRUE(x->moveB);
  // Not products: a diagonal, a label summed within one operand, three operands.
  const std::vector<std::vector<int64_t>> sq = {{3, 3}, {3, 4}};
  EXPECT_FALSE(fw::einsumProduct(*fw::resolveEinsum("ii,ij->j", sq), sq).has_value());
  EXPECT_FALSE(fw::einsumProduct(*fw::resolveEinsum("ij,ik->k", sq), sq).has_value());
  const std::vector<std::vector<int64_t>> three = {{2, 3}, {3, 4}, {4, 5}};
  EXPECT_FALSE(fw::einsumProduct(*fw::resolveEinsum("ij,jk,kl->il", three), three).has_value());

  // Errors name what is wrong.
  auto bad = [](const std::string& eq, const std::vector<std::vector<int64_t>>& dims) {
    auto r = fw::resolveEinsum(eq, dims);
    return r.ok() ? std::string() : r.error().message;
  };
  EXPECT_NE(bad("ij,jk->ik", {{2, 3}, {4, 5}}).find("label 'j' has sizes 3 and 4"), std::string::npos);
  EXPECT_NE(bad("ij,jk->ik", {{2, 3}}).find("2 operands but the node has 1 inputs"), std::string::npos);
  EXPECT_NE(bad("ijk->ik", {{2, 3}}).find("does not match input 0 of shape [2,3]"), std::string::npos);
  EXPECT_NE(bad("ij->iz", {{2, 3}}).find("output label 'z' does not appear"), std::string::npos);
  EXPECT_NE(bad("i.j->ij", {{2, 3}}).find("malformed ellipsis"), std::string::npos);
  EXPECT_NE(bad("i1->i", {{2, 3}}).find("invalid character '1'"), std::string::npos);
  EXPECT_NE(bad("", {{2, 3}}).find("missing attribute 'equation'"), std::string::npos);
}
