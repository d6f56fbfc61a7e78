#include "ui/views/CompareDialog.h"

#include "ui/views/MonoFont.h"
#include "ui/views/ProgressRelay.h"

#include <QCheckBox>

#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QTextBrowser>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrent>

namespace fwui {

CompareDialog::CompareDialog(fw::Model model, fw::AnalysisOptions base, const QStringList& profiles,
                             const QStringList& checked, QWidget* parent)
    : QDialog(parent), model_(std::move(model)), base_(std::move(base)) {
  setWindowTitle(tr("Compare chips"));
  list_ = new QListWidget;
  for (const auto& p : profiles) {
    auto* it = new QListWidgetItem(p, list_);
    it->setFlags(it->flags() | Qt::ItemIsUserCheckable);
    it->setCheckState(checked.contains(p) ? Qt::Checked : Qt::Unchecked);
  }
  list_->setMaximumHeight(110);
  tune_ = new QCheckBox(tr("Tune each chip's plan on that chip first (60 s per chip)"));
  progress_ = new QProgressBar;
  progress_->setRange(0, 1000);
  status_ = new QLabel(tr("Check two or more chips and press Compare. Fusion sees a chip through its Unified Buffer "
                          "size and element size; all times are simulated."));
  status_->setWordWrap(true);
  text_ = new QTextBrowser;
  text_->setFont(monoFont());
  text_->setLineWrapMode(QTextEdit::NoWrap);
  text_->setMinimumSize(760, 320);
  runBtn_ = new QPushButton(tr("Compare"));
  cancelBtn_ = new QPushButton(tr("Cancel"));
  cancelBtn_->setEnabled(false);
  auto* close = new QPushButton(tr("Close"));
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(runBtn_);
  buttons->addWidget(cancelBtn_);
  buttons->addStretch();
  buttons->addWidget(close);
  auto* lay = new QVBoxLayout(this);
  lay->addWidget(new QLabel(tr("Chips:")));
  lay->addWidget(list_);
  lay->addWidget(tune_);
  lay->addWidget(progress_);
  lay->addWidget(status_);
  lay->addWidget(text_, 1);
  lay->addLayout(buttons);
  watcher_ = new QFutureWatcher<CompareOutcome>(this);
  connect(watcher_, &QFutureWatcher<CompareOutcome>::finished, this, &CompareDialog::onFinished);
  connect(runBtn_, &QPushButton::clicked, this, &CompareDialog::run);
  connect(cancelBtn_, &QPushButton::clicked, this, &CompareDialog::cancel);
  connect(close, &QPushButton::clicked, this, [this] {
    cancel();
    reject();
  });
}

CompareDialog::~CompareDialog() {
  if (cancel_) cancel_->store(true);
  watcher_->waitForFinished();
}

bool CompareDialog::isRunning() const { return watcher_->isRunning(); }

QStringList CompareDialog::checkedProfiles() const {
  QStringList out;
  for (int i = 0; i < list_->count(); ++i)
    if (list_->item(i)->checkState() == Qt::Checked) out << list_->item(i)->text();
  return out;
}

void CompareDialog::setChecked(const QStringList& names) {
  for (int i = 0; i < list_->count(); ++i)
    list_->item(i)->setCheckState(names.contains(list_->item(i)->text()) ? Qt::Checked : Qt::Unchecked);
}

void CompareDialog::run() {
  if (isRunning()) return;
  const QStringList chips = checkedProfiles();
  if (chips.size() < 2) {
    status_->setText(tr("Check at least two chips."));
    emit finished(false);
    return;
  }
  cancel_ = std::make_shared<std::atomic<bool>>(false);
  fw::CompareOptions o;
  o.base = base_;
  for (const auto& c : chips) o.hw.push_back(c.toStdString());
  o.tune = tune_->isChecked();
  o.cancel = cancel_.get();
  o.progress = progressRelay(progress_, status_);
  runBtn_->setEnabled(false);
  cancelBtn_->setEnabled(true);
  progress_->setValue(0);
  status_->setText(tr("Fusing and simulating for %1…").arg(chips.join(", ")));
  auto flag = cancel_;
  watcher_->setFuture(QtConcurrent::run([model = model_, o, flag]() mutable {
    CompareOutcome out;
    auto r = fw::compareChips(model, std::move(o));
    if (r.ok()) out.result = std::make_shared<fw::CompareResult>(std::move(r).value());
    else out.error = QString::fromStdString(r.error().message), out.cancelled = r.error().isCancelled();
    return out;
  }));
}

void CompareDialog::cancel() {
  if (cancel_) cancel_->store(true);
}

void CompareDialog::onFinished() {
  CompareOutcome out = watcher_->result();
  runBtn_->setEnabled(true);
  cancelBtn_->setEnabled(false);
  if (!out.result) {
    status_->setText(out.cancelled ? tr("Cancelled") : tr("Comparison failed: %1").arg(out.error));
    emit finished(false);
    return;
  }
  result_ = out.result;
  progress_->setValue(1000);
  status_->setText(tr("%1 fusion decision(s) differ between the chips").arg(result_->decisions.size()));
  text_->setPlainText(QString::fromStdString(result_->toText()));
  emit finished(true);
}

}  // namespace fwui
