#pragma once

// What a converter must keep of a profile, as comparable text, for the
// round-trip tests of the writers (tst_chrometracewriter,
// tst_perfettotracewriter): load, write, load again, compare.

#include "measurementmetrics.h"
#include "profile.h"
#include "ranktable.h"

#include <QString>
#include <QStringList>

namespace runlane::test {

// The rank as comparable text: every column, values in raw ticks (a sample
// profile is written one sample per microsecond, so ticks compare 1:1).
inline QString rankText(const Profile& p)
{
    RankTable t = RankTable::compute(MeasurementMetrics(p));
    t.sort(p, RankSortKey::Name, false);
    QString text;
    for (const RankRow& r : t.rows()) {
        text += QString::fromStdString(p.labelText(r.label));
        for (const qint64 v : {qint64(r.calls), qint64(r.unfinished), qint64(r.stillborn), qint64(r.primitive),
                               qint64(r.failed), qint64(r.cancelled), qint64(r.exec), qint64(r.total), qint64(r.wall),
                               qint64(r.max), qint64(r.mean), qint64(r.p50), qint64(r.p90), qint64(r.p99),
                               qint64(r.wallMax), qint64(r.wallP50), qint64(r.wallP90), qint64(r.wallP99)})
            text += QLatin1Char(',') + QString::number(v);
        text += QLatin1Char('\n');
    }
    return text;
}

// Every flow as "name@start/depth>name@start/depth" by its two ends, sorted:
// interval ids may differ between two loads, what they show may not.
// `withNames`: and the flow's own name after them.
inline QStringList flowTexts(const Profile& p, bool withNames = true)
{
    auto end = [&p](IntervalId id) {
        const Interval& iv = p.interval(id);
        return QStringLiteral("%1@%2/%3")
            .arg(QString::fromStdString(std::string(p.labelName(p.measurement(iv.measurement).label))))
            .arg(iv.start)
            .arg(p.depthOf(id));
    };
    QStringList out;
    for (const Flow& f : p.flows())
        out << end(f.from) + QLatin1Char('>') + end(f.to)
                + (withNames ? QLatin1Char(' ') + QString::fromStdString(std::string(p.string(f.name))) : QString());
    out.sort();
    return out;
}

} // namespace runlane::test
