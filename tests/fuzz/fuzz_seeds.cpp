// For tests/fuzz/run.sh, from the FormatRegistry: `fuzz_seeds --targets`
// prints the fuzz targets (detect, load, baseline, gzip, exposition,
// perfetto_packets, then one per format id);
// `fuzz_seeds FILE...` prints "id<TAB>path" for each file some format
// claims, so that each format's target is seeded with that format's files
// whatever their names, "baseline<TAB>path" for each baseline report,
// "gzip<TAB>path" for each gzip-compressed file and "exposition<TAB>path"
// for each Prometheus text exposition (no format's file: a live scrape).
#include "baselinereport.h"
#include "formatregistry.h"
#include "gzipdevice.h"
#include "prometheustext.h"

#include <QFile>

#include <cstdio>
#include <string>

using namespace runlane;

int main(int argc, char** argv)
{
    if (argc == 2 && std::string(argv[1]) == "--targets") {
        std::printf("detect\nload\nbaseline\ngzip\nexposition\nperfetto_packets\n");
        for (const InputFormat* format : FormatRegistry::formats())
            std::printf("%.*s\n", int(format->id().size()), format->id().data());
        return 0;
    }
    for (int i = 1; i < argc; ++i) {
        QFile file(QFile::decodeName(argv[i]));
        if (!file.open(QIODevice::ReadOnly))
            continue;
        const QByteArray head = file.read(qint64(FormatPrefix::kSize));
        const std::string_view prefix(head.constData(), std::size_t(head.size()));
        // Compressed files seed the gzip layer's target (and the loader's).
        if (GzipDevice::isGzip(head)) {
            std::printf("gzip\t%s\n", argv[i]);
            continue;
        }
        // A report is no profile format: the registry does not know it.
        if (BaselineReport::isReport(prefix)) {
            std::printf("baseline\t%s\n", argv[i]);
            continue;
        }
        // An exposition (samples, not one line the parser refuses) seeds
        // its target whatever a format's probe makes of it.
        const PrometheusText::Result exposition = PrometheusText::parse(prefix, 0);
        if (exposition.samples > 0 && exposition.malformedLines == 0 && exposition.invalidUtf8Lines == 0)
            std::printf("exposition\t%s\n", argv[i]);
        const auto detected = FormatRegistry::detect(prefix, file.atEnd());
        if (detected.format)
            std::printf("%.*s\t%s\n", int(detected.format->id().size()), detected.format->id().data(), argv[i]);
    }
    return 0;
}
