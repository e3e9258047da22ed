#pragma once

#include "chunkedfilereader.h"
#include "formatdetector.h"
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
    // `format` Unknown: recognised from the content. Any other: read as
    // that format whatever the content (the fuzz targets aim at one reader
    // this way); input of another format then fails with a FormatError's
    // message or loads with warnings, as a malformed file of that format.
    static LoadResult load(const QString& path, const LoadControl& control = {},
                           ProfileFormat format = ProfileFormat::Unknown);
};

} // namespace runlane
