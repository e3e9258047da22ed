#pragma once

#include "frameseries.h"

#include <QWidget>

#include <memory>

namespace runlane {

class ProfileDocument;
class TimeAxis;

// The Frames track under the overview (issue 43): one block per rendered
// frame (FrameSeries) on the shared time axis, coloured by Enso's rule
// (fps > 55 good, > 25 medium, else bad). The visible frames are found by
// binary search; frames narrower than a pixel share it, drawn in the
// colour of the worst of them, so that a dropped frame stays in sight
// however far out the view is. Hidden, taking no room, for a profile
// without frames. A click on a frame selects its time range; hovering
// tells its fps and frame time.
class FramesTrack : public QWidget
{
    Q_OBJECT

public:
    static constexpr int kHeight = 16;

    explicit FramesTrack(ProfileDocument* document, QWidget* parent = nullptr);
    QSize sizeHint() const override;
    void paintContent(QPainter& painter, QSize size) const;
    const FrameSeries& series() const { return *m_series; }
    static QColor colorOf(FrameSeries::Quality quality);

    // A block as painted: [x0, x1) px of the time area and its quality.
    struct Block {
        double x0 = 0;
        double x1 = 0;
        FrameSeries::Quality quality = FrameSeries::Quality::Good;
    };
    // The blocks of the visible range in a time area `width` px wide.
    std::vector<Block> blocks(double width) const;
    // The frame under x (widget coordinates), or none (the frames' size).
    std::size_t frameAt(double x) const;

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    bool event(QEvent* event) override;

private:
    void reload();
    double timeWidth() const;

    ProfileDocument* m_document;
    TimeAxis* m_axis;
    std::shared_ptr<const FrameSeries> m_series = std::make_shared<const FrameSeries>();
};

} // namespace runlane
