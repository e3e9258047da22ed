// libFuzzer target: bytes → a file → ProfileLoader::load, then every core
// analysis of what loaded. Built once per entry point: RUNLANE_FUZZ_FORMAT
// is "" (format detection, then whichever reader it picks) or the id of one
// format in the FormatRegistry, forced whatever the content, so that the
// fuzzer works on that reader's parser and builder. Anything that crashes, hangs, leaks or trips
// a sanitizer here is a bug; an error result is fine.
//
// The input goes through a real file because that is the loaders' only
// entry (chunked reads, the fast Chrome path's reader thread, seeking back
// to the reference path); /dev/shm keeps it in memory.
#include "analyseprofile.h"
#include "formatregistry.h"
#include "profileloader.h"

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
    static const InputFormat* const format = [] {
        const std::string_view id = RUNLANE_FUZZ_FORMAT;
        const InputFormat* found = FormatRegistry::find(id);
        if (!id.empty() && !found)
            std::abort(); // the build names a format the registry does not have
        return found;
    }();
    const LoadResult result = ProfileLoader::load(path, {}, format);
    if (result.ok())
        fuzz::analyseProfile(*result.profile);
    else if (result.error.message.empty())
        std::abort(); // every failure must say what went wrong
    // A Chrome trace is read by the fast JSON path unless RUNLANE_JSON is
    // "reference" (core/formats/chrome/chromefastreader.h); the same bytes
    // go through the reference path too, which must agree. This is what
    // runs the reference path under the sanitizers on hostile input (the
    // tests' _reference twins run in the normal build only).
    static const bool bothPaths = format == nullptr || format->id() == "chrome";
    if (bothPaths) {
        ::setenv("RUNLANE_JSON", "reference", 1);
        const LoadResult reference = ProfileLoader::load(path, {}, format);
        ::unsetenv("RUNLANE_JSON");
        if (reference.ok() != result.ok())
            std::abort(); // one path read what the other refused
        if (reference.ok()
            && (reference.profile->intervals().size() != result.profile->intervals().size()
                || reference.profile->measurements().size() != result.profile->measurements().size()
                || reference.profile->labelCount() != result.profile->labelCount()))
            std::abort(); // the paths read different profiles
        if (!reference.ok() && reference.error.message.empty())
            std::abort();
    }
    return 0;
}
