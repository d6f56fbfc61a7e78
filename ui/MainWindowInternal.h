#pragma once
// Internal to the MainWindow*.cpp files: constants and small helpers they share, and the background
// jobs (MainWindowJobs.cpp) the window starts.
#include <QString>
#include <memory>
#include <string>

#include "ui/MainWindow.h"

namespace fwui {

// Boxes a big graph's first picture shows (collapsed groups); its layout takes well under a second.
constexpr size_t kOverviewBoxes = 60;
constexpr int kResizeSampleRows = 100;  // rows measured when fitting table columns to their contents

inline QString html(const std::string& s) { return QString::fromStdString(s).toHtmlEscaped(); }
// 1.5 KB, 12.3 MB (decimal units, as the simulator's tables print them).
inline QString humanBytes(double b) {
  const char* units[] = {"B", "KB", "MB", "GB", "TB"};
  int u = 0;
  while (b >= 1000 && u < 4) {
    b /= 1000;
    ++u;
  }
  return QString::number(b, 'f', u ? 1 : 0) + " " + units[u];
}

// Loads and validates a model source (core/io/Prepare.h: loadChecked), with its hierarchy.
LoadOutcome loadInBackground(const std::string& spec, int batch);
// Binds (unless `prepared` is given), fuses and simulates (reusing `before` when given), and derives
// what the widgets show, off the GUI thread.
AnalysisOutcome analyzeInBackground(std::shared_ptr<const LoadedModel> loaded, std::shared_ptr<const fw::PreparedModel> prepared,
                                    std::shared_ptr<const fw::sim::SimResult> before, QString beforeKey,
                                    fw::AnalysisOptions opts, QStringList shapeText,
                                    std::shared_ptr<std::atomic<bool>> cancel,
                                    std::shared_ptr<const fw::sim::MeasuredRun> measured = nullptr);

}  // namespace fwui
