#include "ui/views/GraphNodeItem.h"

#include "ui/diagram/DotWriter.h"

#include <QFont>
#include <QFontMetricsF>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

namespace fwui {

namespace {
QString q(const std::string& s) { return QString::fromStdString(s); }
}  // namespace

GraphNodeItem::GraphNodeItem(size_t box, const fw::diagram::DiagramBox& b, qreal width, qreal height)
    : box_(box), kind_(b.kind), id_(q(b.id)), title_(q(b.title)), detail_(q(b.detail)), scope_(q(b.scope)) {
  if (kind_ == fw::diagram::BoxKind::Scope) title_ = QStringLiteral("[+] ") + title_;
  if (kind_ == fw::diagram::BoxKind::Kernel && !b.unit.empty())
    detail_ = detail_.isEmpty() ? q(b.unit) : q(b.unit) + QStringLiteral("  ") + detail_;
  if (b.extractedEdges) detail_ += QStringLiteral("  → %1 boxes").arg(b.extractedEdges);  // edges not drawn
  for (const auto& m : b.memberNames) members_ << q(m);
  for (const auto& o : b.memberOps) ops_ << q(o);
  rect_ = QRectF(-width / 2, -height / 2, width, height);
  setFlag(ItemIsSelectable);
  setAcceptHoverEvents(false);
  if (!b.tooltip.empty()) setToolTip(q(b.tooltip));
  setZValue(1);
}

QRectF GraphNodeItem::boundingRect() const { return rect_.adjusted(-4, -4, 4, 4); }

QPainterPath GraphNodeItem::shape() const {
  QPainterPath p;
  if (kind_ == fw::diagram::BoxKind::Input || kind_ == fw::diagram::BoxKind::Output)
    p.addEllipse(rect_);
  else
    p.addRect(rect_);
  return p;
}

bool GraphNodeItem::matches(const QString& needle) const {
  if (needle.isEmpty()) return false;
  if (id_.contains(needle, Qt::CaseInsensitive) || title_.contains(needle, Qt::CaseInsensitive)) return true;
  for (const auto& m : members_)
    if (m.contains(needle, Qt::CaseInsensitive)) return true;
  for (const auto& o : ops_)
    if (o.compare(needle, Qt::CaseInsensitive) == 0) return true;
  return false;
}

void GraphNodeItem::setFill(const QColor& c) {
  fill_ = c;
  update();
}

void GraphNodeItem::setHighlighted(bool on) {
  if (on == highlighted_) return;
  highlighted_ = on;
  setZValue(on ? 2 : 1);
  update();
}

void GraphNodeItem::paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget*) {
  using fw::diagram::BoxKind;
  const qreal lod = option->levelOfDetailFromTransform(p->worldTransform());
  QPen pen(QColor(0x44, 0x44, 0x44), kind_ == BoxKind::Kernel ? 1.4 : 1.0);
  if (highlighted_) pen = QPen(QColor(0xff, 0x8c, 0x00), 3.5);
  if (isSelected()) pen = QPen(QColor(0x1a, 0x5f, 0xd6), 3.0);
  pen.setCosmetic(lod < 0.5);
  p->setPen(pen);
  p->setBrush(fill_);
  switch (kind_) {
    case BoxKind::Input:
    case BoxKind::Output: p->drawEllipse(rect_); break;
    case BoxKind::Scope: {
      const qreal d = 4;
      p->drawRect(rect_.adjusted(d, d, 0, 0).translated(-d, -d));
      p->drawRect(rect_.adjusted(0, d, -d, 0));
      break;
    }
    case BoxKind::Node: p->drawRoundedRect(rect_, 4, 4); break;
    case BoxKind::Kernel: p->drawRect(rect_); break;
  }
  if (lod < 0.35) return;  // text is unreadable this small; skipping it keeps big graphs fluid

  const QColor text = QColor(QString::fromStdString(fw::diagram::textColorOn(fill_.name().toStdString())));
  p->setPen(text);
  QFont f = p->font();
  f.setPixelSize(10);
  f.setBold(kind_ != BoxKind::Input && kind_ != BoxKind::Output);
  const QRectF inner = rect_.adjusted(4, 2, -4, -2);
  if (detail_.isEmpty()) {
    p->setFont(f);
    p->drawText(inner, Qt::AlignCenter, QFontMetricsF(f).elidedText(title_, Qt::ElideMiddle, inner.width()));
    return;
  }
  const QRectF top(inner.left(), inner.top(), inner.width(), inner.height() / 2);
  const QRectF bottom(inner.left(), inner.center().y(), inner.width(), inner.height() / 2);
  p->setFont(f);
  p->drawText(top, Qt::AlignHCenter | Qt::AlignBottom,
              QFontMetricsF(f).elidedText(title_, Qt::ElideMiddle, inner.width()));
  f.setBold(false);
  f.setPixelSize(9);
  p->setFont(f);
  p->drawText(bottom, Qt::AlignHCenter | Qt::AlignTop,
              QFontMetricsF(f).elidedText(detail_, Qt::ElideMiddle, inner.width()));
}

}  // namespace fwui
