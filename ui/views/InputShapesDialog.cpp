#include "ui/views/InputShapesDialog.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include "core/onnx/OnnxIO.h"

namespace fwui {

InputShapesDialog::InputShapesDialog(const std::vector<Input>& inputs, const QString& note, QWidget* parent)
    : QDialog(parent), inputs_(inputs) {
  setWindowTitle(tr("Input shapes"));
  auto* lay = new QVBoxLayout(this);
  auto* intro = new QLabel(
      tr("The model leaves some dimensions open. Fusion and simulation need every shape: give each input's "
         "dimensions, comma-separated. Prefilled with the binding in effect.%1")
          .arg(note.isEmpty() ? QString() : "<br><i>" + note.toHtmlEscaped() + "</i>"),
      this);
  intro->setWordWrap(true);
  lay->addWidget(intro);
  auto* form = new QFormLayout;
  for (const auto& in : inputs_) {
    auto* e = new QLineEdit(in.current, this);
    e->setObjectName("shape_" + in.name);
    e->setPlaceholderText(in.stored);
    form->addRow(tr("%1 %2").arg(in.name, in.stored), e);
    fields_.push_back(e);
  }
  lay->addLayout(form);
  error_ = new QLabel(this);
  error_->setStyleSheet("color: #b00020");
  lay->addWidget(error_);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  connect(buttons, &QDialogButtonBox::accepted, this, [this]() {
    const QString err = validate();
    error_->setText(err);
    if (err.isEmpty()) accept();
  });
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  lay->addWidget(buttons);
}

QStringList InputShapesDialog::shapes() const {
  QStringList out;
  for (size_t i = 0; i < inputs_.size(); ++i) {
    const QString t = fields_[i]->text().trimmed().remove(' ').remove('[').remove(']');
    if (!t.isEmpty()) out << inputs_[i].name + "=" + t;
  }
  return out;
}

QString InputShapesDialog::validate() const {
  for (const auto& s : shapes()) {
    auto o = fw::parseShapeOverride(s.toStdString());
    if (!o.ok()) return QString::fromStdString(o.error().message);
    for (const auto& d : o->dims)
      if (!d.isStatic() || d.value <= 0)
        return tr("%1: every dimension must be a positive integer").arg(s.section('=', 0, 0));
  }
  return {};
}

}  // namespace fwui
