// libFuzzer target: bytes → a file → ProfileLoader::load, then every core
// analysis of what loaded. Built once per entry point: RUNLANE_FUZZ_FORMAT
// is Unknown (format detection, then whichever reader it picks) or one
// format, forced whatever the content, so that the fuzzer works on that
// reader's parser and builder. Anything that crashes, hangs, leaks or trips
// a sanitizer here is a bug; an error result is fine.
//
// The input goes through a real file because that is the loaders' only
// entry (chunked reads, the fast Chrome path's reader thread, seeking back
// to the reference path); /dev/shm keeps it in memory.
#include "calltree.h"
#include "labelindex.h"
#include "measurementmetrics.h"
#include "profileloader.h"
#include "rankformatter.h"
#include "ranktable.h"
#include "usageseries.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <unistd.h>

#include <cstdint>
#include <cstdlib>

using namespace runlane;

namespace {

QString inputPath()
{
    const QString dir = QFileInfo(QStringLiteral("/dev/shm")).isWritable() ? QStringLiteral("/dev/shm") : QDir::tempPath();
    return QStringLiteral("%1/runlane-fuzz-%2.json").arg(dir).arg(::getpid());
}

// What the viewer and runlane-cli compute from a profile.
void analyse(const Profile& profile)
{
    const MeasurementMetrics metrics(profile);
    const RankTable whole = RankTable::compute(metrics);
    const Time third = profile.duration() / 3;
    const RankTable middle = RankTable::compute(metrics, TimeRange{profile.startTime() + third, profile.endTime() - third});
    const RankTable instant = RankTable::compute(metrics, TimeRange{profile.startTime(), profile.startTime() + 1});
    if (RankFormatter::json(profile, whole).empty() || RankFormatter::table(profile, middle).empty()
        || RankFormatter::csv(profile, instant).empty())
        std::abort(); // each has at least its header
    const Time bin = UsageSeries::defaultBinWidth(profile.duration());
    for (TrackId t = 0; t < profile.trackCount() && t < 4; ++t)
        UsageSeries::compute(profile, t, bin, 8);
    const CallTree tree(profile);
    const LabelIndex labels(profile);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static const QString path = inputPath();
    {
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)
            || file.write(reinterpret_cast<const char*>(data), qint64(size)) != qint64(size))
            std::abort(); // the harness itself is broken
    }
    const LoadResult result = ProfileLoader::load(path, {}, ProfileFormat::RUNLANE_FUZZ_FORMAT);
    if (result.ok())
        analyse(*result.profile);
    else if (result.error.message.empty())
        std::abort(); // every failure must say what went wrong
    return 0;
}
