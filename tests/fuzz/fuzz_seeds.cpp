// For tests/fuzz/run.sh, from the FormatRegistry: `fuzz_seeds --targets`
// prints the fuzz targets (detect, load, then one per format id);
// `fuzz_seeds FILE...` prints "id<TAB>path" for each file some format
// claims, so that each format's target is seeded with that format's files
// whatever their names.
#include "formatregistry.h"

#include <QFile>

#include <cstdio>
#include <string>

using namespace runlane;

int main(int argc, char** argv)
{
    if (argc == 2 && std::string(argv[1]) == "--targets") {
        std::printf("detect\nload\n");
        for (const InputFormat* format : FormatRegistry::formats())
            std::printf("%.*s\n", int(format->id().size()), format->id().data());
        return 0;
    }
    for (int i = 1; i < argc; ++i) {
        QFile file(QFile::decodeName(argv[i]));
        if (!file.open(QIODevice::ReadOnly))
            continue;
        const QByteArray head = file.read(qint64(FormatPrefix::kSize));
        const auto detected = FormatRegistry::detect(std::string_view(head.constData(), std::size_t(head.size())),
                                                     file.atEnd());
        if (detected.format)
            std::printf("%.*s\t%s\n", int(detected.format->id().size()), detected.format->id().data(), argv[i]);
    }
    return 0;
}
