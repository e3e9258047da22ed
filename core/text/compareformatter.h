#pragma once

#include "comparison.h"

#include <cstddef>
#include <string>
#include <vector>

namespace runlane {

// A Comparison as text: an aligned table for people, CSV, JSON for scripts
// (the fields docs/compare.md documents), and Markdown to paste into a
// pull request. Each starts by saying what was compared and how.
class CompareFormatter
{
public:
    static constexpr std::size_t kAllRows = static_cast<std::size_t>(-1);

    static std::string table(const Comparison& comparison, std::size_t limit = kAllRows);
    static std::string csv(const Comparison& comparison, std::size_t limit = kAllRows);
    // The labels at these indices of comparison.labels(), in this order
    // (the viewer's rows as shown); tab-separated for the clipboard.
    static std::string csvRows(const Comparison& comparison, const std::vector<std::size_t>& labels, char separator = ',');
    static std::string json(const Comparison& comparison, std::size_t limit = kAllRows);
    static std::string markdown(const Comparison& comparison, std::size_t limit = kAllRows);
    // "name (file:line)", as every text of a comparison names a label.
    static std::string labelText(const LabelKey& key);
    // A change relative to its base: "+25.4 %"; "new" or "gone" for ±inf.
    static std::string percentText(double fraction);
    // "0.031", or "6.8e-08" under 0.001.
    static std::string pValueText(double p);
    // `text` padded to `width` characters (not bytes: µ and Δ are two).
    static std::string pad(std::string text, std::size_t width, bool right = false);
    // A CSV field, quoted when it holds a quote, a newline or `separator`.
    static std::string csvField(const std::string& text, char separator = ',');
    // "5 base runs, 5 new runs; exec per run total; ...": the header line.
    static std::string header(const Comparison& comparison);
};

} // namespace runlane
