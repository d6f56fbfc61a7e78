// fusion-workbench [MODEL] [--model M] [--opt-level L] [--hw NAME] [--batch N] [--input-shape NAME=d0,d1,...]
//                  [--screenshot FILE.png] [--timing-csv FILE.csv] [--expand GROUP]...
#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <functional>

#include "core/exec/Executor.h"
#include "core/util/FileUtil.h"
#include "ui/MainWindow.h"
#include "ui/models/TimingTableModel.h"

int main(int argc, char** argv) {
  fw::setProcessEnvironment(argv);
  fw::tuneAllocatorForTensors();
  QApplication app(argc, argv);
  QApplication::setOrganizationName("FusionWorkbench");
  QApplication::setApplicationName("fusion-workbench");
  QCommandLineParser parser;
  parser.setApplicationDescription("Fusion Workbench: inspect, fuse and simulate ONNX models for NPUs");
  parser.addHelpOption();
  parser.addPositionalArgument("model", "ONNX file or zoo:NAME (default zoo:resnet50)");
  QCommandLineOption modelOpt("model", "model to open", "MODEL");
  QCommandLineOption levelOpt("opt-level", "fusion level 0-3", "L");
  QCommandLineOption hwOpt("hw", "hardware profile name or JSON file", "NAME");
  QCommandLineOption batchOpt("batch", "batch size", "N");
  QCommandLineOption shotOpt("screenshot", "open, compute, save a screenshot of the window and exit", "FILE.png");
  QCommandLineOption csvOpt("timing-csv", "with --screenshot: also write the timing table as shown", "FILE.csv");
  QCommandLineOption shapeOpt("input-shape", "NAME=d0,d1,... for a graph input or SYMBOL=N; repeatable", "SHAPE");
  QCommandLineOption expandOpt("expand",
                               "once the views are drawn, open this folded group in both views (a/b opens a, then b "
                               "inside it), as a double-click would; repeatable",
                               "GROUP");
  parser.addOptions({modelOpt, levelOpt, hwOpt, batchOpt, shotOpt, csvOpt, shapeOpt, expandOpt});
  parser.process(app);

  QString spec = parser.value(modelOpt);
  if (spec.isEmpty() && !parser.positionalArguments().isEmpty()) spec = parser.positionalArguments().front();
  if (spec.isEmpty()) spec = "zoo:resnet50";

  fwui::MainWindow w;
  bool ok = true;
  if (parser.isSet(levelOpt)) {
    const int l = parser.value(levelOpt).toInt(&ok);
    if (!ok || l < 0 || l > 3) {
      std::fprintf(stderr, "fusion-workbench: error: --opt-level must be 0..3\n");
      return 2;
    }
    w.setOptLevel(l);
  }
  if (parser.isSet(hwOpt)) w.setHardware(parser.value(hwOpt));
  if (parser.isSet(batchOpt)) {
    const int b = parser.value(batchOpt).toInt(&ok);
    if (!ok || b < 1) {
      std::fprintf(stderr, "fusion-workbench: error: --batch must be a positive integer\n");
      return 2;
    }
    w.setBatch(b);
  }
  // --expand: applied once, when the views are first drawn; the views are ready again when they are open.
  QStringList expands = parser.values(expandOpt);
  bool expandsApplied = expands.isEmpty();
  auto expandsPending = [&]() {
    if (expandsApplied) return false;
    expandsApplied = true;
    for (const auto& g : expands) {
      const QString err = w.expandGroup(g);
      if (!err.isEmpty()) {
        std::fprintf(stderr, "fusion-workbench: error: --expand: %s\n", qPrintable(err));
        app.exit(2);
        return true;
      }
    }
    return w.isBusy();
  };
  if (!expands.isEmpty() && parser.value(shotOpt).isEmpty())
    QObject::connect(&w, &fwui::MainWindow::viewsReady, &app, [&]() { expandsPending(); });
  const QString shot = parser.value(shotOpt);
  const QString csv = parser.value(csvOpt);
  if (!csv.isEmpty() && shot.isEmpty()) {
    std::fprintf(stderr, "fusion-workbench: error: --timing-csv needs --screenshot (it is written when the window is ready)\n");
    return 2;
  }
  // Everything the screenshot mode's connections use lives until app.exec() returns.
  QElapsedTimer clock;
  qint64 lastTick = -1, worstGap = 0;
  QTimer tick;
  bool armed = false;
  std::function<void()> save, saveWhenProved;
  if (!shot.isEmpty()) {
    w.setQuietErrors(true);
    // How responsive the window stayed while the model loaded, fused, simulated and was drawn: the
    // longest time between two ticks of a 10 ms timer, from the first tick to the picture.
    tick.setInterval(10);
    QObject::connect(&tick, &QTimer::timeout, &app, [&]() {
      const qint64 now = clock.elapsed();
      if (lastTick >= 0) worstGap = std::max(worstGap, now - lastTick);
      lastTick = now;
    });
    clock.start();
    tick.start();
    save = [&]() {
      QTimer::singleShot(500, &app, [&]() {
        tick.stop();
        std::fprintf(stderr, "fusion-workbench: longest event-loop gap %lld ms (from start to the picture)\n",
                     static_cast<long long>(worstGap));
        const bool saved = w.grab().save(shot);
        std::fprintf(stderr, saved ? "saved %s\n" : "could not save %s\n", qPrintable(shot));
        bool csvOk = true;
        if (saved && !csv.isEmpty()) {
          auto st = fw::writeFileAtomic(csv.toStdString(), w.timingModel()->toCsv().toStdString());
          csvOk = st.ok();
          if (!csvOk) std::fprintf(stderr, "fusion-workbench: error: %s\n", st.error().message.c_str());
        }
        app.exit(saved && csvOk ? 0 : 3);
      });
    };
    // The picture shows the proof too: when a verification is under way (small models are verified
    // automatically), it is taken once that has ended, or after 3 s showing "verifying…".
    saveWhenProved = [&]() {
      if (armed) return;
      if (w.proofState() == fwui::MainWindow::Proof::Running) {
        auto shoot = [&armed, &save]() {
          if (!armed) {
            armed = true;
            save();
          }
        };
        QObject::connect(&w, &fwui::MainWindow::proofFinished, &app, [&, shoot]() {
          if (w.proofState() != fwui::MainWindow::Proof::Running) shoot();
        });
        QTimer::singleShot(3000, &app, shoot);
        return;
      }
      armed = true;
      save();
    };
    QObject::connect(&w, &fwui::MainWindow::viewsReady, &app, [&]() {
      if (expandsPending()) return;
      saveWhenProved();
    });
    QObject::connect(&w, &fwui::MainWindow::loadFailed, &app, [&](const QString& msg) {
      std::fprintf(stderr, "fusion-workbench: error: %s\n", qPrintable(msg));
      app.exit(2);
    });
    QObject::connect(&w, &fwui::MainWindow::analysisFailed, &app, [&](const QString& msg) {
      std::fprintf(stderr, "fusion-workbench: error: %s\n", qPrintable(msg));
      app.exit(2);
    });
  }
  if (parser.isSet(shapeOpt)) {
    const QString err = w.setInputShapes(parser.values(shapeOpt));
    if (!err.isEmpty()) {
      std::fprintf(stderr, "fusion-workbench: error: %s\n", qPrintable(err));
      return 2;
    }
  }
  w.show();
  w.openModel(spec);
  return app.exec();
}
