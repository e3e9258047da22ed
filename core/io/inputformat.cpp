#include "inputformat.h"

namespace runlane {

bool InputFormat::readFile(QFile&, const LoadControl&, ProfileBuilder&, std::int64_t&) const
{
    return false;
}

} // namespace runlane
