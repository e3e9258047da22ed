#pragma once

// What the tests of Chroprof's metrics compare: snapshot rows and rank rows
// as one line each, every figure in it, so that a QCOMPARE shows them all.

#include "profile.h"
#include "ranktable.h"
#include "scrapedsnapshot.h"

#include <QStringList>

namespace runlane::test {

// "proc|file|line exec=.. max=.. children=.. wall=.. calls=.." a row.
inline QStringList rowLines(const ScrapedSnapshot& s)
{
    QStringList lines;
    for (const NamedAggregateRow& r : s.rows) {
        const AggregateRow& v = r.values;
        lines << QStringLiteral("%1|%2|%3 exec=%4 max=%5 children=%6 wall=%7 calls=%8")
                     .arg(QString::fromStdString(r.procedure), QString::fromStdString(r.file))
                     .arg(r.line)
                     .arg(v.exec)
                     .arg(v.execMax)
                     .arg(v.childrenExec)
                     .arg(v.wall)
                     .arg(v.calls);
    }
    return lines;
}

// "name calls=.. stillborn=.. zombies=.. exec=.. total=.. wall=.. max=.. mean=.." a rank row.
inline QStringList rankLines(const Profile& p, const RankTable& t)
{
    QStringList lines;
    for (const RankRow& r : t.rows()) {
        lines << QStringLiteral("%1 calls=%2 stillborn=%3 zombies=%4 exec=%5 total=%6 wall=%7 max=%8 mean=%9")
                     .arg(QString::fromStdString(std::string(p.labelName(r.label))))
                     .arg(r.calls)
                     .arg(r.stillborn)
                     .arg(r.zombieEvents)
                     .arg(r.exec)
                     .arg(r.total)
                     .arg(r.wall)
                     .arg(r.max)
                     .arg(r.mean);
    }
    return lines;
}

} // namespace runlane::test
