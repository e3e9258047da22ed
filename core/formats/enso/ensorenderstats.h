#pragma once

#include "profilebuilder.h"

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

namespace runlane {

// The numbers of an Enso process's `RenderStats` (formats.md (n)) as
// counter tracks, one per field ("RenderStats draw_call_count"), besides
// the marks that keep the payloads whole. A payload that lacks some of the
// fields (or holds something else than a number there) is a warning naming
// its event and the fields; its other numbers are kept.
class EnsoRenderStats
{
public:
    // The fields Enso's renderer writes, in its order.
    static constexpr std::array<std::string_view, 14> kFields{
        "frame_time", "fps", "wasm_memory_usage", "gpu_memory_usage", "draw_call_count", "buffer_count",
        "data_upload_count", "data_upload_size", "sprite_system_count", "sprite_count", "symbol_count", "mesh_count",
        "shader_count", "shader_compile_count"};

    // Event #`index` at `t` (µs since its process's origin) with `json`.
    void add(std::uint64_t t, std::string_view json, std::uint64_t index, Diagnostics& diagnostics);
    // The counters of a process, its times through `toTime`; then empty.
    template <typename ToTime>
    void flush(ProfileBuilder& builder, std::int64_t pid, ToTime&& toTime)
    {
        std::array<std::size_t, kFields.size()> series{};
        std::array<bool, kFields.size()> made{};
        for (const Point& point : m_points) {
            if (!made[point.field]) {
                series[point.field] = builder.addCounter(builder.intern("RenderStats"),
                                                         builder.intern(kFields[point.field]), pid);
                made[point.field] = true;
            }
            builder.addCounterPoint(series[point.field], toTime(point.t), point.value);
        }
        m_points.clear();
    }

private:
    struct Point {
        std::uint64_t t;
        double value;
        std::uint8_t field;
    };
    std::vector<Point> m_points;
};

} // namespace runlane
