// The interpreter: walks a graph in topological order, keeps one runtime tensor per value id, frees
// a value after its last use, and recurses for subgraphs (If/Loop/Scan) and model-local functions;
// runGraph/runGraphValues/runGraphNamed around it. The op registry is OpRegistry.cpp, single-node
// evaluation ConstantEval.cpp, sample inputs SampleInputs.cpp, process settings ProcessTuning.cpp.
#include "core/exec/Executor.h"

#include <malloc.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <map>
#include <mutex>
#include <new>
#include <optional>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "core/exec/Epilogue.h"
#include "core/exec/MemoryPlan.h"
#include "core/exec/OpContext.h"
#include "core/exec/ThreadPool.h"

namespace fw {
namespace exec {

namespace {


// Names a graph reads from enclosing scopes, including those read by its own nested subgraphs.
void collectOuterRefs(const Graph& g, std::unordered_set<std::string>& out) {
  for (const auto& v : g.values())
    if (v.isOuterRef() && !v.consumers.empty()) out.insert(v.name);
  for (const auto& n : g.nodes()) {
    if (n.dead) continue;
    for (const auto& sg : n.subgraphs()) collectOuterRefs(*sg, out);
  }
}

// What a run of one graph needs beyond the graph, worked out once per graph and reused by every run
// (and every call of a function body). Per-node entries are indexed by node id; a node's kernel or
// function is looked up here rather than by name on each call (a fused model's kernels are functions,
// and a lookup by name scanned them all: 100 fused kernels cost 0.4-1 us a call).
struct Plan {
  std::vector<NodeId> order;
  std::vector<int32_t> uses;     // consumer count per value id
  std::vector<char> keepAlive;   // graph outputs and values read by nested subgraphs
  // The values whose tensor is dropped after the node at each position of `order` (releaseIds from
  // releaseStart[pos] to releaseStart[pos + 1]): those it reads last that are neither kept alive nor an
  // initializer. Worked out once: the release after each node read the node's input lists, a use count
  // per value and each input's graph Value record (208 bytes, spread over the graph), which a run whose
  // traffic evicts them missed in cache on every input (session 80: FCOS -O0's run loop had half of its own
  // perf samples on the Value record; a GRU decoder's Loop body, its weights streamed each trip, about 2.8
  // us a trip outside its nodes).
  std::vector<int32_t> releaseStart;
  std::vector<ValueId> releaseIds;
  // Relu epilogues: reluAfter[producer] = the Relu node that is the only reader of the producer's
  // output (Conv, BatchNormalization, Add); that Relu is computed with its producer and skipped.
  std::vector<NodeId> reluAfter;
  std::vector<char> skipped;
  // Split epilogues (Epilogue.h): splitAt[producer] indexes splits, or -1; the Split is skipped.
  std::vector<int32_t> splitAt;
  std::vector<SplitEpilogue> splits;
  std::vector<KernelFn> kernel;   // a default-domain op's kernel, or nullptr
  std::vector<int32_t> function;  // else the index of its model-local function, or -1
  // The plan of each called function's body, filled on its first call (a body is never timed node by
  // node and has the caller's keepIntermediates, so one plan serves every call from this node).
  std::unique_ptr<std::atomic<const Plan*>[]> callee;
  std::vector<ValueId> initializers;  // values with an initializer
};

// The values a graph run starts from: a caller's vector (the main graph, control-flow bodies) or
// pointers into the caller's values (a function call; null for an omitted input).
struct Args {
  Args(const std::vector<RtTensor>& v) : vec_(v.data()), n_(v.size()) {}          // NOLINT: implicit
  Args(const std::vector<const RtTensor*>& p) : ptrs_(p.data()), n_(p.size()) {}  // NOLINT: implicit
  const RtTensor* at(size_t k) const {
    if (k >= n_) return nullptr;
    return vec_ ? &vec_[k] : ptrs_[k];
  }

 private:
  const RtTensor* vec_ = nullptr;
  const RtTensor* const* ptrs_ = nullptr;
  size_t n_ = 0;
};

// One run's value table, kept by the interpreter between runs so that a function body called once per
// fused kernel does not allocate it on every call.
struct Frame {
  std::vector<RtTensor> vals;
};

}  // namespace
}  // namespace exec

class RunPlans {
 public:
  // Whether runs of `m` may use these plans: the first model bound is the only one.
  bool bind(const Model& m) {
    std::lock_guard<std::mutex> lock(mu);
    std::vector<GraphPtr> bodies;
    for (const auto& f : m.functions) bodies.push_back(f.body);
    if (!graph) {
      graph = m.graph;
      functionBodies = std::move(bodies);
      return true;
    }
    return graph == m.graph && functionBodies == bodies;
  }
  mutable std::mutex mu;
  // By graph and plan flags (timed nodes, kept intermediates). Entries are never erased: pointers to
  // them stay valid while the object lives.
  std::map<std::pair<const Graph*, int>, exec::Plan> plans;

 private:
  GraphPtr graph;
  std::vector<GraphPtr> functionBodies;
};

std::shared_ptr<RunPlans> makeRunPlans() { return std::make_shared<RunPlans>(); }

size_t planCount(const RunPlans& p) {
  std::lock_guard<std::mutex> lock(p.mu);
  return p.plans.size();
}

namespace exec {


struct Scope {
  const Graph* graph = nullptr;
  std::vector<RtTensor>* vals = nullptr;
  const Scope* parent = nullptr;
  std::string path;  // "" at top level, "If_3/then_branch" in a body (ExecTrace paths)
  bool traced = true;  // false inside function bodies (fused kernels): their names are not the model's

  const RtTensor* lookup(const std::string& name) const {
    for (const Scope* s = this; s; s = s->parent) {
      const ValueId id = s->graph->findValue(name);
      if (id != kNoId && (*s->vals)[static_cast<size_t>(id)].defined()) return &(*s->vals)[static_cast<size_t>(id)];
    }
    return nullptr;
  }
};

class Interpreter {
 public:
  Interpreter(const Model& m, const ExecOptions& o, BufferPool* pool = nullptr)
      : model_(m), opts_(o), opset_(m.opset("")), shared_(o.plans && o.plans->bind(m) ? o.plans.get() : nullptr) {
    limits_.pool = pool;
    if (opset_ <= 0) opset_ = 17;
    limits_.maxTensorBytes = o.maxMemoryBytes < 0 ? defaultMemoryBudget() : o.maxMemoryBytes;
    limits_.maxIterations = o.maxIterations;
    limits_.deadline = o.timeLimitSeconds > 0 ? steadySeconds() + o.timeLimitSeconds : 0;
  }
  const RunLimits& limits() const { return limits_; }

  std::map<std::string, Tensor> intermediates;

  // `knownPlan`: g's plan when the caller has it (a function body's, Plan::callee).
  Result<std::vector<RtTensor>> run(const Graph& g, Args inputs, const Scope* parent,
                                    const Attributes* callerAttrs, bool top, std::string path = {},
                                    bool traced = true, const Plan* knownPlan = nullptr) {
    const Plan* plan = knownPlan;
    // Under a profile every node of the main graph and of its control-flow bodies is timed on its own.
    const bool timedNodes = opts_.profile && (top || (traced && !path.empty()));
    if (!plan) {
      FW_ASSIGN_OR_RETURN(plan, planFor(g, timedNodes));
    }
    FrameLease frame(*this, g.values().size());
    std::vector<RtTensor>& vals = frame->vals;
    Scope scope{&g, &vals, parent, std::move(path), traced};

    const auto& gin = g.inputs();
    for (size_t k = 0; k < gin.size(); ++k) {
      const Value& v = g.value(gin[k]);
      const RtTensor* given = inputs.at(k);
      if (given && given->defined()) {
        vals[static_cast<size_t>(gin[k])] = *given;
      } else if (v.initializer) {
        vals[static_cast<size_t>(gin[k])] = RtTensor::fromModelTensor(*v.initializer);
      } else {
        return Error::badInput("graph '" + g.name + "': no value given for input '" + v.name + "'");
      }
    }
    if (opts_.trace && opts_.trace->recordShapes && traced)
      for (ValueId in : gin)
        recordShape(scope.path, g.value(in).name, vals[static_cast<size_t>(in)].dims, vals[static_cast<size_t>(in)].dtype);
    for (ValueId id : plan->initializers)
      if (!vals[static_cast<size_t>(id)].defined())
        vals[static_cast<size_t>(id)] = RtTensor::fromModelTensor(*g.value(id).initializer);

    ExecProfile* const profile = top ? opts_.profile : nullptr;
    ExecProfile* const bodyProfile = !top && scope.traced && !scope.path.empty() ? opts_.profile : nullptr;
    const auto loopStart = profile ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point{};
    // The timing bookkeeping of a body's nodes is outside their times but inside the run's: kept to an
    // index per node once the profile has the node's row (fwb profile starts each timed run from the
    // warm-up's rows). Building and hashing a key per node per run made Silero VAD's profiled runs
    // 30-60 us (25-40 %) slower than plain ones; with the index, 9-28 us.
    std::vector<size_t>* slots = nullptr;
    if (bodyProfile) {
      std::lock_guard<std::mutex> lock(traceMutex_);
      slots = &bodyProfile->bodySlots[scope.path];
      slots->resize(plan->order.size(), SIZE_MAX);
    }
    size_t position = 0;
    for (NodeId nid : plan->order) {
      const size_t pos = position++;
      if (opts_.cancel && opts_.cancel->load()) return Error::cancelled("execution cancelled");
      if (limits_.deadline > 0 && steadySeconds() > limits_.deadline)
        return Error::badInput("node '" + g.node(nid).name + "': the run exceeded its time limit of " +
                               std::to_string(opts_.timeLimitSeconds) + " s (--time-limit)");
      const Node& node = g.node(nid);
      const auto n = static_cast<size_t>(nid);
      if (!plan->skipped[n]) {
        const NodeId relu = plan->reluAfter[n];
        const Node* epilogue = relu == kNoId ? nullptr : &g.node(relu);
        if (profile) {
          const auto t0 = std::chrono::steady_clock::now();
          FW_TRY_STATUS(runNode(g, node, *plan, n, vals, scope, callerAttrs, top, epilogue));
          const auto t1 = std::chrono::steady_clock::now();
          profile->nodes.push_back({nid, std::chrono::duration<double, std::micro>(t0 - loopStart).count(),
                                    std::chrono::duration<double, std::micro>(t1 - t0).count()});
        } else if (bodyProfile) {
          const auto t0 = std::chrono::steady_clock::now();
          FW_TRY_STATUS(runNode(g, node, *plan, n, vals, scope, callerAttrs, top, epilogue));
          const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
          std::lock_guard<std::mutex> lock(traceMutex_);
          size_t& slot = (*slots)[pos];
          if (slot == SIZE_MAX) {
            const std::string key = scope.path + "\n" + node.name;
            auto [it, fresh] = bodyProfile->bodyIndex.try_emplace(key, bodyProfile->bodyNodes.size());
            if (fresh) bodyProfile->bodyNodes.push_back({scope.path, node.name, node.opType, node.domain, 0, 0});
            slot = it->second;
          }
          auto& bt = bodyProfile->bodyNodes[slot];
          bt.us += us;
          ++bt.calls;
        } else {
          FW_TRY_STATUS(runNode(g, node, *plan, n, vals, scope, callerAttrs, top, epilogue));
        }
      }
      for (int32_t k = plan->releaseStart[pos]; k < plan->releaseStart[pos + 1]; ++k)
        vals[static_cast<size_t>(plan->releaseIds[static_cast<size_t>(k)])] = RtTensor();
    }
    std::vector<RtTensor> outs;
    outs.reserve(g.outputs().size());
    for (ValueId o : g.outputs()) {
      const RtTensor* t = vals[static_cast<size_t>(o)].defined() ? &vals[static_cast<size_t>(o)]
                                                                 : (parent ? parent->lookup(g.value(o).name) : nullptr);
      if (!t) return Error::badInput("graph '" + g.name + "': output '" + g.value(o).name + "' was not computed");
      outs.push_back(*t);
    }
    return outs;
  }

 private:
  Result<const Plan*> planFor(const Graph& g, bool timedNodes) {
    const auto key = std::make_pair(&g, (timedNodes ? 1 : 0) | (opts_.keepIntermediates ? 2 : 0));
    std::lock_guard<std::mutex> lock(shared_ ? shared_->mu : planMutex_);
    auto& plans = shared_ ? shared_->plans : plans_;
    auto it = plans.find(key);
    if (it != plans.end()) return &it->second;
    Plan p;
    FW_ASSIGN_OR_RETURN(p.order, g.topoOrder());
    p.uses.assign(g.values().size(), 0);
    p.keepAlive.assign(g.values().size(), 0);
    std::unordered_set<std::string> outer;
    for (NodeId n : p.order) {
      for (ValueId v : g.node(n).inputs)
        if (v != kNoId) ++p.uses[static_cast<size_t>(v)];
      for (ValueId v : g.node(n).implicitInputs)
        if (v != kNoId) ++p.uses[static_cast<size_t>(v)];
      for (const auto& sg : g.node(n).subgraphs()) collectOuterRefs(*sg, outer);
    }
    for (ValueId o : g.outputs()) p.keepAlive[static_cast<size_t>(o)] = 1;
    for (const auto& name : outer) {
      const ValueId id = g.findValue(name);
      if (id != kNoId) p.keepAlive[static_cast<size_t>(id)] = 1;
    }
    const size_t nodeCount = g.nodes().size();
    p.reluAfter.assign(nodeCount, kNoId);
    p.skipped.assign(nodeCount, 0);
    p.splitAt.assign(nodeCount, -1);
    p.kernel.assign(nodeCount, nullptr);
    p.function.assign(nodeCount, -1);
    for (NodeId n : p.order) {
      const Node& node = g.node(n);
      if (isDefaultDomain(node.domain)) p.kernel[static_cast<size_t>(n)] = findKernel(node.opType);
      if (p.kernel[static_cast<size_t>(n)] || model_.functions.empty()) continue;
      if (functionIndex_.empty())
        for (size_t k = 0; k < model_.functions.size(); ++k)
          functionIndex_.try_emplace(model_.functions[k].domain + '\n' + model_.functions[k].name,
                                     static_cast<int32_t>(k));
      const auto f = functionIndex_.find(node.domain + '\n' + node.opType);
      if (f == functionIndex_.end()) continue;
      p.function[static_cast<size_t>(n)] = f->second;
      if (!p.callee) {
        p.callee = std::make_unique<std::atomic<const Plan*>[]>(nodeCount);
        for (size_t k = 0; k < nodeCount; ++k) p.callee[k].store(nullptr, std::memory_order_relaxed);
      }
    }
    for (const auto& v : g.values())
      if (v.initializer) p.initializers.push_back(v.id);
    // Each value's last reader in `order`; it is released after that node (skipped epilogues included, as
    // their inputs are read by the node that runs them).
    std::vector<int32_t> lastRead(g.values().size(), -1);
    for (size_t pos = 0; pos < p.order.size(); ++pos)
      for (const auto* list : {&g.node(p.order[pos]).inputs, &g.node(p.order[pos]).implicitInputs})
        for (ValueId v : *list)
          if (v != kNoId) lastRead[static_cast<size_t>(v)] = static_cast<int32_t>(pos);
    std::vector<std::vector<ValueId>> dies(p.order.size());
    for (const auto& v : g.values()) {
      const int32_t at = lastRead[static_cast<size_t>(v.id)];
      if (at >= 0 && !p.keepAlive[static_cast<size_t>(v.id)] && !v.initializer)
        dies[static_cast<size_t>(at)].push_back(v.id);
    }
    p.releaseStart.assign(1, 0);
    for (const auto& d : dies) {
      p.releaseIds.insert(p.releaseIds.end(), d.begin(), d.end());
      p.releaseStart.push_back(static_cast<int32_t>(p.releaseIds.size()));
    }
    // Relu epilogues, unless every computed value must be kept as it is (keepIntermediates) or every
    // node is timed on its own (profile).
    if (!opts_.keepIntermediates && !timedNodes) {
      auto kept = [&](ValueId v) {
        return p.keepAlive[static_cast<size_t>(v)] || p.uses[static_cast<size_t>(v)] != 1;
      };
      for (NodeId n : p.order) {
        const NodeId r = exec::reluEpilogueOf(g, n, kept);
        if (r == kNoId) continue;
        p.reluAfter[static_cast<size_t>(n)] = r;
        p.skipped[static_cast<size_t>(r)] = 1;
      }
      for (NodeId n : p.order) {
        auto e = exec::splitEpilogueOf(g, n, kept);
        if (!e) continue;
        p.splitAt[static_cast<size_t>(n)] = static_cast<int32_t>(p.splits.size());
        p.skipped[static_cast<size_t>(e->split)] = 1;
        p.splits.push_back(std::move(*e));
      }
    }
    return &plans.emplace(key, std::move(p)).first->second;
  }

  // `plan`, `n`: g's plan and the node's id. `relu`: the Relu node reading this node's only output
  // (Plan::reluAfter), computed here too; so is the Split of Plan::splitAt.
  Status runNode(const Graph& g, const Node& node, const Plan& plan, size_t n, std::vector<RtTensor>& vals,
                 const Scope& scope, const Attributes* callerAttrs, bool top, const Node* relu = nullptr) {
    const KernelFn kernel = plan.kernel[n];
    const int32_t function = plan.function[n];
    const SplitEpilogue* split =
        plan.splitAt[n] >= 0 ? &plan.splits[static_cast<size_t>(plan.splitAt[n])] : nullptr;
    std::vector<RtTensor> parts;  // the Split's outputs
    std::vector<const RtTensor*> in(node.inputs.size(), nullptr);
    for (size_t k = 0; k < node.inputs.size(); ++k) {
      const ValueId v = node.inputs[k];
      if (v == kNoId) continue;
      const RtTensor& t = vals[static_cast<size_t>(v)];
      if (t.defined()) {
        in[k] = &t;
        continue;
      }
      const Value& val = g.value(v);
      const RtTensor* o = val.isOuterRef() && scope.parent ? scope.parent->lookup(val.name) : nullptr;
      if (!o)
        return Error::badInput("node '" + node.name + "' (" + node.opType + "): input '" + val.name +
                               "' has no value");
      in[k] = o;
    }

    // Attributes of a function body may refer to the calling node's attributes.
    const Attributes* attrs = &node.attrs;
    Attributes resolved;
    if (callerAttrs) {
      bool anyRef = false;
      for (const auto& a : node.attrs.all()) anyRef |= !a.refAttrName.empty();
      if (anyRef) {
        for (const auto& a : node.attrs.all()) {
          if (a.refAttrName.empty()) {
            resolved.set(a);
          } else if (const Attribute* c = callerAttrs->find(a.refAttrName)) {
            Attribute copy = *c;
            copy.name = a.name;
            resolved.set(std::move(copy));
          }
        }
        attrs = &resolved;
      }
    }

    std::vector<RtTensor> outs;
    if (kernel) {
      OpContext ctx{node, *attrs, model_, opset_, std::move(in), {}, this, &scope};
      ctx.out.resize(node.outputs.size());
      ctx.fuseRelu = relu != nullptr;
      SplitEpilogue sized;  // split with the sizes this run's value holds
      if (split && split->sizes != kNoId) {
        const RtTensor& sv = vals[static_cast<size_t>(split->sizes)];
        if (sv.defined() && sv.store() == Store::I64) {
          sized = *split;
          sized.widths = sv.toInts();
          ctx.splitAfter = &sized;
        }
      } else {
        ctx.splitAfter = split;
      }
      Status st;
      try {
        st = kernel(ctx);
      } catch (const LimitExceeded& e) {
        return Error::badInput("node '" + node.name + "' (" + node.opType + "): " + e.what());
      } catch (const std::bad_alloc&) {
        return Error::badInput("node '" + node.name + "' (" + node.opType +
                               "): out of memory allocating its outputs (lower the input sizes or --max-memory)");
      } catch (const std::exception& e) {
        return Error::internal("node '" + node.name + "' (" + node.opType + "): " + e.what());
      }
      if (!st.ok()) return st;
      outs = std::move(ctx.out);
      if (relu && !ctx.reluApplied && !outs.empty() && outs[0].defined()) {
        // The kernel left it to us (not float, or a form without the epilogue): the Relu kernel.
        OpContext rc{*relu, relu->attrs, model_, opset_, {&outs[0]}, {}, this, &scope};
        rc.out.resize(1);
        FW_TRY_STATUS(findKernel("Relu")(rc));
        outs[0] = std::move(rc.out[0]);
      }
      parts = std::move(ctx.splitParts);
      if (split && parts.empty() && !outs.empty() && outs[0].defined()) {
        // The kernel left it to us (another axis, a batched product): the Split kernel on its output.
        const Node& sn = g.node(split->split);
        std::vector<const RtTensor*> sin{&outs[0]};
        for (size_t k = 1; k < sn.inputs.size(); ++k)
          sin.push_back(sn.inputs[k] == kNoId ? nullptr : &vals[static_cast<size_t>(sn.inputs[k])]);
        OpContext sc{sn, sn.attrs, model_, opset_, std::move(sin), {}, this, &scope};
        sc.out.resize(sn.outputs.size());
        const Status st2 = findKernel("Split")(sc);
        if (!st2.ok()) return st2;
        parts = std::move(sc.out);
      }
    } else if (function >= 0) {
      const Function* fn = &model_.functions[static_cast<size_t>(function)];
      if (!fn->body) return Error::badInput("function '" + fn->name + "' has no body");
      const Plan* bodyPlan = plan.callee[n].load(std::memory_order_acquire);
      if (!bodyPlan) {
        FW_ASSIGN_OR_RETURN(bodyPlan, planFor(*fn->body, false));
        plan.callee[n].store(bodyPlan, std::memory_order_release);
      }
      auto r = run(*fn->body, in, nullptr, attrs, false, scope.path, false, bodyPlan);
      if (!r.ok())
        return r.error().context("node '" + node.name + "' (function " +
                                 (node.domain.empty() ? "" : node.domain + ":") + node.opType + ")");
      outs = std::move(r).value();
    } else {
      const std::string dom = isDefaultDomain(node.domain) ? "" : node.domain + ":";
      return Error::badInput("unsupported op '" + dom + node.opType + "' at node '" + node.name +
                             "': the reference executor does not implement it");
    }

    if (split && !parts.empty()) {
      // The producer's output is read by the Split only, which is done: only the parts are stored.
      const Node& sn = g.node(split->split);
      if (parts.size() != sn.outputs.size())
        return Error::internal("node '" + node.name + "' (" + node.opType + "): its Split epilogue made " +
                               std::to_string(parts.size()) + " parts for " +
                               std::to_string(sn.outputs.size()) + " outputs");
      const bool shapes = opts_.trace && opts_.trace->recordShapes && scope.traced;
      if (shapes) {
        std::vector<int64_t> whole = parts[0].dims;
        if (!outs.empty() && outs[0].defined()) {
          whole = outs[0].dims;
        } else if (!whole.empty()) {
          whole.back() = 0;
          for (const auto& t : parts) whole.back() += t.dims.empty() ? 0 : t.dims.back();
        }
        recordShape(scope.path, g.value(node.outputs[0]).name, whole, parts[0].dtype);
      }
      for (size_t k = 0; k < parts.size(); ++k) {
        const ValueId so = sn.outputs[k];
        if (shapes) recordShape(scope.path, g.value(so).name, parts[k].dims, parts[k].dtype);
        vals[static_cast<size_t>(so)] = std::move(parts[k]);
      }
      return {};
    }
    for (size_t k = 0; k < node.outputs.size(); ++k) {
      const ValueId o = node.outputs[k];
      if (o == kNoId) continue;
      if (k >= outs.size() || !outs[k].defined())
        return Error::badInput("node '" + node.name + "' (" + node.opType + "): output " + std::to_string(k) +
                               " ('" + g.value(o).name + "') is not supported by the reference executor");
      if (top && opts_.keepIntermediates && outs[k].isTensor()) intermediates[g.value(o).name] = outs[k].toTensor();
      if (opts_.trace && opts_.trace->recordShapes && scope.traced) recordShape(scope.path, g.value(o).name, outs[k].dims, outs[k].dtype);
      if (relu && k == 0) {
        // The producer's own output is read by the Relu only, which is done: both names hold the
        // Relu's result (the producer's value is released when the skipped Relu's turn comes).
        const ValueId ro = relu->outputs[0];
        if (opts_.trace && opts_.trace->recordShapes && scope.traced) recordShape(scope.path, g.value(ro).name, outs[k].dims, outs[k].dtype);
        vals[static_cast<size_t>(ro)] = outs[k];
      }
      vals[static_cast<size_t>(o)] = std::move(outs[k]);
    }
    return {};
  }

  void recordShape(const std::string& path, const std::string& name, const std::vector<int64_t>& dims, DType dtype) {
    std::lock_guard<std::mutex> lock(traceMutex_);
    opts_.trace->dtypes[ExecTrace::key(path, name)] = dtype;
    auto [it, fresh] = opts_.trace->shapes.try_emplace(ExecTrace::key(path, name), dims);
    if (!fresh && it->second != dims) {
      opts_.trace->varying.insert(it->first);
      it->second = dims;
    }
    ExecTrace::DimSums& acc = opts_.trace->dimSums[it->first];
    if (acc.count == 0) acc.sum.assign(dims.size(), 0.0);
    if (acc.sum.size() != dims.size()) {
      acc.sameRank = false;
    } else {
      for (size_t d = 0; d < dims.size(); ++d) acc.sum[d] += static_cast<double>(dims[d]);
      ++acc.count;
    }
  }

 public:
  void recordControlFlow(const Scope& scope, const Node& node, int branch, int64_t trips) {
    if (!opts_.trace || !scope.traced) return;
    std::lock_guard<std::mutex> lock(traceMutex_);
    auto& cf = opts_.trace->controlFlow[scope.path.empty() ? node.name : scope.path + "/" + node.name];
    cf.opType = node.opType;
    ++cf.runs;
    if (branch == 1) ++cf.thenRuns;
    if (branch == 0) ++cf.elseRuns;
    cf.trips += trips;
  }

 private:
  // A frame from the interpreter's free frames (or a new one) for one graph run, cleared and given
  // back when the run ends.
  class FrameLease {
   public:
    FrameLease(Interpreter& in, size_t values) : in_(in) {
      if (in_.frames_.empty()) {
        frame_ = std::make_unique<Frame>();
      } else {
        frame_ = std::move(in_.frames_.back());
        in_.frames_.pop_back();
      }
      frame_->vals.resize(values);
    }
    ~FrameLease() {
      frame_->vals.clear();
      in_.frames_.push_back(std::move(frame_));
    }
    FrameLease(const FrameLease&) = delete;
    FrameLease& operator=(const FrameLease&) = delete;
    Frame* operator->() { return frame_.get(); }

   private:
    Interpreter& in_;
    std::unique_ptr<Frame> frame_;
  };

  const Model& model_;
  const ExecOptions& opts_;
  int64_t opset_;
  RunLimits limits_;
  std::mutex traceMutex_;
  RunPlans* const shared_;  // opts.plans when it serves this model
  std::mutex planMutex_;
  std::map<std::pair<const Graph*, int>, Plan> plans_;
  std::vector<std::unique_ptr<Frame>> frames_;  // free frames (FrameLease)
  // model_'s functions by domain + '\n' + name, the first of each (Model::findFunction's choice); made
  // by the first plan that calls one (under the plans' lock)
  std::unordered_map<std::string, int32_t> functionIndex_;
};

Result<std::vector<RtTensor>> runSubgraph(OpContext& ctx, const Graph& g, const std::vector<RtTensor>& inputs,
                                          const std::string& attr) {
  const auto* scope = static_cast<const Scope*>(ctx.scope);
  std::string path = (scope->path.empty() ? "" : scope->path + "/") + ctx.node.name + "/" + attr;
  return ctx.interp->run(g, inputs, scope, nullptr, false, std::move(path), scope->traced);
}

void traceControlFlow(OpContext& ctx, int branch, int64_t trips) {
  ctx.interp->recordControlFlow(*static_cast<const Scope*>(ctx.scope), ctx.node, branch, trips);
}

}  // namespace exec

namespace {

RunValue toRunValue(const exec::RtTensor& t) {
  RunValue v;
  if (t.isTensor()) return RunValue::of(t.toTensor());
  v.kind = t.isSequence() ? RunValue::Kind::Sequence : RunValue::Kind::None;
  v.elemType = t.dtype;
  for (const auto& e : t.items()) v.items.push_back(e.toTensor());
  return v;
}

exec::RtTensor fromRunValue(const RunValue& v) {
  switch (v.kind) {
    case RunValue::Kind::Tensor:
      return v.tensor.dtype() == DType::Undefined ? exec::RtTensor() : exec::RtTensor::fromTensor(v.tensor);
    case RunValue::Kind::None: return exec::RtTensor::none(v.elemType);
    case RunValue::Kind::Sequence: {
      std::vector<exec::RtTensor> items;
      for (const auto& t : v.items) items.push_back(exec::RtTensor::fromTensor(t));
      return exec::RtTensor::sequence(v.elemType, std::move(items));
    }
  }
  return {};
}

// `values`: when set, the outputs go there (sequences and optionals kept) instead of RunResult::outputs.
Result<RunResult> runImpl(const Model& model, const std::vector<exec::RtTensor>& inputs, const ExecOptions& opts,
                          std::vector<RunValue>* values = nullptr) {
  if (!model.graph) return Error::badInput("model has no graph");
  exec::ThreadBudget budget(opts.threads);  // for this thread's kernels; other callers keep theirs
  // Memory planning (MemoryPlan.h): the first run on these input shapes records, later ones follow
  // the plan made from that record.
  std::string planKey;
  std::shared_ptr<exec::BufferPool> pool;
  if (opts.reuseBuffers) {
    std::vector<std::vector<int64_t>> dims;
    for (const auto& t : inputs) dims.push_back(t.defined() ? t.dims : std::vector<int64_t>{-1});
    planKey = exec::arenaKey(model.graph.get(), dims);
    pool = std::make_shared<exec::BufferPool>(exec::checkOutPlan(planKey));
  }
  exec::Interpreter interp(model, opts, pool.get());
  RunResult out;
  {
    exec::LimitScope limits(interp.limits());
    auto r = interp.run(*model.graph, inputs, nullptr, nullptr, true);
    if (!r.ok()) return r.error();  // the plan (if any) is dropped: the next run records anew
    for (const auto& t : *r) {
      if (values) {
        values->push_back(toRunValue(t));
      } else if (!t.isTensor()) {
        return Error::badInput("a graph output is a " + std::string(t.isSequence() ? "sequence" : "empty optional") +
                               ", not a tensor (run it with runGraphValues)");
      } else {
        out.outputs.push_back(t.toTensor());
      }
    }
  }
  out.intermediates = std::move(interp.intermediates);
  if (pool && pool->outstanding() == 0) {
    std::shared_ptr<exec::ArenaPlan> plan;
    if (pool->planned()) {
      if (pool->followedPlan()) plan = pool->plan();
    } else if (const auto lives = pool->lives(); lives.size() <= 200000) {
      plan = std::make_shared<exec::ArenaPlan>(exec::planArena(lives));
      malloc_trim(0);  // give the recording run's freed heap back: later runs live in the arena
    }
    if (opts.stats) {
      opts.stats->livePeakBytes = pool->livePeak();
      opts.stats->reservedPeakBytes = pool->planned() && plan ? static_cast<int64_t>(plan->bytes) : pool->livePeak();
      opts.stats->plannedBytes = plan ? static_cast<int64_t>(plan->bytes) : 0;
      opts.stats->allocations = pool->allocations();
      opts.stats->planned = pool->planned() && plan != nullptr;
    }
    if (plan) exec::returnPlan(planKey, std::move(plan));
  }
  return out;
}

}  // namespace

namespace {
// A graph to run, given `n` inputs in graph-input order.
Status checkRunnable(const Model& model, size_t n) {
  if (!model.graph) return Error::badInput("model has no graph");
  const size_t want = model.graph->inputs().size();
  if (n != want) return Error::badInput("model expects " + std::to_string(want) + " inputs, got " + std::to_string(n));
  return Status::okStatus();
}
}  // namespace

Result<std::vector<Tensor>> runGraph(const Model& model, const std::vector<Tensor>& inputs, const ExecOptions& opts) {
  FW_TRY_STATUS(checkRunnable(model, inputs.size()));
  const auto& gin = model.graph->inputs();
  std::vector<exec::RtTensor> rt;
  for (size_t k = 0; k < inputs.size(); ++k) {
    if (inputs[k].dtype() == DType::Undefined && !model.graph->value(gin[k]).initializer)
      return Error::badInput("input '" + model.graph->value(gin[k]).name + "' is empty");
    rt.push_back(inputs[k].dtype() == DType::Undefined ? exec::RtTensor() : exec::RtTensor::fromTensor(inputs[k]));
  }
  auto r = runImpl(model, rt, opts);
  if (!r.ok()) return r.error();
  return std::move(r->outputs);
}

Result<std::vector<RunValue>> runGraphValues(const Model& model, const std::vector<RunValue>& inputs,
                                             const ExecOptions& opts) {
  FW_TRY_STATUS(checkRunnable(model, inputs.size()));
  std::vector<exec::RtTensor> rt;
  for (const auto& v : inputs) rt.push_back(fromRunValue(v));
  std::vector<RunValue> out;
  auto r = runImpl(model, rt, opts, &out);
  if (!r.ok()) return r.error();
  return out;
}

Result<RunResult> runGraphNamed(const Model& model, const std::map<std::string, Tensor>& inputs,
                                const ExecOptions& opts) {
  if (!model.graph) return Error::badInput("model has no graph");
  const Graph& g = *model.graph;
  std::set<std::string> known;
  std::vector<exec::RtTensor> rt;
  for (ValueId id : g.inputs()) {
    const Value& v = g.value(id);
    known.insert(v.name);
    auto it = inputs.find(v.name);
    if (it != inputs.end()) {
      rt.push_back(exec::RtTensor::fromTensor(it->second));
    } else if (v.initializer) {
      rt.emplace_back();
    } else {
      return Error::badInput("no value given for graph input '" + v.name + "'");
    }
  }
  for (const auto& [name, t] : inputs)
    if (!known.count(name)) return Error::badInput("'" + name + "' is not a graph input");
  return runImpl(model, rt, opts);
}



IdleArenaLimit::IdleArenaLimit(size_t plans) : previous_(exec::setIdlePlanLimit(plans)) {}
IdleArenaLimit::~IdleArenaLimit() { exec::setIdlePlanLimit(previous_); }

}  // namespace fw
