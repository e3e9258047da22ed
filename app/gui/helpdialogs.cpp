#include "helpdialogs.h"

#include "formatregistry.h"

#include <QApplication>
#include <QMessageBox>
#include <QObject>

namespace runlane {

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

void HelpDialogs::showAbout(QWidget* parent)
{
    QMessageBox::about(parent, QObject::tr("About Runlane"), aboutText());
}

} // namespace runlane
