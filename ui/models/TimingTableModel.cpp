#include "ui/models/TimingTableModel.h"

#include <QLocale>
#include <QStringList>

namespace fwui {

TimingTableModel::TimingTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void TimingTableModel::setRows(std::vector<fw::sim::ComparisonRow> rows) {
  beginResetModel();
  rows_.clear();
  measured_.clear();
  message_.clear();
  whatToDo_.clear();
  for (auto& r : rows)
    if (r.unit != fw::sim::Unit::None) rows_.push_back(std::move(r));
  endResetModel();
}

const fw::sim::ComparisonRow* TimingTableModel::rowAt(int row) const {
  if (row < 0 || row >= static_cast<int>(rows_.size())) return nullptr;
  return &rows_[static_cast<size_t>(row)];
}

int TimingTableModel::rowOfKernel(const QString& kernelName) const {
  const std::string k = kernelName.toStdString();
  for (size_t i = 0; i < rows_.size(); ++i)
    if (rows_[i].kernel == k) return static_cast<int>(i);
  return -1;
}

void TimingTableModel::setMeasured(std::vector<double> byAfterIndex, QString on) {
  measured_ = std::move(byAfterIndex);
  measuredOn_ = std::move(on);
  if (!rows_.empty()) emit dataChanged(index(0, MeasuredUs), index(rowCount() - 1, MeasuredUs));
  emit headerDataChanged(Qt::Horizontal, MeasuredUs, MeasuredUs);
}

void TimingTableModel::setMessage(const QString& why, const QString& whatToDo) {
  beginResetModel();
  rows_.clear();
  message_ = why;
  whatToDo_ = whatToDo;
  endResetModel();
}

int TimingTableModel::rowCount(const QModelIndex& parent) const {
  if (parent.isValid()) return 0;
  return message_.isEmpty() ? static_cast<int>(rows_.size()) : 1;
}

QString TimingTableModel::toCsv() const {
  auto field = [](QString s) {
    if (s.contains(',') || s.contains('"') || s.contains('\n')) s = '"' + s.replace('"', "\"\"") + '"';
    return s;
  };
  QString out;
  QStringList head;
  const int columns = hasMeasured() ? ColumnCount : MeasuredUs;  // the measured column only when there is one
  for (int c = 0; c < columns; ++c) head << field(headerData(c, Qt::Horizontal, Qt::DisplayRole).toString());
  out += head.join(',') + '\n';
  for (int r = 0; r < rowCount(); ++r) {
    QStringList cells;
    for (int c = 0; c < columns; ++c) cells << field(data(index(r, c), Qt::DisplayRole).toString());
    out += cells.join(',') + '\n';
  }
  return out;
}
int TimingTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

namespace {
QString bytesText(double b) {
  const char* units[] = {"B", "KB", "MB", "GB"};
  int u = 0;
  while (b >= 1000 && u < 3) {
    b /= 1000;
    ++u;
  }
  return QString::number(b, 'f', u ? 2 : 0) + " " + units[u];
}
}  // namespace

QVariant TimingTableModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid()) return {};
  if (!message_.isEmpty()) {
    if (index.row() != 0 || (role != Qt::DisplayRole && role != Qt::ToolTipRole && role != SortRole)) return {};
    if (index.column() == Kernel) return tr("not simulated: %1").arg(message_);
    if (index.column() == Ops) return whatToDo_;
    return {};
  }
  if (index.row() >= static_cast<int>(rows_.size())) return {};
  const auto& r = rows_[static_cast<size_t>(index.row())];
  const double speedup = r.afterUs > 0 ? r.beforeUs / r.afterUs : 0;
  const double measured = r.afterIndex < measured_.size() ? measured_[r.afterIndex] : -1;
  if (role == OriginsRole) {
    QStringList l;
    for (const auto& o : r.origins) l << QString::fromStdString(o);
    return l;
  }
  if (role == AfterIndexRole) return static_cast<qulonglong>(r.afterIndex);
  if (role == SortRole) {
    switch (index.column()) {
      case BeforeUs: return r.beforeUs;
      case AfterUs: return r.afterUs;
      case Speedup: return speedup;
      case HbmBefore: return r.beforeHbmBytes;
      case HbmAfter: return r.afterHbmBytes;
      case Ops: return static_cast<int>(r.ops.size());
      case MeasuredUs: return measured;
      default: role = Qt::DisplayRole;
    }
  }
  if (role == Qt::DisplayRole) {
    switch (index.column()) {
      case Kernel: return QString::fromStdString(r.kernel);
      case Ops: {
        QStringList l;
        for (const auto& o : r.ops) l << QString::fromStdString(o);
        return l.join(" + ");
      }
      case Unit: return QString(fw::sim::unitName(r.unit));
      case BeforeUs: return QString::number(r.beforeUs, 'f', 2);
      case AfterUs: return QString::number(r.afterUs, 'f', 2);
      case Speedup: return speedup > 0 ? QString::number(speedup, 'f', 2) + "×" : QString("—");
      case Bound: return QString(fw::sim::boundName(r.bound));
      case HbmBefore: return bytesText(r.beforeHbmBytes);
      case HbmAfter: return bytesText(r.afterHbmBytes);
      case MeasuredUs: return measured >= 0 ? QString::number(measured, 'f', 2) : QString(measured_.empty() ? "" : "—");
      default: return {};
    }
  }
  if (role == Qt::TextAlignmentRole && index.column() >= BeforeUs && index.column() != Bound)
    return int(Qt::AlignRight | Qt::AlignVCenter);
  if (role == Qt::ToolTipRole && index.column() == MeasuredUs && measured > 0)
    return tr("measured (%4) %1 µs, simulated %2 µs: %3%").arg(measured, 0, 'f', 2).arg(r.afterUs, 0, 'f', 2)
        .arg(100 * (r.afterUs - measured) / measured, 0, 'f', 0)
        .arg(measuredOn_);
  if (role == Qt::ToolTipRole) {
    QStringList l;
    for (const auto& o : r.origins) l << QString::fromStdString(o);
    return tr("Original nodes: %1").arg(l.join(", "));
  }
  return {};
}

QVariant TimingTableModel::headerData(int section, Qt::Orientation o, int role) const {
  if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case Kernel: return tr("Kernel");
    case Ops: return tr("Original ops");
    case Unit: return tr("Unit");
    case BeforeUs: return tr("Before µs");
    case AfterUs: return tr("After µs");
    case Speedup: return tr("Speed-up");
    case Bound: return tr("Bound");
    case HbmBefore: return tr("HBM before");
    case HbmAfter: return tr("HBM after");
    case MeasuredUs: return tr("Measured (%1) µs").arg(measuredOn_);
    default: return {};
  }
}

}  // namespace fwui
