#pragma once

// Helpers for the widget tests: a prepared profile from inline JSON, the
// first interval of a label, and pixel colours of rendered images.

#include "loadedprofile.h"
#include "testsupport.h"

#include <QImage>
#include <QTest>

namespace runlane::test {

// Loads inline text the way the app does (loader, then prepare).
inline LoadedProfile loadedText(const QByteArray& text, const QString& path = QStringLiteral("inline.json"))
{
    LoadResult result = loadText(text);
    if (!result.ok())
        return {};
    return LoadedProfile::prepare(std::move(result.profile), path);
}

inline LoadedProfile loadedFile(const QString& path)
{
    LoadResult result = ProfileLoader::load(path);
    if (!result.ok())
        return {};
    return LoadedProfile::prepare(std::move(result.profile), path);
}

// The first interval of the first measurement with this label name.
inline IntervalId intervalNamed(const Profile& p, std::string_view name)
{
    const MeasurementId m = byName(p, name);
    return m == kNone || p.intervalsOf(m).empty() ? kNone : p.intervalsOf(m).front();
}

// The colour at a point given in logical pixels of a (possibly scaled) image.
inline QRgb pixelAt(const QImage& image, QPointF logical)
{
    const QPoint device = (logical * image.devicePixelRatio()).toPoint();
    return image.pixel(device) & 0xffffffu;
}

inline QRgb rgb(QRgb color)
{
    return color & 0xffffffu;
}

} // namespace runlane::test
