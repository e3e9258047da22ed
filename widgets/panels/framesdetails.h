#pragma once

#include "frameseries.h"

#include <QCoreApplication>
#include <QString>

namespace runlane {

// The details pane's frame statistics (issue 43) of the frames that start
// in [from, to): the selected range, or the visible one. Figures as
// `runlane-cli frames` gives them.
class FramesDetails
{
    Q_DECLARE_TR_FUNCTIONS(FramesDetails)

public:
    // An HTML section: a heading saying which range, then a table.
    static QString html(const FrameSeries& frames, Time from, Time to, bool selection);
};

} // namespace runlane
