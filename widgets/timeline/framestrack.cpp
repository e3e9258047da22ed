#include "framestrack.h"

#include "colorscheme.h"
#include "profiledocument.h"
#include "timeaxis.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QStyle>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace runlane {

FramesTrack::FramesTrack(ProfileDocument* document, QWidget* parent)
    : QWidget(parent), m_document(document), m_axis(document->axis())
{
    setAttribute(Qt::WA_OpaquePaintEvent);
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    setVisible(false);
    connect(m_axis, &TimeAxis::visibleRangeChanged, this, qOverload<>(&QWidget::update));
    connect(m_axis, &TimeAxis::boundsChanged, this, qOverload<>(&QWidget::update));
    connect(m_document, &ProfileDocument::profileChanged, this, &FramesTrack::reload);
    reload();
}

void FramesTrack::reload()
{
    // Found on the loading thread (LoadedProfile::frames).
    m_series = m_document->loaded().frames ? m_document->loaded().frames : std::make_shared<const FrameSeries>();
    setVisible(!m_series->empty());
    update();
}

QSize FramesTrack::sizeHint() const
{
    return QSize(400, kHeight);
}

QColor FramesTrack::colorOf(FrameSeries::Quality quality)
{
    switch (quality) {
    case FrameSeries::Quality::Good:
        return QColor(40, 160, 70);
    case FrameSeries::Quality::Medium:
        return QColor(235, 140, 20);
    case FrameSeries::Quality::Bad:
        return QColor(215, 45, 45);
    }
    return Qt::black;
}

double FramesTrack::timeWidth() const
{
    return std::max(1, width() - TimeAxis::kGutter - style()->pixelMetric(QStyle::PM_ScrollBarExtent));
}

std::vector<FramesTrack::Block> FramesTrack::blocks(double width) const
{
    std::vector<Block> out;
    const auto [first, last] = m_series->overlapping(m_axis->visibleStart(), m_axis->visibleEnd());
    for (std::size_t k = first; k < last; ++k) {
        const FrameSeries::Frame& f = m_series->frames()[k];
        Block b{std::max(-1.0, m_axis->xFor(f.start, width)), std::min(width + 1, m_axis->xFor(f.end, width)),
                FrameSeries::quality(f.fps)};
        if (b.x1 - b.x0 >= 1) {
            out.push_back(b);
            continue;
        }
        // Narrower than a pixel: the pixel it starts in, shared with the
        // frames before it there, the worst colour winning.
        b.x0 = std::floor(b.x0);
        b.x1 = b.x0 + 1;
        if (!out.empty() && out.back().x0 == b.x0 && out.back().x1 == b.x1)
            out.back().quality = std::max(out.back().quality, b.quality);
        else
            out.push_back(b);
    }
    return out;
}

std::size_t FramesTrack::frameAt(double x) const
{
    const double w = timeWidth();
    if (x < TimeAxis::kGutter || x >= TimeAxis::kGutter + w)
        return m_series->frames().size();
    // Within half a pixel, so that a frame narrower than one can be hit.
    const Time t0 = m_axis->timeAt(x - TimeAxis::kGutter - 0.5, w);
    const Time t1 = m_axis->timeAt(x - TimeAxis::kGutter + 0.5, w);
    const auto [first, last] = m_series->overlapping(t0, t1 + 1);
    const Time t = m_axis->timeAt(x - TimeAxis::kGutter, w);
    std::size_t best = m_series->frames().size();
    for (std::size_t k = first; k < last; ++k) {
        const FrameSeries::Frame& f = m_series->frames()[k];
        if (f.start <= t && t < f.end)
            return k;
        if (best == m_series->frames().size())
            best = k;
    }
    return best;
}

void FramesTrack::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    paintContent(painter, size());
}

void FramesTrack::paintContent(QPainter& p, QSize size) const
{
    TimeAxis::paintBackdrop(p, size);
    p.setPen(ColorScheme::grid());
    p.drawLine(0, size.height() - 1, size.width(), size.height() - 1);
    if (m_series->empty())
        return;
    p.setPen(ColorScheme::mutedText());
    p.drawText(QRect(8, 0, TimeAxis::kGutter - 16, size.height()), Qt::AlignVCenter | Qt::AlignLeft,
               tr("Frames (%1)").arg(QString::fromLatin1(FrameSeries::sourceName(m_series->source()))));
    const double width = std::max(1, size.width() - TimeAxis::kGutter - style()->pixelMetric(QStyle::PM_ScrollBarExtent));
    p.setClipRect(QRect(TimeAxis::kGutter, 0, int(width), size.height()));
    const double top = 2;
    const double height = size.height() - 5;
    for (const Block& b : blocks(width)) {
        // A gap between blocks wide enough to show one.
        const double w = b.x1 - b.x0 > 4 ? b.x1 - b.x0 - 1 : b.x1 - b.x0;
        p.fillRect(QRectF(TimeAxis::kGutter + b.x0, top, w, height), colorOf(b.quality));
    }
}

void FramesTrack::mousePressEvent(QMouseEvent* event)
{
    const std::size_t k = frameAt(event->position().x());
    if (event->button() != Qt::LeftButton || k >= m_series->frames().size()) {
        QWidget::mousePressEvent(event);
        return;
    }
    const FrameSeries::Frame& f = m_series->frames()[k];
    m_axis->setSelection(f.start, std::max(f.end, f.start + 1));
}

bool FramesTrack::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const std::size_t k = frameAt(help->pos().x());
        if (k >= m_series->frames().size()) {
            QToolTip::hideText();
            return true;
        }
        const FrameSeries::Frame& f = m_series->frames()[k];
        QToolTip::showText(help->globalPos(), tr("frame %1: %2 fps, %3 ms")
                                                  .arg(k + 1)
                                                  .arg(f.fps, 0, 'f', 1)
                                                  .arg(f.frameTime, 0, 'f', 3),
                           this);
        return true;
    }
    return QWidget::event(event);
}

} // namespace runlane
