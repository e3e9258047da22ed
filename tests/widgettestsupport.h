#pragma once

// Helpers for the widget tests: a prepared profile from inline JSON, the
// first interval of a label, and pixel colours of rendered images.

#include "loadedprofile.h"
#include "testsupport.h"

#include <QImage>
#include <QLabel>
#include <QTest>

#include <tuple>

namespace runlane::test {

// A trace with flows across threads, ts and dur in µs:
//   main:   post [0, 100)  ...  reply [700, 900)
//   worker:        handle [300, 500)
// post causes handle (s, f with bp e), handle causes reply.
inline QByteArray requestReply()
{
    return JSON([{"ph" : "M", "pid" : 1, "tid" : 1, "name" : "thread_name", "args" : {"name" : "main"}},
                 {"ph" : "M", "pid" : 1, "tid" : 2, "name" : "thread_name", "args" : {"name" : "worker"}},
                 {"ph" : "X", "pid" : 1, "tid" : 1, "name" : "post", "ts" : 0, "dur" : 100},
                 {"ph" : "s", "pid" : 1, "tid" : 1, "name" : "request", "id" : 1, "ts" : 50},
                 {"ph" : "X", "pid" : 1, "tid" : 2, "name" : "handle", "ts" : 300, "dur" : 200},
                 {"ph" : "f", "pid" : 1, "tid" : 2, "name" : "request", "id" : 1, "ts" : 350, "bp" : "e"},
                 {"ph" : "s", "pid" : 1, "tid" : 2, "name" : "response", "id" : 2, "ts" : 400},
                 {"ph" : "X", "pid" : 1, "tid" : 1, "name" : "reply", "ts" : 700, "dur" : 200},
                 {"ph" : "f", "pid" : 1, "tid" : 1, "name" : "response", "id" : 2, "ts" : 690}]);
}

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

// semantics.md §9's worked example (tests/data/profiles/README.md), as the
// viewer holds it: handler runs 0–10 and creates query, which creates the
// timer sleepAsync; the timer completes at 11, other holds the loop 12–40,
// query resumes 40–46, flush runs 46–50, handler resumes 50–52.
inline LoadedProfile criticalPathExample()
{
    return loadedFile(QStringLiteral(RUNLANE_TEST_DATA "/profiles/chronos-critical-path.json"));
}

// Marks what `builder` builds as not its whole file: a preview of a
// loading file (that keeps boxes of `shortestKept` or more) or a load cut
// and kept.
inline void markPartial(ProfileBuilder& builder, PartialLoad::Kind kind, Time shortestKept = 0)
{
    PartialLoad part;
    part.kind = kind;
    part.shortestKept = shortestKept;
    builder.setPartial(part);
}

// A load's version of one thread's calls, of those named: main [0, 1000)
// µs around load [100, 200) and parse [500, 600); a preview (that keeps
// boxes of `shortestKept` or more), or the whole profile.
inline LoadedProfile loadVersion(const QStringList& names, bool preview, Time shortestKept = 0)
{
    ProfileBuilder builder("Chrome Trace Event Format");
    const TrackId track = builder.addTrack(TrackInfo{});
    std::uint32_t order = 0;
    for (const auto& [name, start, end] : {std::tuple{"load", 100, 200}, {"parse", 500, 600}, {"main", 0, 1000}}) {
        if (names.contains(QLatin1String(name)))
            builder.addCall(track, builder.label(name), Time(start) * 1000, Time(end) * 1000, order++);
    }
    if (preview)
        markPartial(builder, PartialLoad::Kind::Preview, shortestKept);
    return LoadedProfile::prepare(builder.build(), QStringLiteral("t.json"));
}

// The first interval of the first measurement with this label name.
inline IntervalId intervalNamed(const Profile& p, std::string_view name)
{
    const MeasurementId m = byName(p, name);
    return m == kNone || p.intervalsOf(m).empty() ? kNone : p.intervalsOf(m).front();
}

// The texts of every QLabel under `widget`, each followed by '|': what a
// panel's top row says (RankPanel's count and banner).
inline QString labelTexts(const QWidget& widget)
{
    QString text;
    for (const QLabel* l : widget.findChildren<QLabel*>())
        text += l->text() + QLatin1Char('|');
    return text;
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
