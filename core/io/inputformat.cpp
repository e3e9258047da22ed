#include "inputformat.h"

namespace runlane {

bool InputFormat::readFile(QIODevice&, const LoadControl&, ProfileBuilder&, std::int64_t&) const
{
    return false;
}

} // namespace runlane
