#pragma once

#include <QObject>
#include <QPoint>
#include <QRect>
#include <QStringList>

class QLabel;
class QWidget;

namespace runlane {

// What a drag over the window offers. With no profile open: one target,
// open the file. With one open: two, side by side — "open" over the left
// three quarters and "compare with" on the right edge, which makes the dragged files the base runs
// the open profile is compared against (holding Shift anywhere does the
// same). Every drag gets an answer: what a drop will do, or why it will do
// nothing.
class DropTargets : public QObject
{
    Q_OBJECT

public:
    explicit DropTargets(QWidget* window);

    // A drag entered `area` (the window's central part) with `files`
    // (local files only; empty: nothing that can be opened).
    void begin(const QStringList& files, const QRect& area, bool canCompare, const QString& openName);
    // The pointer moved: highlights the target under it. True if a drop
    // there compares.
    bool hover(QPoint pos, bool shift);
    void end();
    void setArea(const QRect& area);
    bool isShown() const;
    // Whether a drop at `pos` (with Shift held or not) compares.
    bool comparesAt(QPoint pos, bool shift) const;

    QLabel* openTarget() const { return m_open; }
    QLabel* compareTarget() const { return m_compare; }

private:
    void style(QLabel* label, bool ok, bool active) const;
    void layout();
    int splitX() const;

    QLabel* m_open;
    QLabel* m_compare;
    QRect m_area;
    bool m_canCompare = false;
    bool m_ok = false;
};

} // namespace runlane
