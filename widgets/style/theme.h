#pragma once

#include <QPalette>
#include <QString>

namespace runlane {

// The look of the whole application: the platform's own (System), or the
// Fusion style with a light or a dark palette. Qt 6.4 has no portable
// switch to follow a desktop's dark mode, so System is the style and
// palette the platform gave at startup. The views paint with ColorScheme,
// which follows the application palette: setting a theme repaints them
// (every widget gets a PaletteChange) and the next export uses it too.
class Theme
{
public:
    enum class Mode { System, Light, Dark };

    // The QSettings key the chosen mode is kept under.
    static QString settingsKey() { return QStringLiteral("theme"); }
    // "system", "light", "dark"; an unknown name reads as System.
    static QString name(Mode mode);
    static Mode fromName(const QString& name);

    static Mode current() { return s_current; }
    // Sets the application's style and palette (needs a QApplication).
    static void apply(Mode mode);

    static QPalette lightPalette();
    static QPalette darkPalette();

private:
    static inline Mode s_current = Mode::System;
};

} // namespace runlane
