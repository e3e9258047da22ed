#pragma once

#include "profiletypes.h"

#include <string>
#include <unordered_map>
#include <vector>

namespace runlane {

class ProfileBuilder;
class ProtoWireReader;

// A track event's debug_annotations as one JSON object, for the details
// of the mark an instant becomes and the args of a slice: names inline or interned
// (debug_annotation_names), values of every scalar kind, strings inline or
// interned (debug_annotation_string_values), a legacy JSON value as it is;
// nested dictionaries and arrays as "…". An interning id the sequence never
// defined reads "?".
struct PerfettoAnnotations {
    using Interned = std::unordered_map<std::uint64_t, StringId>;

    static std::string json(const std::vector<ProtoWireReader>& annotations, const Interned& names,
                            const Interned& strings, const ProfileBuilder& builder);
};

} // namespace runlane
