#pragma once

#include "scrapedsnapshot.h"

#include <QIODevice>
#include <QString>

#include <string>

namespace runlane {

// Writes snapshots as they arrive in Chroprof's snapshots format
// ({"chroprofSnapshots": 1, "snapshots": [...]}, one snapshot a line), the
// file a live recording is kept in. Each snapshot goes out in one write and
// is flushed, so a writer killed at any moment leaves a file that ends
// after a complete snapshot or inside the next one: the reader loads a
// file cut short up to its last complete snapshot.
class ChroprofSnapshotWriter
{
public:
    // `out` is open for writing and outlives the writer.
    explicit ChroprofSnapshotWriter(QIODevice* out);

    // The header. False (errorString() says why) when the device refuses it.
    bool begin();
    bool write(const ScrapedSnapshot& snapshot);
    // Closes the array and the object; the device stays open.
    bool finish();
    QString errorString() const { return m_error; }

    // One snapshot as the file holds it, without separator: {"t": ..., "rows": [...]}.
    static void serialize(const ScrapedSnapshot& snapshot, std::string& out);

private:
    bool put(const std::string& bytes);

    QIODevice* m_out;
    std::string m_buffer; // reused: a snapshot of 5,000 rows is ~1 MB
    std::uint64_t m_written = 0;
    bool m_begun = false;
    bool m_finished = false;
    QString m_error;
};

} // namespace runlane
