#pragma once

#include <QString>

class QWidget;

namespace runlane {

// Help ▸ About Runlane: its text (it names every format FormatRegistry
// holds, so a new format is listed without touching it) and the message
// box that shows it. Kept out of MainWindow, which only puts it in its Help
// menu (with ShortcutsDialog and UserGuide).
class HelpDialogs
{
public:
    static QString aboutText();
    static void showAbout(QWidget* parent);
};

} // namespace runlane
