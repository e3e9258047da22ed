#pragma once

#include <QString>

class QWidget;

namespace runlane {

// Help ▸ Keyboard Shortcuts and Help ▸ About Runlane: their texts (About
// names every format FormatRegistry holds, so a new format is listed
// without touching it) and the message boxes that show them. Kept out of
// MainWindow, which only puts them in its Help menu.
class HelpDialogs
{
public:
    static QString shortcutsText();
    static QString aboutText();
    static void showShortcuts(QWidget* parent);
    static void showAbout(QWidget* parent);
};

} // namespace runlane
