#pragma once
// "Input shapes": one line per graph input, prefilled with the binding in effect (the documented
// default or what the user gave before). The result is a list of "NAME=d0,d1,..." texts, the same
// syntax as `fwb --input-shape`.
#include <QDialog>
#include <QStringList>
#include <vector>

class QLineEdit;
class QLabel;

namespace fwui {

class InputShapesDialog : public QDialog {
  Q_OBJECT
 public:
  struct Input {
    QString name;
    QString stored;   // the shape as stored in the file, symbols by name: "[N,3,H,W]"
    QString current;  // "1,3,224,224"
  };
  InputShapesDialog(const std::vector<Input>& inputs, const QString& note, QWidget* parent = nullptr);
  // One "NAME=dims" per input whose field is not empty.
  QStringList shapes() const;
  // Error text for a field that does not parse, else empty.
  QString validate() const;
  QLineEdit* field(int i) const { return fields_.at(static_cast<size_t>(i)); }

 private:
  std::vector<Input> inputs_;
  std::vector<QLineEdit*> fields_;
  QLabel* error_ = nullptr;
};

}  // namespace fwui
