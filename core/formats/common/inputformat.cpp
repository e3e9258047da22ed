#include "inputformat.h"

#include "loaderror.h"

#include <string>

namespace runlane {

bool InputFormat::readFile(QIODevice&, const LoadControl&, ProfileBuilder&, std::int64_t&) const
{
    return false;
}

void InputFormat::readAddition(ChunkedFileReader&, ProfileBuilder&, const TrackInfo&) const
{
    throw FormatError(std::string(name()) + " files cannot be added to a trace");
}

} // namespace runlane
