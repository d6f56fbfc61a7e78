// MainWindow: the proof. After each analysis, the fused export is run against the original on the
// reference executor (fw::proveAnalysis, the same check as `fwb verify`) off the GUI thread. A newer
// analysis cancels the running proof and starts its own when that one has stopped. Models whose two
// runs are estimated above the auto-verify budget wait for the Verify button.
#include <QAction>
#include <QLabel>
#include <QStatusBar>
#include <QThread>
#include <QToolButton>
#include <QtConcurrent/QtConcurrentRun>
#include <chrono>

#include "ui/MainWindow.h"
#include "ui/analysis/Proof.h"

namespace fwui {

namespace {

VerifyOutcome verifyInBackground(std::shared_ptr<const fw::Analysis> a, int threads,
                                 std::shared_ptr<std::atomic<bool>> cancel) {
  VerifyOutcome out;
  out.analysis = a;
  const auto t0 = std::chrono::steady_clock::now();
  fw::ProofOptions po;
  po.exec.threads = threads;
  po.exec.cancel = cancel.get();
  auto r = fw::proveAnalysis(*a, po);
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!r.ok()) {
    out.error = QString::fromStdString(r.error().message);
    out.cancelled = r.error().isCancelled();
    return out;
  }
  const double flops = fw::estimateRun(a->original, fw::kDefaultExecutorFlops).flops;
  if (r->referenceMs > 50 && flops > 0) out.flopsPerSecond = flops / (r->referenceMs / 1000.0);
  out.report = std::make_shared<fw::VerifyReport>(std::move(r).value());
  return out;
}

QString sciText(double v) { return QString::number(v, 'e', 1); }

}  // namespace

void MainWindow::setExecutorThreads(int threads) {
  execThreads_ = std::max(0, threads);
  remember("exec/threads", execThreads_);
}

void MainWindow::setAutoVerify(bool on, double budgetSeconds) {
  autoVerify_ = on;
  if (budgetSeconds >= 0) autoVerifySeconds_ = budgetSeconds;
  remember("verify/auto", autoVerify_);
  remember("verify/budgetSeconds", autoVerifySeconds_);
  if (autoVerifyAction_ && autoVerifyAction_->isChecked() != on) autoVerifyAction_->setChecked(on);
}

void MainWindow::startProofIfCheap() {
  if (!analysis_) return;
  const double rate = flopsPerSecond_ > 0 ? flopsPerSecond_ : fw::kDefaultExecutorFlops;
  estimateSeconds_ = fw::atRate(analysisWork_, rate).proofSeconds;
  if (autoVerify_ && estimateSeconds_ <= autoVerifySeconds_) {
    startProof();
  } else {
    cancelProof();
    proof_ = Proof::Manual;
    proofReport_.reset();
    updateProofBar();
  }
}

void MainWindow::verifyNow() { startProof(); }

void MainWindow::startProof() {
  if (!analysis_) return;
  proof_ = Proof::Running;
  proofReport_.reset();
  proofError_.clear();
  if (verifyWatcher_->isRunning()) {  // superseded: start again when the old one has stopped
    proofQueued_ = true;
    if (verifyCancel_) verifyCancel_->store(true);
    updateProofBar();
    return;
  }
  proofQueued_ = false;
  verifyCancel_ = std::make_shared<std::atomic<bool>>(false);
  verifyWatcher_->setFuture(QtConcurrent::run(verifyInBackground, std::shared_ptr<const fw::Analysis>(analysis_),
                                              execThreads_, verifyCancel_));
  updateProofBar();
}

void MainWindow::cancelProof() {
  proofQueued_ = false;
  if (verifyCancel_) verifyCancel_->store(true);
  if (proof_ == Proof::Running) proof_ = Proof::Cancelled;
}

void MainWindow::onProofFinished() {
  const VerifyOutcome out = verifyWatcher_->result();
  if (proofQueued_) {
    startProof();
    return;
  }
  if (out.flopsPerSecond > 0) flopsPerSecond_ = out.flopsPerSecond;
  if (out.analysis != analysis_) return;  // an older analysis: its result means nothing now
  proofSeconds_ = out.seconds;
  if (out.report) {
    proofReport_ = out.report;
    proof_ = out.report->passed ? Proof::Equal : Proof::Differs;
  } else if (out.cancelled) {
    if (proof_ == Proof::Running) proof_ = Proof::Cancelled;
  } else {
    proof_ = Proof::Failed;
    proofError_ = out.error;
  }
  updateProofBar();
  if (!detailsKernel_.isEmpty()) showKernelDetails(detailsKernel_);
  emit proofFinished();
}

QString MainWindow::proofText() const {
  switch (proof_) {
    case Proof::None: return {};
    case Proof::Running: return tr("verifying on the reference executor…");
    case Proof::Equal:
    case Proof::Differs:
      return proofReport_ ? QString::fromStdString(fw::proofSummary(*proofReport_)) : QString();
    case Proof::Failed: return tr("not verified: %1").arg(proofError_);
    case Proof::Cancelled: return tr("verification cancelled");
    case Proof::Manual:
      return autoVerify_ ? tr("not verified yet: the proof takes ≈ %1 s here (auto-verify budget %2 s)")
                               .arg(estimateSeconds_, 0, 'f', estimateSeconds_ < 10 ? 1 : 0)
                               .arg(autoVerifySeconds_, 0, 'f', 0)
                         : tr("not verified yet (automatic verification is off)");
  }
  return {};
}

void MainWindow::updateProofBar() {
  // One readable line beside the summary: the first line of the message, cut at kProofChars (a
  // failed proof can carry a whole error chain); the full text is the tooltip.
  constexpr int kProofChars = 140;
  const QString full = proofText();
  QString line = full.section('\n', 0, 0);
  if (line.size() > kProofChars) line = line.left(kProofChars - 1).trimmed() + "…";
  else if (line.size() < full.size()) line += " …";
  const QString t = line.toHtmlEscaped();
  QString color = "#555";
  if (proof_ == Proof::Equal) color = "#1b7f2a";
  if (proof_ == Proof::Differs || proof_ == Proof::Failed) color = "#b3261e";
  proofLabel_->setText(t.isEmpty() ? QString() : QString("<span style='color:%1'>%2</span>").arg(color, t));
  QString tip;
  if (proofReport_) tip = QString::fromStdString(proofReport_->toText());
  else if (proof_ == Proof::Failed) tip = full;
  proofLabel_->setToolTip(tip);
  const bool offer = proof_ == Proof::Manual || proof_ == Proof::Cancelled || proof_ == Proof::Failed;
  verifyButton_->setVisible(offer && analysis_);
  verifyAction_->setEnabled(analysis_ != nullptr && proof_ != Proof::Running);
}

QString MainWindow::proofHtml() const {
  if (proof_ == Proof::None) return {};
  QString h = tr("<p><b>Verification</b> (reference executor, fused ONNX export vs original): %1")
                  .arg(proofText().toHtmlEscaped());
  if (proofReport_) {
    h += tr("<br>tolerance %1 (normwise max rel), original %2 ms, fused %3 ms")
             .arg(sciText(proofReport_->tolerance))
             .arg(proofReport_->referenceMs, 0, 'f', 1)
             .arg(proofReport_->candidateMs, 0, 'f', 1);
    for (const auto& o : proofReport_->outputs)
      h += QString("<br>%1 %2: max rel %3, max abs %4%5")
               .arg(o.passed ? "✔" : "✘", QString::fromStdString(o.name).toHtmlEscaped(), sciText(o.maxRel),
                    sciText(o.maxAbs), o.note.empty() ? QString() : " — " + QString::fromStdString(o.note).toHtmlEscaped());
  }
  return h + "</p>";
}

nlohmann::json MainWindow::proofJson() const {
  nlohmann::json j;
  const char* states[] = {"not run", "running", "equal", "differs", "failed", "cancelled", "not run (over budget)"};
  j["state"] = states[static_cast<int>(proof_)];
  if (proofReport_) {
    j["report"] = proofReport_->toJson();
    j["seconds"] = proofSeconds_;
    j["executor_threads"] = execThreads_;
  }
  if (proof_ == Proof::Failed) j["error"] = proofError_.toStdString();
  if (proof_ == Proof::Manual) j["estimated_seconds"] = estimateSeconds_;
  return j;
}

}  // namespace fwui
