#pragma once

#include <QString>

#include <string_view>

namespace runlane {

// The model's names and texts are UTF-8 std::strings; this is how every
// view and store turns one into a QString.
inline QString qs(std::string_view text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

} // namespace runlane
