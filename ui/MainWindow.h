#pragma once
// The workbench window. Open a model (file dialog, drag and drop, recent files, zoo), choose level,
// hardware profile, batch and before-mode in the toolbar, switch rules in the Rules dock, exclude a node
// with a right click. Every change recomputes off the GUI thread (a newer request supersedes an older
// one; Cancel stops it); a failure shows an error and keeps what was shown.
//
// The options have one owner: `settings_` (fw::AnalysisSettings, ui/analysis/AnalysisSettings.h). The
// toolbar boxes and the Rules dock show it (showSettings, their signals blocked) and ask for changes;
// every change goes through storeSettings; settings_.request() is the analysis request.
//
// Views: Before | After graphs (linked selection), a summary bar, a timing table (before/after per
// kernel), a timeline of both runs, and the node list; a properties dock explains the selected node
// or kernel, including why rules did not fuse it.
//
// The proof: after each analysis the fused export is verified against the original on the reference
// executor in the background (MainWindowVerify.cpp; cancelled and superseded by the next change), and
// the summary bar, the properties dock and the exported report carry the result. A model whose two
// runs are estimated above the auto-verify budget gets a Verify button instead.
#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QMainWindow>
#include <atomic>
#include <map>
#include <memory>
#include <set>

#include <nlohmann/json.hpp>

#include "core/exec/Verify.h"
#include "core/io/ModelInfo.h"
#include "core/io/Prepare.h"
#include "core/ir/Model.h"
#include "simulator/Comparison.h"
#include "simulator/Measured.h"
#include "ui/analysis/Analysis.h"
#include "ui/analysis/AnalysisSettings.h"
#include "ui/analysis/Proof.h"
#include "ui/diagram/Diagram.h"

class QLabel;
class QTableView;
class QTextBrowser;
class QSortFilterProxyModel;
class QLineEdit;
class QMenu;
class QProgressBar;
class QComboBox;
class QSpinBox;
class QToolButton;
class QTabWidget;
class QAction;

namespace fwui {

class NodeTableModel;
class TimingTableModel;
class GraphView;
class TimelineWidget;
class RulesPanel;

struct LoadedModel {
  fw::LoadedSource source;  // as imported and validated (core/io/Prepare.h); source.model is shown before binding
  std::shared_ptr<const fw::ModelInfo> info;  // shared with the node table (60k rows: no copy)
  std::shared_ptr<const fw::diagram::Hierarchy> hierarchy;  // groups, for the first picture
};

// What background work hands back (QFuture needs default-constructible types).
struct LoadOutcome {
  std::shared_ptr<LoadedModel> loaded;  // null on failure
  QString error;
};
struct AnalysisOutcome {
  std::shared_ptr<fw::Analysis> analysis;  // null on failure
  // What this analysis bound and simulated before fusing; the window keeps them for the next one
  // (a level or rule toggle binds nothing and simulates the baseline again only when its key changes).
  std::shared_ptr<const fw::PreparedModel> prepared;
  std::shared_ptr<const fw::sim::SimResult> before;
  QString beforeKey;
  QString error;
  bool cancelled = false;     // the failure is a cancel (fw::ErrorCode::Cancelled)
  double seconds = 0;
  QString binding;            // the input shapes in effect, e.g. "x=1,3,224,224 (N, H, W by default)"
  QStringList inputShapes;    // NAME=d0,d1,... per graph input as analysed (prefills the dialog)
  QStringList shapeNotes;     // traced shapes, trace failures: shown in the status bar
  // Derived in the worker too, so the GUI thread only fills widgets (a 10k-node model: 2,000 rows).
  std::vector<fw::sim::ComparisonRow> rows;     // before/after per kernel (when simulated)
  std::map<std::string, double> nodeHeat;       // the before view's heat (when simulated)
  fw::diagram::Grouping grouping;               // the after view's kernels
  fw::RunEstimate work;                         // what a proof of it costs (fw::estimateRun)
  std::shared_ptr<const fw::sim::Accuracy> accuracy;  // the after run against the measured run, if one is loaded
  fw::AnalysisSettings settings;  // the options it was requested with (the summary shows them)
};
struct VerifyOutcome {
  std::shared_ptr<const fw::Analysis> analysis;  // what was verified
  std::shared_ptr<fw::VerifyReport> report;      // null on error
  QString error;
  bool cancelled = false;                         // the error is a cancel (fw::ErrorCode::Cancelled)
  double seconds = 0;
  double flopsPerSecond = 0;  // the executor's measured speed on the reference run (0: unknown)
};

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  // Starts loading `spec` (path or zoo:NAME). Emits modelLoaded or loadFailed; then analysis runs.
  void openModel(const QString& spec);
  void setOptLevel(int level);
  void setHardware(const QString& nameOrPath);
  void setBatch(int batch);
  void setEagerBaseline(bool eager);
  void excludeNode(const QString& nodeName, bool excluded = true);
  // A rule switched on or off by the user (the Rules dock asks through this); kept across level changes.
  void setRule(const QString& ruleId, bool on);
  // Input shapes ("NAME=d0,d1,..." or "SYMBOL=N"), remembered per model (QSettings); recomputes.
  // Returns an error message for text that does not parse (nothing changes then).
  QString setInputShapes(const QStringList& shapes);
  QStringList inputShapes() const { return inputShapeText_; }
  void editInputShapes();  // the "Input shapes" dialog
  // Model → Tune fusion… / Compare chips…: dialogs on the analysed model with the current options.
  void openTuneDialog();
  void openCompareDialog();
  // The proof. State of the verification of the analysis shown.
  enum class Proof { None, Running, Equal, Differs, Failed, Cancelled, Manual };
  Proof proofState() const { return proof_; }
  QString proofText() const;           // what the summary bar says about it
  const fw::VerifyReport* proofReport() const { return proofReport_.get(); }
  void verifyNow();                    // the Verify button: verify the current analysis now
  nlohmann::json proofJson() const;    // the exported report's "verification" member
  void setExecutorThreads(int threads);  // 0 = all cores (persisted)
  int executorThreads() const { return execThreads_; }
  void setAutoVerify(bool on, double budgetSeconds = -1);  // budget < 0 keeps the current one
  double autoVerifyBudget() const { return autoVerifySeconds_; }
  // Takes a tuned plan's options (level, rule switches, exclusions, saving, UB share); recomputes.
  void applyFusionOptions(const fw::fusion::FusionOptions& o);
  // The one options value, and the analysis request made from it.
  const fw::AnalysisSettings& settings() const { return settings_; }
  fw::AnalysisOptions analysisOptions() const { return settings_.request(); }
  QLabel* bindingLabel() const { return bindingLabel_; }
  // File → Load measured times…: fwb profile's JSON or a board's op summary CSV, set beside the after
  // run (a "Measured µs" column, the accuracy in the summary) until another model is opened.
  // Returns the error text (empty: loaded; the analysis runs again). Several files of the same model and
  // level (profiles measured at different times) count as one: per kernel the median of their times.
  QString loadMeasured(const QString& path) { return loadMeasured(QStringList{path}); }
  QString loadMeasured(const QStringList& paths);
  const fw::sim::Accuracy* measuredAccuracy() const { return accuracy_.get(); }

  bool hasModel() const { return current_ != nullptr; }
  const fw::Model* model() const { return current_ ? &current_->source.model : nullptr; }
  const fw::Analysis* analysis() const { return analysis_.get(); }
  QString currentSpec() const { return currentSpec_; }
  int optLevel() const { return settings_.optLevel; }
  NodeTableModel* nodeModel() const { return nodeModel_; }
  TimingTableModel* timingModel() const { return timingModel_; }
  GraphView* beforeView() const { return beforeView_; }
  GraphView* afterView() const { return afterView_; }
  RulesPanel* rulesPanel() const { return rules_; }
  QLabel* summaryLabel() const { return summary_; }
  bool isBusy() const;
  // Seconds from a model's arrival (loaded, validated, grouped) to its first graph on screen; -1 before.
  double firstPaintSeconds() const { return firstPaintSeconds_; }
  // Opens a group (and the groups above it) in both views, in place, as double-clicks would; viewsReady
  // follows. An error names the group and the groups the views show; "" when started or already open.
  QString expandGroup(const QString& path);
  // When set, errors are reported through signals only (no modal dialog): for tests/screenshots.
  void setQuietErrors(bool q) { quietErrors_ = q; }

 signals:
  void modelLoaded(const QString& spec);
  void loadFailed(const QString& message);
  void analysisStarted();  // a fuse + simulate job was started (a superseded one counts once more)
  void analysisFinished();
  void analysisFailed(const QString& message);
  void viewsReady();  // analysis done and both graph views laid out
  void proofFinished();  // a verification ended (equal, differs, failed or cancelled)

 public slots:
  void recompute();
  void cancelWork();

 protected:
  void dragEnterEvent(QDragEnterEvent* e) override;
  void dropEvent(QDropEvent* e) override;

 private:
  // Stores one setting now; says once in the status bar when the settings file cannot be written.
  void remember(const QString& key, const QVariant& value);
  void buildUi();
  void buildMenus();
  void startLoad(const QString& spec);
  void onLoadFinished();
  void onAnalysisFinished();
  void showError(const QString& title, const QString& msg);
  void showNodeDetails(const QString& originalName);
  void showKernelDetails(const QString& kernelName);
  void onBeforeSelection(const QStringList& names);
  void onAfterSelection(const QStringList& names);
  void updateSummary(const fw::AnalysisSettings& madeWith);
  void updateRecentMenu();
  void addRecent(const QString& spec);
  void checkViewsReady();
  void highlightKernel(const fw::sim::ComparisonRow& row);
  void startProofIfCheap();
  void startProof();
  void cancelProof();
  void onProofFinished();
  void updateProofBar();
  QString proofHtml() const;  // the properties dock's section
  void exportDiagram(const QString& which);
  void exportText(const QString& what);
  void graphContextMenu(GraphView* view, const QPoint& pos);
  // The one way the options change: stores `next`, shows it in the widgets, remembers the level,
  // hardware, batch and mode. Returns whether anything changed (the caller decides what to run).
  bool storeSettings(const fw::AnalysisSettings& next);
  void showSettings();  // the toolbar boxes and the Rules dock reflect settings_ (signals blocked)
  QString afterKernelOf(const std::string& originalName) const;

  NodeTableModel* nodeModel_ = nullptr;
  QSortFilterProxyModel* nodeProxy_ = nullptr;
  TimingTableModel* timingModel_ = nullptr;
  QSortFilterProxyModel* timingProxy_ = nullptr;
  QTableView* nodeTable_ = nullptr;
  QTableView* timingTable_ = nullptr;
  GraphView* beforeView_ = nullptr;
  GraphView* afterView_ = nullptr;
  TimelineWidget* timeline_ = nullptr;
  RulesPanel* rules_ = nullptr;
  QTextBrowser* details_ = nullptr;
  QLabel* summary_ = nullptr;
  QLabel* bindingLabel_ = nullptr;
  QLineEdit* search_ = nullptr;
  QLineEdit* timingFilter_ = nullptr;
  QMenu* recentMenu_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QToolButton* cancelButton_ = nullptr;
  QComboBox* levelBox_ = nullptr;
  QComboBox* hwBox_ = nullptr;
  QComboBox* modeBox_ = nullptr;
  QSpinBox* batchBox_ = nullptr;
  QAction* heatAction_ = nullptr;
  QAction* verifyAction_ = nullptr;
  QAction* autoVerifyAction_ = nullptr;
  QLabel* proofLabel_ = nullptr;
  QToolButton* verifyButton_ = nullptr;
  QTabWidget* tabs_ = nullptr;

  // Caches of the current model (cleared when another model is opened): the model bound at
  // `preparedShapes_`, and the baseline run for `beforeKey_` (shapes, profile, batch, mode).
  std::shared_ptr<const fw::PreparedModel> prepared_;
  QStringList preparedShapes_;
  std::shared_ptr<const fw::sim::SimResult> cachedBefore_;
  QString cachedBeforeKey_;
  std::shared_ptr<LoadedModel> current_;  // shared with the analysis worker
  std::shared_ptr<fw::Analysis> analysis_;
  std::shared_ptr<const fw::sim::MeasuredRun> measured_;  // File → Load measured times…
  std::shared_ptr<const fw::sim::Accuracy> accuracy_;     // of analysis_ against measured_
  QString currentSpec_;
  QString pendingSpec_;
  fw::AnalysisSettings settings_;  // the options: level, rule choices, exclusions, tuned limits, hw, batch, mode
  QStringList inputShapeText_;          // the user's binding for the current model
  QStringList analysedShapes_;          // what the last analysis used (dialog prefill)
  bool askedForShapes_ = false;
  bool shapesGivenBeforeLoad_ = false;
  QFutureWatcher<LoadOutcome>* loadWatcher_ = nullptr;
  QFutureWatcher<AnalysisOutcome>* analysisWatcher_ = nullptr;
  std::shared_ptr<std::atomic<bool>> cancelFlag_;
  bool analysisQueued_ = false;
  int layoutsPending_ = 0;
  bool reapplyHighlight_ = false;  // the next checkViewsReady re-applies the selected kernel's highlight
  bool quietErrors_ = false;
  QElapsedTimer sinceLoad_;        // from the model's arrival to the first picture
  bool firstPaintPending_ = false;
  double firstPaintSeconds_ = -1;
  bool linking_ = false;
  QString detailsKernel_;  // the kernel the properties dock shows (refreshed when its proof ends)
  // The proof
  QFutureWatcher<VerifyOutcome>* verifyWatcher_ = nullptr;
  std::shared_ptr<std::atomic<bool>> verifyCancel_;
  bool proofQueued_ = false;       // restart for the newest analysis when the running one ends
  Proof proof_ = Proof::None;
  std::shared_ptr<fw::VerifyReport> proofReport_;
  QString proofError_;
  double proofSeconds_ = 0;
  double estimateSeconds_ = 0;     // the two runs, estimated, for the analysis shown
  fw::RunEstimate analysisWork_;   // its work (computed with the analysis)
  double flopsPerSecond_ = 0;      // measured by the last proof (0: use the default)
  int execThreads_ = 0;
  bool autoVerify_ = true;
  bool settingsWarned_ = false;
  double autoVerifySeconds_ = 4;
};

}  // namespace fwui
