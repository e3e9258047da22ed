#pragma once

#include <QString>
#include <QStringList>

class QWidget;

namespace runlane {

// Help ▸ User Guide: the Markdown guide of docs/, opened in the desktop's
// program for it. The Debian package installs it beside the program
// (/usr/bin/runlane: /usr/share/doc/runlane/guide/); run from a build tree,
// the source tree's docs/ (its path is compiled in) is the guide.
class UserGuide
{
public:
    // The file opened: the viewer's guide, which links to the others.
    static QString indexName();
    // Where the package installs the guide for a program in `programDir`.
    static QString installedFolder(const QString& programDir);
    // The folders looked in, in order: the installed guide of this
    // program, then the source tree's docs/.
    static QStringList folders();
    // The index in the first of `folders` that holds it; empty if none does.
    static QString indexIn(const QStringList& folders);
    // Opens the index found in `where`; returns why it could not (empty
    // when it was handed to the desktop).
    static QString open(const QStringList& where = folders());
    // open(), and a message box saying why where it failed.
    static void show(QWidget* parent);
};

} // namespace runlane
