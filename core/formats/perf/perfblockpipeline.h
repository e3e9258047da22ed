#pragma once

#include "blockpipeline.h"
#include "perfblocksplitter.h"

namespace runlane {

// Reads `perf script` text on a second thread: a producer runs a
// PerfBlockSplitter over the input (the reading, the line splitting and,
// when it is ahead, the header parsing) while PerfScriptReader walks the
// blocks it made before, in file order (BlockPipeline).
using PerfBlockPipeline = BlockPipeline<PerfBlockSplitter>;

} // namespace runlane
