#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

namespace runlane {

// Thrown when a load would take more memory than there is; the loader turns
// it into a LoadError instead of letting the kernel kill the process.
class OutOfMemory : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

// How much memory a load may still take, and whether it is about to run out.
// Linux overcommits: allocations succeed until the OOM killer ends the
// process, so std::bad_alloc alone protects nothing. The guard reads
// MemAvailable (/proc/meminfo); RUNLANE_MEMORY_LIMIT (bytes, or with a K, M
// or G suffix) caps what one load may take instead, judged by the same
// estimate as a file of known size; for shared machines.
class MemoryGuard
{
public:
    MemoryGuard();

    // Bytes this load may still use; nullopt if nothing can be known.
    std::optional<std::int64_t> available() const;
    // Peak memory of a load from a file of `bytes`: the model, the parse
    // buffers and the build's temporary arrays, `perByte` times the input
    // plus 64 MiB.
    std::int64_t estimate(std::int64_t bytes) const;
    // Measured peaks: 1.3 x the file for generated Chrome traces (JSON
    // events of ~100 bytes); 14 x for folded stacks of 11-byte lines, where
    // every line is a sample of its own.
    void setPerByte(double perByte) { m_perByte = perByte; }
    // Throws OutOfMemory if a file of `bytes` needs more than is available.
    void checkFileSize(std::int64_t bytes) const;
    // Throws OutOfMemory if less than a safety margin is left. Reads two
    // small /proc files: call it per MiB of input, not per event.
    void checkWhileReading(std::int64_t bytesRead) const;

    static std::string sizeText(std::int64_t bytes); // "1.5 GiB"

private:
    std::optional<std::int64_t> m_limit; // RUNLANE_MEMORY_LIMIT
    double m_perByte = 1.5;
};

} // namespace runlane
