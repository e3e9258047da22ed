#pragma once

#include "chunkedfilereader.h"
#include "formatregistry.h"
#include "inputformat.h"
#include "loaderror.h"
#include "profile.h"

#include <QString>

#include <memory>

namespace runlane {

struct LoadResult {
    std::shared_ptr<const Profile> profile;
    LoadError error;
    bool ok() const { return profile != nullptr; }
};

// The one entry point from a file to a Profile: detects the format from the
// content, streams the file through that format's reader and builder, and
// turns every failure into a LoadError: no exception escapes, whatever the
// file holds. Meant to run on a worker thread.
class ProfileLoader
{
public:
    // `format` null: recognised from the content (FormatRegistry::detect).
    // Any other: read as that format whatever the content (--input-format;
    // the fuzz targets aim at one reader this way); input of another format
    // then fails with the reader's message or loads with warnings, as a
    // malformed file of that format.
    // `control.additions` are read into the same profile after the file,
    // each detected on its own (only formats that canBeAdded()), onto the
    // thread it names or the trace's main thread (AddedThread); an error
    // in one is that file's (LoadError::file, its offsets) and fails the load.
    static LoadResult load(const QString& path, const LoadControl& control = {},
                           const InputFormat* format = nullptr);
    // What the regular file at `path` holds, detected from its first bytes
    // (of its text, when it is compressed) as load() detects it, nothing
    // more read; not ok() with a problem if no format claims it or it
    // cannot be read. Anything but a regular file (a pipe) is not looked
    // into: its bytes would be gone for the load. Quick enough for the GUI
    // thread (FormatPrefix::kSize bytes at most).
    static FormatRegistry::Detection detect(const QString& path);
};

} // namespace runlane
