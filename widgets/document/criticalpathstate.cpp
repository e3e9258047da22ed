#include "criticalpathstate.h"

#include <algorithm>
#include <utility>

namespace runlane {

namespace {

// The index refers to its profile; this keeps the two together so that a
// worker holding the index holds the profile too.
struct PathsHolder {
    std::shared_ptr<const Profile> profile;
    CriticalPath paths;
    PathsHolder(std::shared_ptr<const Profile> p, CriticalPath::WakeSource source)
        : profile(std::move(p)), paths(*profile, source)
    {
    }
};

} // namespace

CriticalPathState::CriticalPathState(QObject* parent) : QObject(parent) {}

CriticalPathState::~CriticalPathState() = default;

void CriticalPathState::setProfile(std::shared_ptr<const Profile> profile)
{
    const bool wasActive = isActive();
    m_profile = std::move(profile);
    m_paths.reset();
    m_measurement = kNone;
    m_segments.clear();
    m_wakes.clear();
    m_roles.clear();
    if (wasActive)
        Q_EMIT changed();
}

std::shared_ptr<const CriticalPath> CriticalPathState::paths()
{
    if (!m_paths && m_profile) {
        auto holder = std::make_shared<const PathsHolder>(m_profile, CriticalPath::sourceOf(*m_profile));
        m_paths = std::shared_ptr<const CriticalPath>(holder, &holder->paths);
    }
    return m_paths;
}

CriticalPath::WakeSource CriticalPathState::wakeSource() const
{
    return m_profile ? CriticalPath::sourceOf(*m_profile) : CriticalPath::WakeSource::None;
}

bool CriticalPathState::show(MeasurementId measurement)
{
    if (!m_profile || measurement >= m_profile->measurements().size())
        return false;
    const std::shared_ptr<const CriticalPath> walk = paths();
    m_measurement = measurement;
    m_segments = walk->of(measurement);
    indexPath();
    Q_EMIT changed();
    return true;
}

void CriticalPathState::clear()
{
    if (!isActive())
        return;
    m_measurement = kNone;
    m_segments.clear();
    m_wakes.clear();
    m_roles.clear();
    Q_EMIT changed();
}

void CriticalPathState::indexPath()
{
    m_wakes.clear();
    m_roles.clear();
    m_roles[m_measurement] |= Explained;
    // The path measurement at each depth of the walk, as the segments go
    // by in time order. Going deeper is a descent into a waker; coming back
    // up is a wake: each level left is a waker whose span ended there, woken
    // by the level above it. A level the walk skipped (no segment of its
    // own) is unknown and draws no edge.
    std::vector<MeasurementId> atDepth;
    for (std::size_t i = 0; i < m_segments.size(); ++i) {
        const CriticalPath::Segment& s = m_segments[i];
        if (s.pathMeasurement != kNone)
            m_roles[s.pathMeasurement] |= Explained;
        if (s.named != kNone && s.kind == CriticalPath::Kind::Running)
            m_roles[s.named] |= RunsOnPath;
        if (s.named != kNone && s.kind == CriticalPath::Kind::Queued)
            m_roles[s.named] |= Blocks;
        if (atDepth.size() <= s.depth)
            atDepth.resize(s.depth + 1, kNone);
        atDepth[s.depth] = s.pathMeasurement;
        if (i + 1 == m_segments.size())
            break;
        const CriticalPath::Segment& next = m_segments[i + 1];
        if (next.depth >= s.depth)
            continue;
        for (std::uint32_t level = s.depth; level > next.depth; --level) {
            const MeasurementId waker = atDepth[level];
            const MeasurementId woken = level - 1 == next.depth ? next.pathMeasurement : atDepth[level - 1];
            atDepth[level] = kNone;
            if (waker == kNone || woken == kNone)
                continue;
            // Ready (idle, then queued) until the woken measurement's next
            // run: that is where the arrow lands.
            Time resume = s.end;
            if (level - 1 == next.depth) {
                for (std::size_t j = i + 1; j < m_segments.size(); ++j) {
                    const CriticalPath::Segment& r = m_segments[j];
                    if (r.depth != next.depth || r.pathMeasurement != woken
                        || (r.kind != CriticalPath::Kind::Queued && r.kind != CriticalPath::Kind::Idle))
                        break;
                    resume = r.end;
                }
            }
            m_wakes.push_back({waker, woken, s.end, resume});
        }
    }
}

std::span<const CriticalPath::Segment> CriticalPathState::segmentsIn(Time from, Time to) const
{
    if (from >= to)
        return {};
    // Segments follow each other without overlap: both ends are sorted.
    const auto first = std::partition_point(m_segments.begin(), m_segments.end(),
                                            [from](const CriticalPath::Segment& s) { return s.end <= from; });
    const auto last = std::partition_point(first, m_segments.end(),
                                           [to](const CriticalPath::Segment& s) { return s.start < to; });
    return {first, last};
}

std::uint8_t CriticalPathState::roleOf(MeasurementId measurement) const
{
    const auto it = m_roles.find(measurement);
    return it == m_roles.end() ? std::uint8_t(NotOnPath) : it->second;
}

} // namespace runlane
