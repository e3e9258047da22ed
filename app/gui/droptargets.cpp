#include "droptargets.h"

#include "colorscheme.h"
#include "mainwindow.h"

#include <QLabel>
#include <QWidget>

namespace runlane {

DropTargets::DropTargets(QWidget* window) : QObject(window), m_open(new QLabel(window)), m_compare(new QLabel(window))
{
    m_open->setObjectName(QStringLiteral("dropOverlay"));
    m_compare->setObjectName(QStringLiteral("compareDrop"));
    for (QLabel* label : {m_open, m_compare}) {
        label->setAlignment(Qt::AlignCenter);
        label->setWordWrap(true);
        label->hide();
    }
}

void DropTargets::begin(const QStringList& files, const QRect& area, bool canCompare, const QString& openName)
{
    m_ok = !files.isEmpty();
    m_canCompare = canCompare && m_ok;
    m_area = area;
    if (!m_ok) {
        m_open->setText(tr("Only profile files on this computer can be opened"));
    } else {
        const QString first = MainWindow::displayName(files.first());
        m_open->setText(files.size() > 1 ? tr("Drop to open %1\n(the first of %2 files)").arg(first).arg(files.size())
                                         : tr("Drop to open %1").arg(first));
        m_compare->setText(files.size() > 1
                               ? tr("Drop here to compare\n%1 (new)\nwith these %2 files\nas the base runs").arg(openName).arg(files.size())
                               : tr("Drop here to compare\n%1 (new)\nwith %2 (base)\n\nor hold Shift anywhere").arg(openName, first));
    }
    layout();
    m_open->show();
    m_open->raise();
    m_compare->setVisible(m_canCompare);
    m_compare->raise();
    hover(area.topLeft(), false);
}

void DropTargets::setArea(const QRect& area)
{
    m_area = area;
    layout();
}

void DropTargets::layout()
{
    if (!m_canCompare) {
        m_open->setGeometry(m_area);
        return;
    }
    const int split = splitX() - m_area.x();
    m_open->setGeometry(m_area.x(), m_area.y(), split, m_area.height());
    m_compare->setGeometry(m_area.x() + split, m_area.y(), m_area.width() - split, m_area.height());
}

int DropTargets::splitX() const
{
    // Opening stays the large target, as it was before compare mode: a
    // drop anywhere but on the right edge replaces the profile.
    return m_area.x() + m_area.width() * 3 / 4;
}

bool DropTargets::comparesAt(QPoint pos, bool shift) const
{
    // On the target itself: a drop on the docks or the status bar beside
    // it opens the file, as any drop did before compare mode.
    return m_canCompare && (shift || m_compare->geometry().contains(pos));
}

bool DropTargets::hover(QPoint pos, bool shift)
{
    const bool comparing = comparesAt(pos, shift);
    style(m_open, m_ok, !comparing);
    style(m_compare, m_ok, comparing);
    return comparing;
}

void DropTargets::end()
{
    m_open->hide();
    m_compare->hide();
}

bool DropTargets::isShown() const
{
    return m_open->isVisible();
}

void DropTargets::style(QLabel* label, bool ok, bool active) const
{
    // Blue to open, purple to compare, red for nothing; the target a drop
    // would hit is the stronger one.
    const QColor color = !ok ? QColor(190, 50, 40) : label == m_compare ? QColor(130, 60, 190) : QColor(40, 100, 210);
    const QColor ink = ColorScheme::isDark() ? color.lighter(170) : color.darker(140); // readable on the window
    // The compare target is a quarter of the width: smaller type.
    label->setStyleSheet(QStringLiteral("QLabel { background: rgba(%1, %2, %3, %4); border: 3px %5 %6; color: %7;"
                                        " font-size: %8px; font-weight: bold; }")
                             .arg(color.red())
                             .arg(color.green())
                             .arg(color.blue())
                             .arg(active ? 60 : 18)
                             .arg(active ? QStringLiteral("solid") : QStringLiteral("dashed"), color.name(), ink.name())
                             .arg(label == m_compare ? 17 : 22));
}

} // namespace runlane
