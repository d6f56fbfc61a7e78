#pragma once
// A progress callback for work on another thread (fw::tune, fw::compareChips): each call is queued to
// the GUI thread and updates a bar (fraction 0..1 of its maximum) and a label, and does nothing once
// they are gone (the dialog was closed while the work ran on).
#include <QApplication>
#include <QLabel>
#include <QPointer>
#include <QProgressBar>
#include <functional>
#include <string>

namespace fwui {

inline std::function<void(double, const std::string&)> progressRelay(QProgressBar* bar, QLabel* label) {
  QPointer<QProgressBar> b(bar);
  QPointer<QLabel> l(label);
  return [b, l](double fraction, const std::string& line) {
    const QString text = QString::fromStdString(line);
    QMetaObject::invokeMethod(
        qApp,
        [b, l, fraction, text] {
          if (b) b->setValue(static_cast<int>(fraction * b->maximum()));
          if (l) l->setText(text);
        },
        Qt::QueuedConnection);
  };
}

}  // namespace fwui
