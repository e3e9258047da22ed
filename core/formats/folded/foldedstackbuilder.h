#pragma once

#include "profilebuilder.h"
#include "samplestacklayout.h"

#include <string>
#include <string_view>
#include <vector>

namespace runlane {

// Format side of folded stacks: one track of samples laid end to end in
// input order (SampleStackLayout), counted in samples. Exec time is then the
// self samples of a frame and total time its inclusive samples.
class FoldedStackBuilder
{
public:
    explicit FoldedStackBuilder(ProfileBuilder& builder);
    void addStack(std::string_view stack, Time count, std::uint64_t line);
    void finish();

private:
    ProfileBuilder& m_builder;
    SampleStackLayout m_layout;
    std::vector<LabelId> m_stack;
    std::uint64_t m_lines = 0;
};

} // namespace runlane
