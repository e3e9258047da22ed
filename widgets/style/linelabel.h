#pragma once

#include <QWidget>

namespace runlane {

// One line of plain text that may change on every input: the status bar's
// "Showing 1.20 ms of 1.64 s" and the usage chart's bin width follow each
// wheel notch. A QLabel would re-lay out the whole window each time:
// QLabel::setText calls updateGeometry(), and every layout from the label's
// up to the main window's is activated again, each asking its labels for
// their size hints (at 1 M events, 9 ms of the GUI thread's ~45 ms a notch,
// perf, 2026-12-07). This label's size hint depends on its font, never on
// its text: a new text repaints the label and nothing else. It takes the
// width its layout gives it; a text too long for that is cut with "…" and
// shown whole in the tooltip (a long status no longer widens the window).
class LineLabel : public QWidget
{
    Q_OBJECT

public:
    explicit LineLabel(QWidget* parent = nullptr);

    void setText(const QString& text);
    const QString& text() const { return m_text; }
    // Whether the text is cut at the label's present width.
    bool isElided() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;

private:
    QString m_text;
};

} // namespace runlane
