#pragma once
// One QApplication per test process, offscreen, whose QSettings live in a directory of this process
// alone: ctest runs the GUI tests as parallel processes, and a shared ~/.config (or an unwritable one
// on a CI runner) would let one test's settings vanish under another.
#include <QApplication>
#include <QSettings>
#include <QTemporaryDir>

namespace fwtest {

// The directory this process's QSettings live in.
inline QString testSettingsDir() {
  static QTemporaryDir dir;  // removed at exit
  return dir.path();
}

inline QApplication& testApp() {
  static int argc = 1;
  static char name[] = "fw_ui_tests";
  static char* argv[] = {name, nullptr};
  static QApplication* a = [] {
    if (QApplication::instance()) return static_cast<QApplication*>(QApplication::instance());
    qputenv("QT_QPA_PLATFORM", "offscreen");
    auto* x = new QApplication(argc, argv);
    QApplication::setOrganizationName("FusionWorkbenchTests");
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, testSettingsDir());
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, testSettingsDir());
    return x;
  }();
  return *a;
}

}  // namespace fwtest
