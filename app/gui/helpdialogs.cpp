#include "helpdialogs.h"

#include "formatregistry.h"

#include <QApplication>
#include <QMessageBox>
#include <QObject>

namespace runlane {

QString HelpDialogs::shortcutsText()
{
    const QString rows = QObject::tr("<tr><td><b>Wheel</b>, Ctrl+wheel, pinch</td><td>zoom at the cursor</td></tr>"
                                     "<tr><td>Shift+wheel, wheel over the names</td><td>scroll rows</td></tr>"
                                     "<tr><td>Horizontal wheel, drag, A / D, ← / →</td><td>pan</td></tr>"
                                     "<tr><td>W / S, + / −</td><td>zoom in / out</td></tr>"
                                     "<tr><td>Shift+drag</td><td>select a time range</td></tr>"
                                     "<tr><td>Double-click, Enter</td><td>zoom to the box or task</td></tr>"
                                     "<tr><td>0, Home, Ctrl+0</td><td>whole profile</td></tr>"
                                     "<tr><td>Alt+← / Alt+→</td><td>back / forward through zooms</td></tr>"
                                     "<tr><td>C / E, click ▸ / ▾</td><td>collapse / expand the selected box</td></tr>"
                                     "<tr><td>Escape</td><td>clear the range, then the selection</td></tr>"
                                     "<tr><td>Ctrl+G</td><td>aggregated flame graph</td></tr>"
                                     "<tr><td>Ctrl+F, F3 / Shift+F3</td><td>find labels, next / previous occurrence</td></tr>"
                                     "<tr><td>Click a rank row or a usage band</td><td>focus that label everywhere</td></tr>"
                                     "<tr><td>Ctrl+O, F5, drop a file</td><td>open, reload</td></tr>"
                                     "<tr><td>Ctrl+Shift+O, drop on the right edge or with Shift</td><td>compare with base runs</td></tr>");
    return QStringLiteral("<table cellspacing='6'>") + rows + QStringLiteral("</table>");
}

QString HelpDialogs::aboutText()
{
    // From the registry, in its order: a hand-written list fell behind it
    // (it named 7 of 12 formats).
    QString formats;
    for (const InputFormat* format : FormatRegistry::formats()) {
        const std::string_view name = format->name();
        formats += QStringLiteral("<li>%1</li>").arg(QString::fromUtf8(name.data(), qsizetype(name.size())).toHtmlEscaped());
    }
    return QObject::tr("<h3>Runlane %1</h3><p>Which async work occupied the event loop, when, and because of whom.</p>"
                       "<p>Reads these %2 formats (recognised by their content, also gzip-compressed):</p><ul>%3</ul>"
                       "<p>and follows a running program's Chroprof metrics live (File ▸ Attach to Live Metrics…).</p>")
        .arg(QApplication::applicationVersion(), QString::number(FormatRegistry::formats().size()), formats);
}

void HelpDialogs::showShortcuts(QWidget* parent)
{
    QMessageBox::information(parent, QObject::tr("Keyboard shortcuts"), shortcutsText());
}

void HelpDialogs::showAbout(QWidget* parent)
{
    QMessageBox::about(parent, QObject::tr("About Runlane"), aboutText());
}

} // namespace runlane
