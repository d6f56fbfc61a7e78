#include "ui/models/NodeTableModel.h"

#include <QLocale>

namespace fwui {

NodeTableModel::NodeTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void NodeTableModel::setInfo(std::shared_ptr<const fw::ModelInfo> info) {
  beginResetModel();
  info_ = std::move(info);
  endResetModel();
}

const std::vector<fw::NodeInfo>& NodeTableModel::nodes() const {
  static const std::vector<fw::NodeInfo> none;
  return info_ ? info_->nodeList : none;
}

const fw::NodeInfo* NodeTableModel::nodeAt(int row) const {
  if (row < 0 || row >= static_cast<int>(nodes().size())) return nullptr;
  return &nodes()[static_cast<size_t>(row)];
}

int NodeTableModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(nodes().size());
}

int NodeTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant NodeTableModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= static_cast<int>(nodes().size())) return {};
  const auto& n = nodes()[static_cast<size_t>(index.row())];
  const double bytes = n.cost.bytesIn + n.cost.bytesOut + n.cost.weightBytes;
  if (role == NodeIdRole) return n.id;
  if (role == SortRole) {
    switch (index.column()) {
      case Flops: return n.cost.flops;
      case Bytes: return bytes;
      default: break;
    }
    role = Qt::DisplayRole;
  }
  if (role == Qt::DisplayRole) {
    switch (index.column()) {
      case Name: return QString::fromStdString(n.name);
      case Op: return QString::fromStdString(n.domain.empty() ? n.opType : n.domain + "." + n.opType);
      case Output: return n.outputs.empty() ? QString() : QString::fromStdString(n.outputs.front());
      case Flops: return QLocale().toString(n.cost.flops, 'f', 0);
      case Bytes: return QLocale().toString(bytes, 'f', 0);
      default: return {};
    }
  }
  if (role == Qt::TextAlignmentRole && (index.column() == Flops || index.column() == Bytes))
    return int(Qt::AlignRight | Qt::AlignVCenter);
  if (role == Qt::ToolTipRole && !n.cost.known) return QString::fromStdString(n.cost.problem);
  return {};
}

QVariant NodeTableModel::headerData(int section, Qt::Orientation o, int role) const {
  if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case Name: return tr("Node");
    case Op: return tr("Op");
    case Output: return tr("Output");
    case Flops: return tr("FLOPs");
    case Bytes: return tr("Bytes");
    default: return {};
  }
}

}  // namespace fwui
