#pragma once

#include "profile.h"

namespace runlane {

// The same interval in another build of the same data: a loading file's
// next preview, or its whole profile, renumbers every interval (ids follow
// the layout of what has been read), so a selection is carried over by what
// the interval is: its track (by name and kind), depth, start, end and
// label. Pure, for LoadController (issue 45: the selected box was lost at
// each preview, about once a second while a big trace loads).
class IntervalMatch
{
public:
    // `id` of `from` in `to`; kNone if `to` has no such interval (a track or
    // call it has not read yet) or `id` is not one of `from`'s.
    static IntervalId find(const Profile& from, IntervalId id, const Profile& to);
};

} // namespace runlane
