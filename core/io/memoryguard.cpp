#include "memoryguard.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>


namespace runlane {

namespace {

// What is left when reading must stop: enough for the rest of the process
// (the GUI, the profile already open) to carry on.
constexpr std::int64_t kMargin = 128ll << 20;

std::optional<std::int64_t> memAvailable()
{
    std::FILE* f = std::fopen("/proc/meminfo", "r");
    if (!f)
        return std::nullopt;
    char line[256];
    std::optional<std::int64_t> kib;
    while (std::fgets(line, sizeof line, f)) {
        long long value = 0;
        if (std::sscanf(line, "MemAvailable: %lld kB", &value) == 1) {
            kib = value;
            break;
        }
    }
    std::fclose(f);
    if (!kib)
        return std::nullopt;
    return *kib * 1024;
}

std::optional<std::int64_t> parseLimit(const char* text)
{
    if (!text || !*text)
        return std::nullopt;
    char* end = nullptr;
    const double value = std::strtod(text, &end);
    double scale = 1;
    if (*end == 'K' || *end == 'k')
        scale = 1024.0;
    else if (*end == 'M' || *end == 'm')
        scale = 1024.0 * 1024;
    else if (*end == 'G' || *end == 'g')
        scale = 1024.0 * 1024 * 1024;
    else if (*end != '\0')
        return std::nullopt;
    if (!(value > 0) || value * scale > 9e18)
        return std::nullopt;
    return std::int64_t(value * scale);
}

} // namespace

MemoryGuard::MemoryGuard() : m_limit(parseLimit(std::getenv("RUNLANE_MEMORY_LIMIT"))) {}

std::optional<std::int64_t> MemoryGuard::available() const
{
    return m_limit ? m_limit : memAvailable();
}

std::int64_t MemoryGuard::estimate(std::int64_t bytes) const
{
    return std::int64_t(double(bytes) * m_perByte) + (64ll << 20);
}

void MemoryGuard::checkFileSize(std::int64_t bytes) const
{
    const std::optional<std::int64_t> free = available();
    if (!free || estimate(bytes) <= *free)
        return;
    throw OutOfMemory("loading this " + sizeText(bytes) + " file needs about " + sizeText(estimate(bytes))
                      + " of memory, more than the " + sizeText(std::max<std::int64_t>(0, *free))
                      + (m_limit ? " that RUNLANE_MEMORY_LIMIT allows" : " available"));
}

void MemoryGuard::checkWhileReading(std::int64_t bytesRead) const
{
    // A limit is held to the same estimate as a file of known size (the
    // process's resident size says little: freed memory is reused).
    if (m_limit) {
        if (estimate(bytesRead) > *m_limit)
            throw OutOfMemory("out of memory after reading " + sizeText(bytesRead)
                              + " of the file (RUNLANE_MEMORY_LIMIT reached)");
        return;
    }
    const std::optional<std::int64_t> free = available();
    if (!free || *free >= kMargin)
        return;
    throw OutOfMemory("out of memory after reading " + sizeText(bytesRead) + " of the file ("
                      + sizeText(std::max<std::int64_t>(0, *free)) + " left)");
}

std::string MemoryGuard::sizeText(std::int64_t bytes)
{
    const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
    double value = double(bytes);
    int unit = 0;
    while (value >= 1024 && unit < 4) {
        value /= 1024;
        ++unit;
    }
    char text[32];
    if (unit == 0)
        std::snprintf(text, sizeof text, "%lld bytes", static_cast<long long>(bytes));
    else
        std::snprintf(text, sizeof text, "%.1f %s", value, units[unit]);
    return text;
}

} // namespace runlane
