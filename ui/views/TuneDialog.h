#pragma once
// "Tune fusion…": runs the auto-tuner (fw::tune) on the current model and chip off the GUI thread,
// with a progress bar and Cancel; shows the table of the best candidates and what changed; Apply
// hands the winning options to the window, Save writes them as a fusion config (`--config`).
#include <QDialog>
#include <QFutureWatcher>
#include <atomic>
#include <memory>

#include "ui/analysis/Tuner.h"

class QDoubleSpinBox;
class QComboBox;
class QProgressBar;
class QPushButton;
class QTextBrowser;
class QLabel;

namespace fwui {

struct TuneOutcome {
  std::shared_ptr<fw::TuneResult> result;  // null on failure
  QString error;
};

class TuneDialog : public QDialog {
  Q_OBJECT
 public:
  TuneDialog(fw::Model model, fw::AnalysisOptions start, QWidget* parent = nullptr);
  ~TuneDialog() override;

  void start();   // the Start button
  void cancel();  // the Cancel button
  bool isRunning() const;
  const fw::TuneResult* result() const { return result_.get(); }
  // For tests: cap the evaluations so the search does not depend on the machine's speed.
  void setMaxEvaluations(int n) { maxEvaluations_ = n; }
  QDoubleSpinBox* budgetBox() const { return budget_; }
  QComboBox* objectiveBox() const { return objective_; }
  QProgressBar* progressBar() const { return progress_; }
  QTextBrowser* resultView() const { return text_; }
  QPushButton* applyButton() const { return apply_; }
  QPushButton* saveButton() const { return save_; }
  QPushButton* cancelButton() const { return cancelBtn_; }
  // Writes the winner as a fusion config; returns an error message or empty.
  QString saveConfig(const QString& path) const;

 signals:
  void finished(bool ok);
  void applied(const fw::fusion::FusionOptions& options);

 private:
  void onFinished();
  fw::Model model_;
  fw::AnalysisOptions start_;
  int maxEvaluations_ = 0;
  QDoubleSpinBox* budget_ = nullptr;
  QComboBox* objective_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QLabel* status_ = nullptr;
  QTextBrowser* text_ = nullptr;
  QPushButton* startBtn_ = nullptr;
  QPushButton* cancelBtn_ = nullptr;
  QPushButton* apply_ = nullptr;
  QPushButton* save_ = nullptr;
  QFutureWatcher<TuneOutcome>* watcher_ = nullptr;
  std::shared_ptr<std::atomic<bool>> cancel_;
  std::shared_ptr<fw::TuneResult> result_;
};

}  // namespace fwui
