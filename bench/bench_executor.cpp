// Reference executor speed: ResNet-50 (zoo, batch 1) end to end, median of N runs, and the GFLOP/s
// reached (FLOPs from core/ir/OpCost.h: one multiply-add = 2 FLOPs). Target: < 0.5 s on 2 cores.
//   bench_executor [MODEL_SPEC=zoo:resnet50] [RUNS=7] [THREADS=0]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include <sys/resource.h>

#include "core/exec/Executor.h"
#include "core/io/ModelSource.h"
#include "core/ir/OpCost.h"

namespace {
// Process CPU time (all threads): on a machine shared with other work, wall time overstates the cost.
double cpuSeconds() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
         1e-6 * static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
}
}  // namespace

int main(int argc, char** argv) {
  const std::string spec = argc > 1 ? argv[1] : "zoo:resnet50";
  const int runs = argc > 2 ? std::max(1, std::atoi(argv[2])) : 7;
  const int threads = argc > 3 ? std::atoi(argv[3]) : 0;
  auto model = fw::loadModel(spec);
  if (!model.ok()) {
    std::fprintf(stderr, "bench_executor: %s\n", model.error().message.c_str());
    return 2;
  }
  double flops = 0;
  for (fw::NodeId id : model->graph->liveNodes()) flops += fw::nodeCost(*model->graph, id).flops;
  auto inputs = fw::randomInputs(*model, 1);
  if (!inputs.ok()) {
    std::fprintf(stderr, "bench_executor: %s\n", inputs.error().message.c_str());
    return 2;
  }
  fw::ExecOptions opts;
  opts.threads = threads;
  std::vector<double> secs, cpu;
  for (int k = 0; k < runs + 1; ++k) {  // the first run warms caches and is not counted
    const auto t0 = std::chrono::steady_clock::now();
    const double c0 = cpuSeconds();
    auto r = fw::runGraph(*model, *inputs, opts);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!r.ok()) {
      std::fprintf(stderr, "bench_executor: %s\n", r.error().message.c_str());
      return 3;
    }
    if (k > 0) {
      secs.push_back(s);
      cpu.push_back(cpuSeconds() - c0);
    }
  }
  std::sort(secs.begin(), secs.end());
  std::sort(cpu.begin(), cpu.end());
  const double median = secs[secs.size() / 2];
  std::printf("%-22s %8s %8s %12s %12s %12s %10s %10s\n", "model", "threads", "runs", "median s", "min s", "cpu s/run",
              "GFLOP", "GFLOP/s");
  std::printf("%-22s %8d %8d %12.4f %12.4f %12.4f %10.2f %10.2f\n", spec.c_str(),
              threads > 0 ? threads : static_cast<int>(std::thread::hardware_concurrency()), runs, median, secs.front(), cpu[cpu.size() / 2],
              flops / 1e9, flops / 1e9 / median);
  double load[1] = {0};
  if (getloadavg(load, 1) == 1) std::printf("machine load average %.2f on %d cores\n", load[0], static_cast<int>(std::thread::hardware_concurrency()));
  std::printf("target: < 0.5 s per batch-1 run -> %s\n", median < 0.5 ? "met" : "NOT met");
  return 0;
}
