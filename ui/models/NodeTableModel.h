#pragma once
// The nodes of a graph as a table: name, op, inputs, outputs, FLOPs, bytes.
#include <QAbstractTableModel>
#include <memory>

#include "core/io/ModelInfo.h"

namespace fwui {

class NodeTableModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { Name, Op, Output, Flops, Bytes, ColumnCount };
  enum Role { NodeIdRole = Qt::UserRole + 1, SortRole };

  explicit NodeTableModel(QObject* parent = nullptr);
  void setInfo(std::shared_ptr<const fw::ModelInfo> info);  // one reset per new model; shared, not copied
  const fw::NodeInfo* nodeAt(int row) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation o, int role) const override;

 private:
  std::shared_ptr<const fw::ModelInfo> info_;
  const std::vector<fw::NodeInfo>& nodes() const;
};

}  // namespace fwui
