#pragma once
// The workbench window: open a model (file, drag and drop, recent files, zoo), list its nodes and
// inspect one. Loading runs off the GUI thread; a failed load shows an error and keeps the model shown.
#include <QFutureWatcher>
#include <QMainWindow>
#include <memory>

#include "core/io/ModelInfo.h"
#include "core/ir/Model.h"
#include "core/util/Result.h"

class QLabel;
class QTableView;
class QTextBrowser;
class QSortFilterProxyModel;
class QLineEdit;
class QMenu;
class QProgressBar;

namespace fwui {

class NodeTableModel;

struct LoadedModel {
  fw::Model model;
  fw::ModelInfo info;
};

// What a background load hands back (QFuture needs a default-constructible type).
struct LoadOutcome {
  std::shared_ptr<LoadedModel> loaded;  // null on failure
  QString error;
};

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  // Starts loading `spec` (path or zoo:NAME). Emits modelLoaded or loadFailed when done.
  void openModel(const QString& spec);
  bool hasModel() const { return current_ != nullptr; }
  const fw::Model* model() const { return current_ ? &current_->model : nullptr; }
  QString currentSpec() const { return currentSpec_; }
  NodeTableModel* nodeModel() const { return nodeModel_; }
  // When set, errors are reported through loadFailed only (no modal dialog): for tests/screenshots.
  void setQuietErrors(bool q) { quietErrors_ = q; }

 signals:
  void modelLoaded(const QString& spec);
  void loadFailed(const QString& message);

 protected:
  void dragEnterEvent(QDragEnterEvent* e) override;
  void dropEvent(QDropEvent* e) override;

 private:
  void buildUi();
  void onLoadFinished();
  void showNode(int sourceRow);
  void updateRecentMenu();
  void addRecent(const QString& spec);

  NodeTableModel* nodeModel_ = nullptr;
  QSortFilterProxyModel* proxy_ = nullptr;
  QTableView* table_ = nullptr;
  QTextBrowser* details_ = nullptr;
  QLabel* summary_ = nullptr;
  QLineEdit* filter_ = nullptr;
  QMenu* recentMenu_ = nullptr;
  QProgressBar* progress_ = nullptr;
  std::unique_ptr<LoadedModel> current_;
  QString currentSpec_;
  QString pendingSpec_;
  QFutureWatcher<LoadOutcome>* watcher_ = nullptr;
  bool quietErrors_ = false;
};

}  // namespace fwui
