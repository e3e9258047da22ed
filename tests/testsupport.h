#pragma once

// Small helpers shared by the tests: where the test data is, and loading a
// profile from text written inline in a test.

#include "profileloader.h"

#include <QByteArray>
#include <QString>
#include <QTemporaryDir>
#include <QFile>

// JSON test input written as plain tokens: JSON([{"ph": "X"}]). The
// preprocessor turns it into the text, escaping quotes for us; moc cannot
// read raw string literals reliably, so tests use this instead.
#define JSON(...) QByteArray(#__VA_ARGS__)

namespace runlane::test {

inline QString dataPath(const QString& relative)
{
    return QStringLiteral(RUNLANE_TEST_DATA "/") + relative;
}

// Writes `text` to a temporary file and loads it.
inline LoadResult loadText(const QByteArray& text, const LoadControl& control = {})
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("profile.json"));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text) != text.size())
        return {};
    file.close();
    return ProfileLoader::load(path, control);
}

} // namespace runlane::test
