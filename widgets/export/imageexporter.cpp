#include "imageexporter.h"

#include "colorscheme.h"
#include "counterview.h"
#include "differentialsource.h"
#include "difflegend.h"
#include "icicleview.h"
#include "messagesview.h"
#include "tasklaneview.h"
#include "timeruler.h"
#include "usagechart.h"
#include "usagechartview.h"

#include <QCoreApplication>
#include <QImageWriter>
#include <QPainter>
#include <QSaveFile>
#include <QWidget>

#include <algorithm>

namespace runlane {

namespace {

QImage canvas(QSize size, qreal scale)
{
    QImage image(size * scale, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(scale);
    image.fill(ColorScheme::background()); // the theme's, as the views paint it
    return image;
}

// The ruler's height in an export: as in the window.
int rulerHeight(const TimeRuler& ruler)
{
    return ruler.height() > 1 ? ruler.height() : ruler.sizeHint().height();
}

// A view's content as the view scrolls it, at another size; under the
// ruler if one is given, so that an exported chart tells its times as the
// window does.
template<typename View>
void paintView(QPainter& painter, const View& view, const TimeRuler* ruler, QSize size)
{
    painter.save();
    const int top = ruler ? std::min(rulerHeight(*ruler), size.height()) : 0;
    if (ruler) {
        painter.setFont(ruler->font());
        ruler->paintContent(painter, QSize(size.width(), top));
        painter.translate(0, top);
        painter.setClipRect(QRect(0, 0, size.width(), size.height() - top));
    }
    painter.setFont(view.font());
    view.paintContent(painter, QSize(size.width(), size.height() - top), view.scrollY());
    painter.restore();
}

template<typename View>
QImage paintView(const View& view, const TimeRuler* ruler, QSize size, qreal scale)
{
    QImage image = canvas(size, scale);
    QPainter painter(&image);
    paintView(painter, view, ruler, size);
    return image;
}

constexpr int kLegendColumn = 260; // px per legend entry in a usage export

// What the usage chart's controls say, for its image without them: the
// chart, the track, the bins (and worker-equivalents), top to bottom in `r`.
void paintUsageCaption(QPainter& painter, const UsageChart& chart, QRect r)
{
    QFont bold = chart.font();
    bold.setBold(true);
    const struct {
        QString text;
        QFont font;
        QColor color;
    } lines[] = {{UsageChart::tr("Event-loop usage"), bold, ColorScheme::text()},
                 {chart.trackName(), chart.font(), ColorScheme::text()},
                 {chart.binsNote(), chart.font(), ColorScheme::mutedText()}};
    painter.save();
    painter.setClipRect(r);
    for (const auto& line : lines) {
        if (line.text.isEmpty())
            continue;
        painter.setFont(line.font);
        painter.setPen(line.color);
        QRect used;
        painter.drawText(r, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, line.text, &used);
        r.setTop(used.bottom() + 4);
    }
    painter.restore();
}

} // namespace

QImage ImageExporter::icicle(const IcicleView& view, QSize size, qreal scale)
{
    return paintView(view, nullptr, size, scale);
}

QImage ImageExporter::lanes(const TaskLaneView& view, QSize size, qreal scale)
{
    return paintView(view, nullptr, size, scale);
}

int ImageExporter::icicleLegendHeight(const IcicleView& view)
{
    return dynamic_cast<const DifferentialSource*>(view.source()) ? DiffLegend::height(view.fontMetrics()) : 0;
}

QImage ImageExporter::icicle(const IcicleView& view, const TimeRuler& ruler, QSize size, qreal scale)
{
    const auto* diff = dynamic_cast<const DifferentialSource*>(view.source());
    if (!diff)
        return paintView(view, &ruler, size, scale);
    // Red and blue mean nothing in an image read alone: its key below it.
    const int legend = DiffLegend::height(view.fontMetrics());
    QImage image = canvas(size + QSize(0, legend), scale);
    QPainter painter(&image);
    paintView(painter, view, &ruler, size);
    painter.setFont(view.font());
    DiffLegend(diff->threshold(), diff->floor(), diff->unit())
        .paint(painter, QRect(0, size.height(), size.width(), legend), view.fontMetrics());
    return image;
}

QImage ImageExporter::lanes(const TaskLaneView& view, const TimeRuler& ruler, QSize size, qreal scale)
{
    return paintView(view, &ruler, size, scale);
}

QImage ImageExporter::counters(const CounterView& view, const TimeRuler& ruler, QSize size, qreal scale)
{
    return paintView(view, &ruler, size, scale);
}

QImage ImageExporter::messages(const MessagesView& view, const TimeRuler& ruler, QSize size, qreal scale)
{
    return paintView(view, &ruler, size, scale);
}

int ImageExporter::usageLegendHeight(const UsageChart& chart, int width, std::optional<std::size_t> count)
{
    const int entries = int(count.value_or(chart.legend().size()));
    if (entries == 0)
        return 0;
    const int columns = std::max(1, width / kLegendColumn);
    const int line = chart.fontMetrics().height() + 4;
    return 8 + line * ((entries + columns - 1) / columns) + 4;
}

QImage ImageExporter::usage(UsageChart& chart, const TimeRuler& ruler, qreal scale)
{
    // The plot as shown, then every legend entry: the chart's gutter
    // shows only those that fit its height, an image must show all. The
    // controls above the plot (track, bins, top k) are the window's, not
    // the image's.
    // The bins of what it shows, not none: an export right after a load
    // or a zoom waits for them, and for the axes laid out around them
    // (Qt Charts lays out on a posted event: the y labels were missing).
    chart.finishPendingWork();
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    const UsageChartView& view = *chart.view();
    const QSize chartSize = view.size();
    const int top = rulerHeight(ruler);
    const int legend = usageLegendHeight(chart, chartSize.width());
    QImage image = canvas(QSize(chartSize.width(), top + chartSize.height() + legend), scale);
    QPainter painter(&image);
    painter.setFont(ruler.font());
    ruler.paintContent(painter, QSize(chartSize.width(), top));
    painter.end();
    // The widget's render, not QGraphicsView's (of the scene alone): the
    // view's backdrop, grid and range selection are its own painting.
    static_cast<QWidget*>(chart.view())->render(&image, QPoint(0, top));
    painter.begin(&image);
    // Nor the gutter's list, which the full one below replaces: its column
    // left of the y axis's labels says instead what the controls said.
    if (const QRect first = view.legendRect(view.legendFirst()); !first.isEmpty()) {
        const QRect column(0, top, first.right() + 1, chartSize.height());
        painter.fillRect(column, ColorScheme::gutter());
        paintUsageCaption(painter, chart, column.adjusted(first.left(), 8, 0, -8));
    }
    painter.setFont(chart.font());
    const int line = chart.fontMetrics().height() + 4;
    const int columns = std::max(1, chartSize.width() / kLegendColumn);
    const auto entries = chart.legend();
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const UsageChart::LegendEntry& e = entries[i];
        const int x = 8 + int(i % std::size_t(columns)) * kLegendColumn;
        const int y = top + chartSize.height() + 8 + int(i / std::size_t(columns)) * line;
        painter.fillRect(QRect(x, y + (line - 10) / 2, 10, 10), e.color);
        painter.setPen(e.hidden ? ColorScheme::faintText() : ColorScheme::text());
        const QString share = QString::number(100.0 * e.meanShare, 'f', 1) + QStringLiteral(" %");
        const int shareWidth = painter.fontMetrics().horizontalAdvance(share);
        painter.drawText(QRect(x + 16, y, kLegendColumn - 30 - shareWidth, line), Qt::AlignVCenter | Qt::AlignLeft,
                         painter.fontMetrics().elidedText(e.name, Qt::ElideRight, kLegendColumn - 30 - shareWidth));
        painter.drawText(QRect(x + kLegendColumn - 20 - shareWidth, y, shareWidth, line), Qt::AlignVCenter | Qt::AlignRight, share);
    }
    return image;
}

QImage ImageExporter::part(ProfileView& view, ProfileView::Part part, qreal scale)
{
    // Each chart under the ruler, so that the image tells its times.
    const TimeRuler& ruler = *view.ruler();
    auto withRuler = [&ruler](const QWidget* shown) { return shown->size() + QSize(0, ruler.height()); };
    switch (part) {
    case ProfileView::Part::Icicle:
        return icicle(*view.icicle(), ruler, withRuler(view.icicle()), scale);
    case ProfileView::Part::Lanes:
        return lanes(*view.lanes(), ruler, withRuler(view.lanes()), scale);
    case ProfileView::Part::Usage:
        return usage(*view.usage(), ruler, scale);
    case ProfileView::Part::Counters:
        return counters(*view.counters(), ruler, withRuler(view.counters()), scale);
    case ProfileView::Part::Messages:
        return messages(*view.messagesView(), ruler, withRuler(view.messagesView()), scale);
    }
    return {};
}

QImage ImageExporter::widget(QWidget& widget, qreal scale)
{
    QImage image = canvas(widget.size(), scale);
    widget.render(&image);
    return image;
}

bool ImageExporter::savePng(const QImage& image, const QString& path, QString* error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        if (error)
            *error = file.errorString();
        return false;
    }
    QImageWriter writer(&file, "png");
    if (!writer.write(image)) {
        if (error)
            *error = writer.errorString();
        file.cancelWriting();
        return false;
    }
    if (!file.commit()) {
        if (error)
            *error = file.errorString();
        return false;
    }
    return true;
}

} // namespace runlane
