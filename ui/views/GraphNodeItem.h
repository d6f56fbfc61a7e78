#pragma once
// One box of the graph view: a node, a fused kernel, a collapsed scope or a graph input/output, drawn at
// the position Graphviz gave it. Selectable; can be highlighted (before<->after linking, search).
#include <QColor>
#include <QGraphicsItem>
#include <QString>
#include <QStringList>

#include "ui/diagram/Diagram.h"

namespace fwui {

class GraphNodeItem : public QGraphicsItem {
 public:
  enum { Type = UserType + 101 };
  // `box` indexes the scene's Diagram; width/height in scene units (points).
  GraphNodeItem(size_t box, const fw::diagram::DiagramBox& b, qreal width, qreal height);

  int type() const override { return Type; }
  QRectF boundingRect() const override;
  QPainterPath shape() const override;
  void paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

  size_t box() const { return box_; }
  fw::diagram::BoxKind kind() const { return kind_; }
  QString id() const { return id_; }
  QString scopePath() const { return scope_; }
  const QStringList& memberNames() const { return members_; }
  const QStringList& memberOps() const { return ops_; }
  bool matches(const QString& needle) const;  // id, member name or op type contains it (case-insensitive)

  void setFill(const QColor& c);
  QColor fill() const { return fill_; }
  void setHighlighted(bool on);
  bool isHighlighted() const { return highlighted_; }

 private:
  size_t box_;
  fw::diagram::BoxKind kind_;
  QString id_, title_, detail_, scope_;
  QStringList members_, ops_;
  QRectF rect_;
  QColor fill_ = Qt::white;
  bool highlighted_ = false;
};

}  // namespace fwui
