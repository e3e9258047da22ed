#include "loaderror.h"

namespace runlane {

std::string LoadError::toString() const
{
    std::string text = file;
    std::string where;
    if (byteOffset >= 0 && line > 0)
        where += "line " + std::to_string(line) + ", column " + std::to_string(column) + " (byte "
            + std::to_string(byteOffset) + ")";
    else if (byteOffset >= 0)
        where += "byte " + std::to_string(byteOffset);
    if (byteOffset >= 0 && compressed)
        where += " of the decompressed text";
    if (eventIndex >= 0) {
        if (!where.empty())
            where += ", ";
        where += "event #" + std::to_string(eventIndex);
    }
    if (!where.empty())
        text += (text.empty() ? "" : ": ") + where;
    if (!message.empty())
        text += (text.empty() ? "" : ": ") + message;
    return text;
}

} // namespace runlane
