// fusion-workbench [MODEL] [--model M] [--screenshot FILE.png]
#include <QApplication>
#include <QCommandLineParser>
#include <QScreen>
#include <QTimer>
#include <cstdio>

#include "ui/MainWindow.h"

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QApplication::setOrganizationName("FusionWorkbench");
  QApplication::setApplicationName("fusion-workbench");
  QCommandLineParser parser;
  parser.setApplicationDescription("Fusion Workbench: inspect, fuse and simulate ONNX models for NPUs");
  parser.addHelpOption();
  parser.addPositionalArgument("model", "ONNX file or zoo:NAME (default zoo:resnet50)");
  QCommandLineOption modelOpt("model", "model to open", "MODEL");
  QCommandLineOption shotOpt("screenshot", "open, compute, save a screenshot of the window and exit", "FILE.png");
  parser.addOption(modelOpt);
  parser.addOption(shotOpt);
  parser.process(app);

  QString spec = parser.value(modelOpt);
  if (spec.isEmpty() && !parser.positionalArguments().isEmpty()) spec = parser.positionalArguments().front();
  if (spec.isEmpty()) spec = "zoo:resnet50";

  fwui::MainWindow w;
  const QString shot = parser.value(shotOpt);
  if (!shot.isEmpty()) {
    w.setQuietErrors(true);
    QObject::connect(&w, &fwui::MainWindow::modelLoaded, &app, [&]() {
      QTimer::singleShot(300, &app, [&]() {
        const bool ok = w.grab().save(shot);
        std::fprintf(stderr, ok ? "saved %s\n" : "could not save %s\n", qPrintable(shot));
        app.exit(ok ? 0 : 3);
      });
    });
    QObject::connect(&w, &fwui::MainWindow::loadFailed, &app, [&](const QString& msg) {
      std::fprintf(stderr, "fusion-workbench: error: %s\n", qPrintable(msg));
      app.exit(2);
    });
  }
  w.show();
  w.openModel(spec);
  return app.exec();
}
