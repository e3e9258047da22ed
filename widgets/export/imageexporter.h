#pragma once

#include "profileview.h"

#include <QImage>
#include <QSize>
#include <QString>

#include <optional>

class QWidget;

namespace runlane {

class CounterView;
class IcicleView;
class MessagesView;
class TaskLaneView;
class TimeRuler;
class UsageChart;

// Renders views to images for File ▸ Export and `runlane-cli render`: at the
// requested size in logical pixels, times `scale` device pixels (2 for
// sharp images on high-density screens), and saves them atomically.
class ImageExporter
{
public:
    // A view's content alone (tests read its pixels where the view has them).
    static QImage icicle(const IcicleView& view, QSize size, qreal scale = 1.0);
    static QImage lanes(const TaskLaneView& view, QSize size, qreal scale = 1.0);
    // A chart under the time ruler, `size` in all: the image tells the
    // times of what it shows, as the window does. The differential flame
    // graph comes with its colour key (DiffLegend) below, the image that
    // much higher (icicleLegendHeight).
    static QImage icicle(const IcicleView& view, const TimeRuler& ruler, QSize size, qreal scale = 1.0);
    static int icicleLegendHeight(const IcicleView& view);
    static QImage lanes(const TaskLaneView& view, const TimeRuler& ruler, QSize size, qreal scale = 1.0);
    static QImage counters(const CounterView& view, const TimeRuler& ruler, QSize size, qreal scale = 1.0);
    static QImage messages(const MessagesView& view, const TimeRuler& ruler, QSize size, qreal scale = 1.0);
    // The usage chart's plot at its size under the ruler, without the
    // controls above it (track, bins, top k) or its gutter's legend (the
    // entries that fit, "1–5 of 9 ▾"): below it every legend entry
    // ("other" included) with its mean share.
    static QImage usage(UsageChart& chart, const TimeRuler& ruler, qreal scale = 1.0);
    // The legend's height below a chart `width` px wide: for its entries,
    // or for `count` entries.
    static int usageLegendHeight(const UsageChart& chart, int width, std::optional<std::size_t> count = std::nullopt);
    // A part of a ProfileView as it is shown there, under the view's ruler
    // (File ▸ Export): the icicle, lanes, counters and messages at their size, the
    // usage chart as usage() draws it.
    static QImage part(ProfileView& view, ProfileView::Part part, qreal scale = 1.0);
    // A whole widget (the main window) at its current size.
    static QImage widget(QWidget& widget, qreal scale = 1.0);
    // PNG through QSaveFile: the file appears only when complete.
    static bool savePng(const QImage& image, const QString& path, QString* error = nullptr);
};

} // namespace runlane
