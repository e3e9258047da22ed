#include "ensorenderstats.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <string>

namespace runlane {

void EnsoRenderStats::add(std::uint64_t t, std::string_view json, std::uint64_t index, Diagnostics& diagnostics)
{
    const nlohmann::json payload = nlohmann::json::parse(json.begin(), json.end(), nullptr, false);
    if (!payload.is_object()) {
        diagnostics.warnWith("bad RenderStats", [&] {
            return "RenderStats event #" + std::to_string(index) + " is not an object of numbers; kept as a mark only";
        });
        return;
    }
    std::string missing;
    for (std::size_t k = 0; k < kFields.size(); ++k) {
        const auto it = payload.find(kFields[k]);
        if (it != payload.end() && it->is_number() && std::isfinite(it->get<double>())) {
            m_points.push_back(Point{t, it->get<double>(), std::uint8_t(k)});
            continue;
        }
        missing += (missing.empty() ? "" : ", ") + std::string(kFields[k]);
    }
    if (!missing.empty()) {
        diagnostics.warnWith("bad RenderStats", [&] {
            return "RenderStats event #" + std::to_string(index) + " has no number for " + missing
                + "; its other fields are kept";
        });
    }
}

} // namespace runlane
