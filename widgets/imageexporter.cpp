#include "imageexporter.h"

#include "colorscheme.h"
#include "icicleview.h"
#include "tasklaneview.h"

#include <QImageWriter>
#include <QPainter>
#include <QSaveFile>
#include <QWidget>

namespace runlane {

namespace {

QImage canvas(QSize size, qreal scale)
{
    QImage image(size * scale, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(scale);
    image.fill(ColorScheme::background()); // the theme's, as the views paint it
    return image;
}

// A view's content as the view scrolls it, at another size.
template<typename View>
QImage paintView(const View& view, QSize size, qreal scale)
{
    QImage image = canvas(size, scale);
    QPainter painter(&image);
    painter.setFont(view.font());
    view.paintContent(painter, size, view.scrollY());
    return image;
}

} // namespace

QImage ImageExporter::icicle(const IcicleView& view, QSize size, qreal scale)
{
    return paintView(view, size, scale);
}

QImage ImageExporter::lanes(const TaskLaneView& view, QSize size, qreal scale)
{
    return paintView(view, size, scale);
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
