#pragma once
// A fixed-pitch font for tables printed as text (the CLI's tables shown in dialogs). The platform's
// "fixed" font can resolve to a proportional one (offscreen, minimal X servers): ask for a typewriter
// face by name and hint as well.
#include <QFont>
#include <QFontDatabase>

namespace fwui {

inline QFont monoFont() {
  QFont f = QFontDatabase::systemFont(QFontDatabase::FixedFont);
  if (!QFontInfo(f).fixedPitch()) {
    f = QFont("DejaVu Sans Mono");
    f.setStyleHint(QFont::TypeWriter);
    f.setFixedPitch(true);
  }
  return f;
}

}  // namespace fwui
