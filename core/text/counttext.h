#pragma once

#include <QString>

namespace runlane {

// "1 task", "2 tasks", "14,791 tasks": counts for people. Qt's "%n" plural
// forms need a translation loaded even for English, which this viewer does
// not ship.
inline QString countText(qint64 n, const char* one, const char* many)
{
    return QStringLiteral("%L1 %2").arg(n).arg(QString::fromLatin1(n == 1 ? one : many));
}

} // namespace runlane
