#include "theme.h"

#include <QApplication>
#include <QStyle>
#include <QStyleFactory>

#include <memory>

namespace runlane {

namespace {

// What the platform gave before any theme was applied: System goes back to it.
struct SystemLook {
    QString style;
    QPalette palette;
};

const SystemLook& systemLook()
{
    static const SystemLook look{QApplication::style()->name(), QApplication::palette()};
    return look;
}

void useStyle(const QString& name)
{
    // Setting the style repolishes every widget: only when it changes.
    if (QApplication::style()->name().compare(name, Qt::CaseInsensitive) != 0)
        QApplication::setStyle(name);
}

} // namespace

QString Theme::name(Mode mode)
{
    switch (mode) {
    case Mode::Light:
        return QStringLiteral("light");
    case Mode::Dark:
        return QStringLiteral("dark");
    case Mode::System:
        break;
    }
    return QStringLiteral("system");
}

Theme::Mode Theme::fromName(const QString& name)
{
    if (name == QLatin1String("light"))
        return Mode::Light;
    if (name == QLatin1String("dark"))
        return Mode::Dark;
    return Mode::System;
}

void Theme::apply(Mode mode)
{
    const SystemLook& system = systemLook(); // before the first change
    if (mode == s_current)
        return; // System at startup: the platform's look, untouched
    s_current = mode;
    if (mode == Mode::System) {
        useStyle(system.style);
        QApplication::setPalette(system.palette);
        return;
    }
    useStyle(QStringLiteral("Fusion"));
    QApplication::setPalette(mode == Mode::Dark ? darkPalette() : lightPalette());
}

QPalette Theme::lightPalette()
{
    const std::unique_ptr<QStyle> fusion(QStyleFactory::create(QStringLiteral("Fusion")));
    return fusion ? fusion->standardPalette() : QPalette();
}

QPalette Theme::darkPalette()
{
    // Fusion draws its bevels from Light, Midlight, Mid, Dark and Shadow:
    // they are set too, or buttons and frames keep light edges.
    const QColor window(45, 47, 52);
    const QColor text(222, 225, 230);
    const QColor disabled(120, 124, 132);
    QPalette p(window);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, QColor(30, 32, 36));
    p.setColor(QPalette::AlternateBase, QColor(38, 41, 46));
    p.setColor(QPalette::ToolTipBase, QColor(55, 58, 64));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, QColor(140, 145, 154));
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, QColor(52, 55, 61));
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, QColor(255, 110, 100));
    p.setColor(QPalette::Light, QColor(72, 75, 82));
    p.setColor(QPalette::Midlight, QColor(62, 65, 72));
    p.setColor(QPalette::Mid, QColor(38, 40, 44));
    p.setColor(QPalette::Dark, QColor(26, 27, 30));
    p.setColor(QPalette::Shadow, QColor(12, 12, 14));
    p.setColor(QPalette::Highlight, QColor(48, 110, 200));
    p.setColor(QPalette::HighlightedText, QColor(255, 255, 255));
    p.setColor(QPalette::Link, QColor(110, 165, 255));
    p.setColor(QPalette::LinkVisited, QColor(180, 140, 255));
    for (const QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, disabled);
    p.setColor(QPalette::Disabled, QPalette::Highlight, QColor(70, 74, 82));
    return p;
}

} // namespace runlane
