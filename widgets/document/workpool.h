#pragma once

class QThreadPool;

namespace runlane {

// The threads Runlane's own background work runs on: loads, the views'
// jobs (rank, usage, call tree, critical path), compare runs, live
// versions. Not Qt's global pool: Qt 6.4's raster paint engine splits a
// big fill across that pool and waits for it (QRasterPaintEngine::fillRect,
// QSemaphore::acquire), so while a rank of 41 M measurements occupied both
// of its threads the window's first paint of a 50 M profile waited 1-2.4 s
// (perf sched, 2026-12-07). As many threads as cores; created on first use.
QThreadPool* workPool();

} // namespace runlane
