#pragma once
// Per-kernel simulated timing, before and after fusion side by side (one row per kernel of the fused
// run, with the time its original operators took unfused). Sort with SortRole; filter through a proxy.
#include <QAbstractTableModel>

#include "simulator/Comparison.h"

namespace fwui {

class TimingTableModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  // MeasuredUs: a measured run's time for the kernel (File → Load measured times…); hide the column
  // while hasMeasured() is false.
  enum Column { Kernel, Ops, Unit, BeforeUs, AfterUs, Speedup, Bound, HbmBefore, HbmAfter, MeasuredUs, ColumnCount };
  enum Role { SortRole = Qt::UserRole + 1, OriginsRole, AfterIndexRole };

  explicit TimingTableModel(QObject* parent = nullptr);
  void setRows(std::vector<fw::sim::ComparisonRow> rows);  // view kernels (no device work) are dropped
  // No timing to show: one row says why and what to do (the table is never silently empty).
  void setMessage(const QString& why, const QString& whatToDo);
  // Measured µs per kernel of the after run (Accuracy::measuredUs: by after index, -1 = none); empty:
  // no measured run. setRows clears it.
  // `on`: where it was measured, "board" or "host" (the header says "Measured (board) µs").
  void setMeasured(std::vector<double> byAfterIndex, QString on = QStringLiteral("host"));
  bool hasMeasured() const { return !measured_.empty(); }
  bool isMessage() const { return !message_.isEmpty(); }
  // The table as shown (display text, every column, header first) as CSV, for --timing-csv.
  QString toCsv() const;
  const fw::sim::ComparisonRow* rowAt(int row) const;
  int rowOfKernel(const QString& kernelName) const;  // -1 if absent

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation o, int role) const override;

 private:
  std::vector<fw::sim::ComparisonRow> rows_;
  std::vector<double> measured_;
  QString measuredOn_ = QStringLiteral("host");
  QString message_, whatToDo_;
};

}  // namespace fwui
