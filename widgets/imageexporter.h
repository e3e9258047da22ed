#pragma once

#include <QImage>
#include <QSize>
#include <QString>

class QWidget;

namespace runlane {

class IcicleView;
class TaskLaneView;

// Renders views to images for File ▸ Export and `runlane-cli render`: at the
// requested size in logical pixels, times `scale` device pixels (2 for
// sharp images on high-density screens), and saves them atomically.
class ImageExporter
{
public:
    static QImage icicle(const IcicleView& view, QSize size, qreal scale = 1.0);
    static QImage lanes(const TaskLaneView& view, QSize size, qreal scale = 1.0);
    // A whole widget (the main window) at its current size.
    static QImage widget(QWidget& widget, qreal scale = 1.0);
    // PNG through QSaveFile: the file appears only when complete.
    static bool savePng(const QImage& image, const QString& path, QString* error = nullptr);
};

} // namespace runlane
