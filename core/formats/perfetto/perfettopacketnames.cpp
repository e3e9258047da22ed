#include "perfettopacketnames.h"

#include <algorithm>
#include <iterator>

namespace runlane {

namespace {

struct Entry {
    std::uint32_t field;
    const char* name;
};

// google/perfetto protos/perfetto/trace/perfetto_trace.proto, TracePacket,
// sorted by field number.
constexpr Entry kNames[] = {
        {1, "ftrace_events"},
        {2, "process_tree"},
        {4, "inode_file_map"},
        {5, "chrome_events"},
        {6, "clock_snapshot"},
        {7, "sys_stats"},
        {9, "process_stats"},
        {11, "track_event"},
        {33, "trace_config"},
        {34, "ftrace_stats"},
        {35, "trace_stats"},
        {37, "profile_packet"},
        {38, "battery"},
        {39, "android_log"},
        {40, "power_rails"},
        {43, "process_descriptor"},
        {44, "thread_descriptor"},
        {45, "system_info"},
        {46, "trigger"},
        {47, "packages_list"},
        {48, "chrome_benchmark_metadata"},
        {49, "perfetto_metatrace"},
        {51, "chrome_metadata"},
        {52, "gpu_counter_event"},
        {53, "gpu_render_stage_event"},
        {54, "streaming_profile_packet"},
        {57, "graphics_frame_event"},
        {60, "track_descriptor"},
        {61, "module_symbols"},
        {62, "vulkan_memory_event"},
        {63, "gpu_log"},
        {64, "deobfuscation_mapping"},
        {65, "vulkan_api_event"},
        {66, "perf_sample"},
        {67, "cpu_info"},
        {68, "smaps_packet"},
        {69, "service_event"},
        {70, "initial_display_state"},
        {71, "gpu_mem_total_event"},
        {73, "memory_tracker_snapshot"},
        {74, "streaming_allocation"},
        {75, "streaming_free"},
        {76, "frame_timeline_event"},
        {77, "android_energy_estimation_breakdown"},
        {78, "ui_state"},
        {82, "translation_table"},
        {83, "android_game_intervention_list"},
        {84, "statsd_atom"},
        {86, "android_system_property"},
        {89, "trace_uuid"},
        {90, "track_event_range_of_interest"},
        {91, "entity_state_residency"},
        {109, "chrome_trigger"},
        {117, "generic_kernel_task_state_event"},
        {118, "generic_kernel_cpu_freq_event"},
        {120, "generic_kernel_task_rename_event"},
        {122, "generic_kernel_process_tree"},
        {124, "trace_provenance"},
        {125, "protovms"},
        {126, "trace_attributes"},
        {127, "android_aflags"},
        {128, "gpu_info"},
        {129, "generic_gpu_frequency_event"},
        {130, "interrupt_info"},
        {131, "art_process_metadata"},
        {134, "concurrent_session_event"},
        {135, "stack_sample"},
};

} // namespace

std::string PerfettoPacketNames::name(std::uint32_t field)
{
    const auto found = std::lower_bound(std::begin(kNames), std::end(kNames), field,
                                        [](const Entry& e, std::uint32_t f) { return e.field < f; });
    if (found != std::end(kNames) && found->field == field)
        return found->name;
    return "field " + std::to_string(field);
}

} // namespace runlane
