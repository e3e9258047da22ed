#include "profiledocument.h"

#include "comparesession.h"
#include "criticalpathstate.h"
#include "intervalmatch.h"
#include "messagesstate.h"
#include "runset.h"
#include "searchpattern.h"
#include "timeaxis.h"
#include "valueformat.h"

#include <QScopeGuard>

#include <algorithm>
#include <optional>
#include <utility>

namespace runlane {

ProfileDocument::ProfileDocument(TimeAxis* axis, QObject* parent)
    : QObject(parent), m_axis(axis), m_compare(nullptr), m_criticalPath(nullptr), m_messages(nullptr),
      m_callTreeJob(this, [this](ProfileResult<CallTree> result) { callTreeBuilt(std::move(result)); })
{
    m_compare = new CompareSession(this);
    m_criticalPath = new CriticalPathState(this);
    m_messages = new MessagesState(axis, this);
    // The user's own choice replaces one a preview left out.
    connect(m_axis, &TimeAxis::selectedItemChanged, this, [this] {
        if (!m_refining)
            m_wantedSelection = {};
    });
    connect(m_criticalPath, &CriticalPathState::changed, this, [this] {
        if (!m_refining)
            m_wantedPath = {};
    });
}

ProfileDocument::~ProfileDocument() = default;

void ProfileDocument::setProfile(const LoadedProfile& loaded)
{
    if (loaded.isNull()) {
        clear();
        return;
    }
    const bool wasAggregated = m_aggregated;
    switchTo(loaded);
    // Folded stacks and sampled profiles have no meaningful timeline.
    if (m_loaded.profile->prefersAggregatedView())
        setAggregated(true);
    else if (wasAggregated)
        Q_EMIT viewModeChanged(); // back to the timeline: the lanes and the usage chart return
}

void ProfileDocument::refineProfile(const LoadedProfile& loaded)
{
    if (!hasProfile() || loaded.isNull()) {
        setProfile(loaded);
        return;
    }
    // What the user set, by what it is: the ids are the new version's own.
    // Each is what is set now, or else what an earlier preview left out.
    constexpr auto kExactly = RunSet::Match::NameFileLine;
    const std::shared_ptr<const Profile> before = m_loaded.profile;
    std::optional<LabelKey> focus = m_focus != kNone ? std::optional(RunSet::keyOf(*before, m_focus, kExactly))
                                                     : std::exchange(m_wantedFocus, std::nullopt);
    // The critical path shown (P) by its task's first interval: a task
    // that never ran has none to be found by, and its path goes.
    Wanted path = std::exchange(m_wantedPath, {});
    if (m_criticalPath->isActive()) {
        const auto intervals = before->intervalsOf(m_criticalPath->measurement());
        path = {before, intervals.empty() ? kNone : intervals.front()};
    }
    // The aggregated view the user chose (not the one a profile without
    // timestamps always has); in it the axis holds no box of the timeline.
    const bool aggregated = m_aggregated && !before->prefersAggregatedView();
    Wanted selected = std::exchange(m_wantedSelection, {});
    if (m_aggregated)
        selected = {};
    else if (m_axis->selectedInterval() != kNone)
        selected = {before, m_axis->selectedInterval()};
    // Found in the new version before it is shown, so that what a preview
    // left out is known (leftOutSelection, leftOutPath) to the views as
    // they rebuild for it. Only a preview may lack what a later one has.
    const Profile& now = *loaded.profile;
    const bool preview = now.isPreview();
    const auto find = [&](Wanted& wanted, Wanted& leftOut) {
        const IntervalId same = wanted.interval == kNone ? kNone : IntervalMatch::find(*wanted.in, wanted.interval, now);
        if (same == kNone && preview && wanted.interval != kNone)
            leftOut = std::move(wanted);
        return same;
    };
    const IntervalId pathNow = find(path, m_wantedPath);
    const IntervalId selectedNow = find(selected, m_wantedSelection);
    std::vector<LabelId> focusNow;
    if (focus) {
        focusNow = RunSet::labelsOf(now, *focus, kExactly);
        if (focusNow.empty() && preview)
            m_wantedFocus = std::move(focus);
    }
    // Through the restores too: what they set again is not the user's
    // new choice (the path's panel is not brought to the front for it).
    m_refining = true;
    const auto refined = qScopeGuard([this] { m_refining = false; });
    setProfile(loaded);
    if (!hasProfile())
        return;
    if (aggregated)
        setAggregated(true);
    if (pathNow != kNone)
        m_criticalPath->show(now.interval(pathNow).measurement);
    if (!focusNow.empty())
        setFocusLabel(focusNow.front());
    if (selectedNow != kNone && !m_aggregated)
        m_axis->selectItem(selectedNow, now.interval(selectedNow).measurement);
}

QString ProfileDocument::previewKeeps() const
{
    const Profile* p = profile();
    if (!p || !p->isPreview() || p->partial()->shortestKept <= 0)
        return {};
    return tr(" (it keeps boxes of %1 or more)").arg(QString::fromStdString(ValueFormat::text(p->partial()->shortestKept, p->unit())));
}

QString ProfileDocument::leftOutName(const Wanted& wanted)
{
    if (!wanted.in)
        return {};
    const Profile& p = *wanted.in;
    const std::string_view name = p.labelName(p.labelOf(p.interval(wanted.interval).measurement));
    return QString::fromUtf8(name.data(), qsizetype(name.size()));
}

void ProfileDocument::continueProfile(const LoadedProfile& loaded)
{
    if (!hasProfile() || loaded.isNull() || loaded.profile->labelCount() < m_loaded.profile->labelCount())
        setProfile(loaded);
    else
        switchTo(loaded, true);
}

void ProfileDocument::clear()
{
    const bool wasAggregated = m_aggregated;
    switchTo(LoadedProfile());
    if (wasAggregated)
        Q_EMIT viewModeChanged();
}

void ProfileDocument::switchTo(const LoadedProfile& loaded, bool continuing)
{
    // The order is the contract (see the class comment).
    m_continuing = continuing;
    if (!m_refining) {
        m_wantedSelection = {};
        m_wantedPath = {};
        m_wantedFocus.reset();
    }
    // The path goes first, while its ids still mean what they meant (a
    // continuation's too: it was the path of an older life).
    m_criticalPath->setProfile(nullptr);
    Q_EMIT profileAboutToChange();
    // A call tree being built for the old profile is not waited for: it
    // ends on its own and is never delivered.
    m_callTreeJob.drop();
    m_loaded = loaded;
    m_criticalPath->setProfile(m_loaded.profile);
    m_messages->setMessages(m_loaded.messages);
    m_callTree.reset();
    if (!continuing || !hasProfile()) {
        m_colors = hasProfile() ? ColorScheme::labelColors(*m_loaded.profile, m_colorMode, {}, m_loaded.labelExec)
                                : std::vector<QRgb>();
    } else if (m_colors.size() != m_loaded.profile->labelCount()) {
        // A live recording's next version keeps its labels' colours (a
        // proc does not change colour as others get busier); new labels
        // take theirs apart from them (ColorScheme gives the rule).
        m_colors = ColorScheme::labelColors(*m_loaded.profile, m_colorMode, m_colors, m_loaded.labelExec);
    }
    m_longest = m_loaded.longestInterval;
    // A new profile has new label ids: nothing carries over but the
    // search text, matched again below once every view has rebuilt. A
    // continuation keeps its ids: the focus and the view mode stay.
    if (!continuing) {
        m_aggregated = false;
        m_focus = kNone;
    }
    const QString search = std::exchange(m_search, QString());
    m_matches.clear();
    m_matchList.clear();
    m_matchIntervals = 0;
    m_searchValid = true;
    if (!continuing)
        applyBounds(); // resets the visible range, the selection and the selected item
    else if (m_aggregated)
        m_callTreeJob.start(m_loaded.profile, [](const Profile& profile) { return std::make_shared<const CallTree>(profile); });
    else
        m_axis->extendBounds(m_loaded.profile->startTime(),
                             std::max(m_loaded.profile->endTime(), m_loaded.profile->startTime() + 1));
    Q_EMIT profileChanged();
    m_continuing = false;
    if (!search.isEmpty() && hasProfile())
        setSearch(search);
    else if (!continuing)
        Q_EMIT emphasisChanged(); // a continuation keeps its focus and has no search: nothing to repaint for
}

void ProfileDocument::setColorMode(ColorMode mode)
{
    if (mode == m_colorMode)
        return;
    m_colorMode = mode;
    if (hasProfile() && mode != ColorMode::ByDuration)
        m_colors = ColorScheme::labelColors(*m_loaded.profile, m_colorMode, {}, m_loaded.labelExec);
    Q_EMIT colorsChanged();
}

QRgb ProfileDocument::colorOf(LabelId label, Time duration) const
{
    const QRgb color = m_colorMode == ColorMode::ByDuration
        ? ColorScheme::forDuration(duration, m_aggregated && m_callTree ? m_callTree->axisEnd() : m_longest).rgb()
        : m_colors[label];
    return isEmphasisActive() && !isHighlighted(label) ? ColorScheme::dimmed(color) : color;
}

void ProfileDocument::setFocusLabel(LabelId label)
{
    if (label == m_focus || (label != kNone && (!hasProfile() || label >= m_loaded.profile->labelCount())))
        return;
    m_focus = label;
    if (!m_refining)
        m_wantedFocus.reset();
    Q_EMIT emphasisChanged();
}

void ProfileDocument::setSearch(const QString& text)
{
    if (text == m_search && (text.isEmpty() || !m_matches.empty() || !m_searchValid))
        return;
    m_search = text;
    m_matches.clear();
    m_matchList.clear();
    m_matchIntervals = 0;
    m_searchValid = true;
    if (!text.isEmpty() && hasProfile()) {
        const Profile& p = *m_loaded.profile;
        const SearchPattern pattern(text);
        m_searchValid = pattern.isValid();
        m_matches.assign(p.labelCount(), false);
        for (LabelId l = 0; m_searchValid && l < p.labelCount(); ++l) {
            const std::string_view name = p.labelName(l);
            if (pattern.matches(QString::fromUtf8(name.data(), qsizetype(name.size())))) {
                m_matches[l] = true;
                m_matchList.push_back(l);
                m_matchIntervals += m_loaded.labels->intervalsOf(l).size();
            }
        }
    }
    Q_EMIT emphasisChanged();
}

std::vector<LabelId> ProfileDocument::steppedLabels() const
{
    if (m_focus != kNone)
        return {m_focus};
    return m_matchList;
}

IntervalId ProfileDocument::stepThrough(const std::vector<LabelId>& labels, bool forward)
{
    if (!hasProfile() || m_aggregated || labels.empty())
        return kNone;
    const Profile& p = *m_loaded.profile;
    // From the selected interval if it is one of them, else from the edge
    // of the visible range.
    const IntervalId selected = m_axis->selectedInterval();
    const bool fromSelected = selected != kNone && selected < p.intervalCount()
        && std::find(labels.begin(), labels.end(), p.measurement(p.interval(selected).measurement).label) != labels.end();
    const IntervalId found = fromSelected
        ? m_loaded.labels->step(p, labels, p.interval(selected).start, selected, forward)
        : m_loaded.labels->step(p, labels, forward ? m_axis->visibleStart() : m_axis->visibleEnd(), kNone, forward);
    if (found == kNone)
        return kNone;
    const Interval& iv = p.interval(found);
    zoomAround(iv.start, iv.end);
    m_axis->selectItem(found, iv.measurement);
    // The zoom shows its time; its row may be far down the icicle, on a
    // collapsed track or under a collapsed caller.
    Q_EMIT intervalRevealed(found);
    return found;
}

void ProfileDocument::revealInterval(IntervalId id)
{
    if (!hasProfile() || m_aggregated || id >= m_loaded.profile->intervalCount())
        return;
    const Interval& iv = m_loaded.profile->interval(id);
    revealRange(iv.start, iv.end, id, iv.measurement);
}

void ProfileDocument::revealRange(Time start, Time end, IntervalId interval, MeasurementId measurement)
{
    if (!hasProfile() || m_aggregated)
        return;
    // In view and not a sliver: the zoom stays, as a reader following
    // links between nearby slices expects.
    const bool inView
        = start >= m_axis->visibleStart() && end <= m_axis->visibleEnd() && end - start >= m_axis->visibleSpan() / 200;
    if (!inView)
        zoomAround(start, end);
    m_axis->selectItem(interval, measurement);
    if (interval != kNone)
        Q_EMIT intervalRevealed(interval);
}

void ProfileDocument::zoomAround(Time start, Time end)
{
    // A quarter of its length of context on each side, at least the
    // axis's shortest span; clamped sums: a profile near 2^63 ns must not
    // wrap.
    const Time length = std::max<Time>(end - start, TimeAxis::kMinimumSpan);
    m_axis->setVisibleRange(addClamped(start, -(length / 4)), addClamped(addClamped(start, length), length / 4));
}

std::pair<std::size_t, std::size_t> ProfileDocument::occurrencePosition(const std::vector<LabelId>& labels) const
{
    if (!hasProfile() || labels.empty())
        return {0, 0};
    const Profile& p = *m_loaded.profile;
    std::size_t total = 0;
    for (const LabelId l : labels)
        total += m_loaded.labels->intervalsOf(l).size();
    const IntervalId selected = m_axis->selectedInterval();
    if (selected == kNone || selected >= p.intervalCount()
        || std::find(labels.begin(), labels.end(), p.measurement(p.interval(selected).measurement).label) == labels.end())
        return {0, total};
    return {m_loaded.labels->countBefore(p, labels, p.interval(selected).start, selected) + 1, total};
}

void ProfileDocument::setAggregated(bool aggregated)
{
    if (aggregated == m_aggregated || !hasProfile())
        return;
    // Without timestamps there is no timeline to go back to (pprof).
    if (!aggregated && !m_loaded.profile->hasTimestamps()) {
        Q_EMIT viewModeChanged(); // so that a toggled action springs back
        return;
    }
    m_aggregated = aggregated;
    if (aggregated && !m_callTree && !m_callTreeJob.isRunning())
        m_callTreeJob.start(m_loaded.profile, [](const Profile& profile) { return std::make_shared<const CallTree>(profile); });
    applyBounds();
    Q_EMIT viewModeChanged();
}

void ProfileDocument::finishPendingWork()
{
    m_callTreeJob.finish();
}

void ProfileDocument::callTreeBuilt(ProfileResult<CallTree> result)
{
    // Out of memory (null): the timeline stays usable.
    if (!isCurrent(result.profile) || !result.value || m_callTree)
        return;
    m_callTree = std::move(result.value);
    if (m_aggregated)
        applyBounds();
    Q_EMIT viewModeChanged();
}

void ProfileDocument::applyBounds()
{
    if (!hasProfile()) {
        m_axis->setBounds(0, 1);
    } else if (m_aggregated) {
        m_axis->setBounds(0, m_callTree ? std::max<Time>(1, m_callTree->axisEnd()) : 1);
    } else {
        m_axis->setBounds(m_loaded.profile->startTime(), std::max(m_loaded.profile->endTime(), m_loaded.profile->startTime() + 1));
    }
}

} // namespace runlane
