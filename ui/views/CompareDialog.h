#pragma once
// "Compare chips…": the current model fused for each checked hardware profile (fw::compareChips),
// off the GUI thread with Cancel: every plan simulated on every chip, the fusion decisions and the
// kernels that differ.
#include <QDialog>
#include <QFutureWatcher>
#include <atomic>
#include <memory>

#include "ui/analysis/Compare.h"

class QCheckBox;
class QListWidget;
class QProgressBar;
class QPushButton;
class QTextBrowser;
class QLabel;

namespace fwui {

struct CompareOutcome {
  std::shared_ptr<fw::CompareResult> result;
  QString error;
  bool cancelled = false;  // the failure is a cancel (fw::ErrorCode::Cancelled)
};

class CompareDialog : public QDialog {
  Q_OBJECT
 public:
  // `profiles`: names to offer; `checked`: those checked at first.
  CompareDialog(fw::Model model, fw::AnalysisOptions base, const QStringList& profiles, const QStringList& checked,
                QWidget* parent = nullptr);
  ~CompareDialog() override;
  void run();
  void cancel();
  bool isRunning() const;
  QStringList checkedProfiles() const;
  void setChecked(const QStringList& names);
  const fw::CompareResult* result() const { return result_.get(); }
  QTextBrowser* resultView() const { return text_; }
  QLabel* statusLabel() const { return status_; }

 signals:
  void finished(bool ok);

 private:
  void onFinished();
  fw::Model model_;
  fw::AnalysisOptions base_;
  QListWidget* list_ = nullptr;
  QCheckBox* tune_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QLabel* status_ = nullptr;
  QTextBrowser* text_ = nullptr;
  QPushButton* runBtn_ = nullptr;
  QPushButton* cancelBtn_ = nullptr;
  QFutureWatcher<CompareOutcome>* watcher_ = nullptr;
  std::shared_ptr<std::atomic<bool>> cancel_;
  std::shared_ptr<fw::CompareResult> result_;
};

}  // namespace fwui
