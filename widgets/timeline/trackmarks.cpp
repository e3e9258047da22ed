#include "trackmarks.h"

#include "colorscheme.h"
#include "profile.h"
#include "qstringutf8.h"
#include "timeaxis.h"
#include "valueformat.h"

#include <QCoreApplication>
#include <QPainter>
#include <QPainterPath>
#include <QPalette>

#include <algorithm>
#include <cmath>
#include <map>

namespace runlane {

namespace {

// TrackMarks is no QObject: its texts are translated in its own context.
QString trackMarksTr(const char* text)
{
    return QCoreApplication::translate("runlane::TrackMarks", text);
}

} // namespace

void TrackMarks::build(const Profile* profile)
{
    m_profile = profile;
    m_tracks.clear();
    m_count = 0;
    if (!profile || !profile->hasTimestamps() || profile->trackCount() == 0 || profile->marks().empty())
        return;
    m_tracks.resize(profile->trackCount());
    // A process's marks go to its first track; global ones to the first.
    std::map<std::int64_t, TrackId> firstOfProcess;
    for (TrackId t = profile->trackCount(); t-- > 0;)
        firstOfProcess[profile->track(t).pid] = t;
    const std::vector<Mark>& marks = profile->marks();
    for (std::uint32_t k = 0; k < marks.size(); ++k) {
        const Mark& m = marks[k];
        TrackId track = 0;
        if (m.scope == MarkScope::Thread && m.track < profile->trackCount()) {
            track = m.track;
        } else if (m.scope != MarkScope::Global) {
            const auto it = firstOfProcess.find(m.pid);
            track = it != firstOfProcess.end() ? it->second : 0;
        }
        // The marks are in time order (ProfileFinisher), so each track's list is too.
        m_tracks[track].marks.push_back(k);
        m_tracks[track].times.push_back(m.time);
        ++m_count;
    }
}

std::vector<TrackMarks::Glyph> TrackMarks::glyphs(TrackId track, const TimeAxis& axis, int timeWidth) const
{
    std::vector<Glyph> glyphs;
    if (track >= m_tracks.size())
        return glyphs;
    const std::vector<Time>& times = m_tracks[track].times;
    auto it = std::lower_bound(times.begin(), times.end(), axis.visibleStart());
    const auto end = std::lower_bound(it, times.end(), axis.visibleEnd());
    while (it < end) {
        const int x = int(std::floor(axis.xFor(*it, timeWidth)));
        // Whatever lies less than kGlyphSpacing px right of this mark's
        // column shares its diamond.
        const Time reach = axis.timeAt(double(x + kGlyphSpacing), timeWidth);
        const auto next = std::max(it + 1, std::lower_bound(it + 1, end, reach));
        glyphs.push_back({x, std::size_t(it - times.begin()), std::size_t(next - times.begin())});
        it = next;
    }
    return glyphs;
}

void TrackMarks::paint(QPainter& p, TrackId track, const TimeAxis& axis, const QRect& band, const QPalette& palette) const
{
    if (track >= m_tracks.size() || m_tracks[track].marks.empty())
        return;
    const Marks& marks = m_tracks[track];
    const double mid = band.top() + band.height() / 2.0;
    p.save();
    p.setClipRect(band);
    p.setRenderHint(QPainter::Antialiasing, true);
    auto diamond = [&](double x) {
        QPainterPath path;
        path.moveTo(x, mid - kHalf);
        path.lineTo(x + kHalf, mid);
        path.lineTo(x, mid + kHalf);
        path.lineTo(x - kHalf, mid);
        path.closeSubpath();
        return path;
    };
    for (const Glyph& g : glyphs(track, axis, band.width())) {
        const bool merged = g.last - g.first > 1;
        const QPainterPath path = diamond(band.left() + g.x + 0.5);
        const Mark& first = m_profile->marks()[marks.marks[g.first]];
        p.fillPath(path, merged ? ColorScheme::merged() : ColorScheme::forText(m_profile->string(first.name)));
        p.setPen(QPen(palette.color(QPalette::WindowText), merged ? 1.5 : 0.5));
        p.drawPath(path);
        ++m_paintedGlyphs;
        m_mergedGlyphs += merged ? 1 : 0;
        m_paintedMarks += g.last - g.first;
    }
    // The selected mark: a ring at its own time, merged or not.
    const std::uint32_t selected = axis.selectedMark();
    const auto at = std::lower_bound(marks.marks.begin(), marks.marks.end(), selected);
    if (selected != kNone && at != marks.marks.end() && *at == selected) {
        const Time t = marks.times[std::size_t(at - marks.marks.begin())];
        if (t >= axis.visibleStart() && t < axis.visibleEnd()) {
            p.setPen(QPen(ColorScheme::selection(), 2));
            p.setBrush(Qt::NoBrush);
            p.drawEllipse(QPointF(band.left() + std::floor(axis.xFor(t, band.width())) + 0.5, mid), kHalf + 2.5,
                          kHalf + 2.5);
        }
    }
    p.restore();
}

bool TrackMarks::glyphAt(TrackId track, const TimeAxis& axis, int timeWidth, double x, Glyph& glyph) const
{
    // The diamonds as painted: the nearest one within its half width.
    double best = kHalf + 1;
    bool found = false;
    for (const Glyph& g : glyphs(track, axis, timeWidth)) {
        const double distance = std::abs(g.x + 0.5 - x);
        if (distance < best) {
            best = distance;
            glyph = g;
            found = true;
        }
    }
    return found;
}

std::uint32_t TrackMarks::markAt(TrackId track, const TimeAxis& axis, int timeWidth, double x) const
{
    Glyph glyph{};
    return glyphAt(track, axis, timeWidth, x, glyph) ? m_tracks[track].marks[glyph.first] : kNone;
}

QString TrackMarks::describe(TrackId track, const TimeAxis& axis, int timeWidth, double x) const
{
    Glyph glyph{};
    if (!glyphAt(track, axis, timeWidth, x, glyph))
        return {};
    const Profile& p = *m_profile;
    const Marks& marks = m_tracks[track];
    const Mark& first = p.marks()[marks.marks[glyph.first]];
    const QString at = QString::fromStdString(ValueFormat::point(first.time - p.startTime(), p.unit()));
    const std::size_t count = glyph.last - glyph.first;
    if (count == 1)
        return trackMarksTr("%1 (mark)\nat %2").arg(qs(p.string(first.name)), at);
    const Mark& last = p.marks()[marks.marks[glyph.last - 1]];
    return trackMarksTr("%1 marks from %2 to %3 (zoom in to tell them apart)\nthe first: %4")
        .arg(count)
        .arg(at, QString::fromStdString(ValueFormat::point(last.time - p.startTime(), p.unit())), qs(p.string(first.name)));
}

} // namespace runlane
