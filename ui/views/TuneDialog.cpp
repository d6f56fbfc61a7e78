#include "ui/views/TuneDialog.h"

#include "ui/views/MonoFont.h"
#include "ui/views/ProgressRelay.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>

#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QTextBrowser>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrent>

#include "core/util/FileUtil.h"

namespace fwui {

TuneDialog::TuneDialog(fw::Model model, fw::AnalysisOptions start, QWidget* parent)
    : QDialog(parent), model_(std::move(model)), start_(std::move(start)) {
  setWindowTitle(tr("Tune fusion — %1").arg(QString::fromStdString(start_.hw)));
  auto* form = new QFormLayout;
  budget_ = new QDoubleSpinBox;
  budget_->setRange(1, 3600);
  budget_->setValue(60);
  budget_->setSuffix(tr(" s"));
  form->addRow(tr("Budget"), budget_);
  objective_ = new QComboBox;
  objective_->addItem(tr("Simulated latency"), "latency");
  objective_->addItem(tr("Simulated HBM traffic"), "hbm");
  form->addRow(tr("Minimise"), objective_);
  auto* note = new QLabel(tr("Searches rule subsets, the minimum traffic saving, the share of the Unified Buffer a tile may "
                             "use and node exclusions, starting from the current options. Every candidate it keeps is "
                             "run by the reference executor and must equal the original model. Times are simulated on %1.")
                              .arg(QString::fromStdString(start_.hw)));
  note->setWordWrap(true);
  progress_ = new QProgressBar;
  progress_->setRange(0, 1000);
  progress_->setValue(0);
  status_ = new QLabel(tr("Not started"));
  status_->setWordWrap(true);
  text_ = new QTextBrowser;
  text_->setFont(monoFont());
  text_->setLineWrapMode(QTextEdit::NoWrap);
  text_->setMinimumSize(760, 320);
  startBtn_ = new QPushButton(tr("Start"));
  cancelBtn_ = new QPushButton(tr("Cancel"));
  cancelBtn_->setEnabled(false);
  apply_ = new QPushButton(tr("Apply to the workbench"));
  apply_->setEnabled(false);
  save_ = new QPushButton(tr("Save config…"));
  save_->setEnabled(false);
  auto* close = new QPushButton(tr("Close"));
  auto* buttons = new QHBoxLayout;
  for (auto* b : {startBtn_, cancelBtn_}) buttons->addWidget(b);
  buttons->addStretch();
  for (auto* b : {apply_, save_, close}) buttons->addWidget(b);
  auto* lay = new QVBoxLayout(this);
  lay->addLayout(form);
  lay->addWidget(note);
  lay->addWidget(progress_);
  lay->addWidget(status_);
  lay->addWidget(text_, 1);
  lay->addLayout(buttons);

  watcher_ = new QFutureWatcher<TuneOutcome>(this);
  connect(watcher_, &QFutureWatcher<TuneOutcome>::finished, this, &TuneDialog::onFinished);
  connect(startBtn_, &QPushButton::clicked, this, &TuneDialog::start);
  connect(cancelBtn_, &QPushButton::clicked, this, &TuneDialog::cancel);
  connect(close, &QPushButton::clicked, this, [this] {
    cancel();
    reject();
  });
  connect(apply_, &QPushButton::clicked, this, [this] {
    if (result_) emit applied(result_->best.options);
    accept();
  });
  connect(save_, &QPushButton::clicked, this, [this] {
    const QString path = QFileDialog::getSaveFileName(this, tr("Save fusion config"), "fusion_tuned.json", tr("JSON (*.json)"));
    if (path.isEmpty()) return;
    const QString err = saveConfig(path);
    if (!err.isEmpty()) QMessageBox::warning(this, tr("Save failed"), err);
  });
}

TuneDialog::~TuneDialog() {
  if (cancel_) cancel_->store(true);
  watcher_->waitForFinished();
}

bool TuneDialog::isRunning() const { return watcher_->isRunning(); }

void TuneDialog::start() {
  if (isRunning()) return;
  cancel_ = std::make_shared<std::atomic<bool>>(false);
  fw::TuneOptions o;
  o.start = start_;
  o.budgetSeconds = budget_->value();
  o.objective = objective_->currentData().toString() == "hbm" ? fw::TuneObjective::HbmTraffic : fw::TuneObjective::Latency;
  o.maxEvaluations = maxEvaluations_;
  o.cancel = cancel_.get();
  o.progress = progressRelay(progress_, status_);
  startBtn_->setEnabled(false);
  cancelBtn_->setEnabled(true);
  apply_->setEnabled(false);
  save_->setEnabled(false);
  budget_->setEnabled(false);
  objective_->setEnabled(false);
  progress_->setValue(0);
  status_->setText(tr("Evaluating the starting options…"));
  text_->clear();
  auto cancelFlag = cancel_;  // keeps the flag alive while the worker runs
  watcher_->setFuture(QtConcurrent::run([model = model_, o, cancelFlag]() mutable {
    TuneOutcome out;
    auto r = fw::tune(model, std::move(o));
    if (r.ok()) out.result = std::make_shared<fw::TuneResult>(std::move(r).value());
    else out.error = QString::fromStdString(r.error().message);
    return out;
  }));
}

void TuneDialog::cancel() {
  if (cancel_) cancel_->store(true);
}

void TuneDialog::onFinished() {
  TuneOutcome out = watcher_->result();
  startBtn_->setEnabled(true);
  cancelBtn_->setEnabled(false);
  budget_->setEnabled(true);
  objective_->setEnabled(true);
  if (!out.result) {
    status_->setText(tr("Tuning failed: %1").arg(out.error));
    emit finished(false);
    return;
  }
  result_ = out.result;
  progress_->setValue(1000);
  const bool better = result_->best.description != result_->start.description;
  status_->setText(better ? tr("Done (%1): %2 candidates; the tuned plan beats the starting options")
                                .arg(QString::fromStdString(result_->stopReason))
                                .arg(result_->evaluations)
                          : tr("Done (%1): %2 candidates; the starting options are the best found")
                                .arg(QString::fromStdString(result_->stopReason))
                                .arg(result_->evaluations));
  text_->setPlainText(QString::fromStdString(result_->toText()));
  apply_->setEnabled(better);
  save_->setEnabled(true);
  emit finished(true);
}

QString TuneDialog::saveConfig(const QString& path) const {
  if (!result_) return tr("nothing tuned yet");
  auto st = fw::writeFileAtomic(path.toStdString(), result_->configJson().dump(2) + "\n");
  return st.ok() ? QString() : QString::fromStdString(st.error().message);
}

}  // namespace fwui
