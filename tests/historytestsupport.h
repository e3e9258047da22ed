#pragma once

// What the history tests share: a run's label rows from plain numbers.

#include "historystore.h"

#include <string>
#include <utility>
#include <vector>

namespace runlane::test {

// One row per (name, exec): label `name` in app.rs at lines 1, 2, …, with
// `calls` calls and every time metric `exec`.
inline HistoryStore::Values rowsOf(const std::vector<std::pair<std::string, double>>& execs, double calls = 10)
{
    HistoryStore::Values values;
    int line = 1;
    for (const auto& [name, exec] : execs) {
        RunSet::Label label;
        label.key = LabelKey{name, "app.rs", line++};
        CompareMetrics::Values v{};
        v.fill(exec);
        v[std::size_t(CompareMetric::Calls)] = calls;
        values.emplace_back(std::move(label), v);
    }
    return values;
}

} // namespace runlane::test
