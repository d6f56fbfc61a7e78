// How long the GUI takes to refresh both graph views and the tables after a change, on BERT-base
// (12 layers, seq 128). Issue target: a level or rule switch refreshes in under 2 s on this machine.
// Runs the real MainWindow offscreen; prints one line per change with the wall time measured.
#include <QApplication>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QThread>
#include <QTreeWidgetItem>
#include <cstdio>

#include "ui/MainWindow.h"
#include "ui/views/RulesPanel.h"

int main(int argc, char** argv) {
  qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  QApplication::setOrganizationName("FusionWorkbenchBench");
  const QString spec = argc > 1 ? argv[1] : "zoo:bert";
  fwui::MainWindow w;
  w.setQuietErrors(true);
  w.resize(1600, 1000);
  w.show();
  QSignalSpy ready(&w, &fwui::MainWindow::viewsReady);
  QElapsedTimer t;
  auto waitReady = [&](const char* what) {
    ready.clear();
    t.restart();
    if (!ready.wait(300000)) {
      std::fprintf(stderr, "timed out: %s\n", what);
      std::exit(3);
    }
    const double s = t.elapsed() / 1000.0;
    std::printf("%-44s %7.2f s   (%zu kernels)\n", what, s, w.analysis() ? w.analysis()->fused.kernels.size() : 0);
    return s;
  };
  w.setOptLevel(2);
  t.restart();
  w.openModel(spec);
  waitReady("open + fuse + simulate + layout (-O2)");
  double worst = 0;
  w.setOptLevel(1);
  worst = std::max(worst, waitReady("switch -O2 -> -O1"));
  w.setOptLevel(2);
  worst = std::max(worst, waitReady("switch -O1 -> -O2"));
  if (auto* item = w.rulesPanel()->itemForRule("gelu_fusion")) {
    item->setCheckState(0, Qt::Unchecked);
    worst = std::max(worst, waitReady("disable rule gelu_fusion"));
    item->setCheckState(0, Qt::Checked);
    worst = std::max(worst, waitReady("enable rule gelu_fusion"));
  }
  std::printf("model %s: slowest refresh %.2f s (target < 2 s) on %d cores\n", qPrintable(spec), worst,
              QThread::idealThreadCount());
  return 0;
}
