#include "profiledocument.h"

#include "timeaxis.h"

#include <QtConcurrent/QtConcurrentRun>

namespace runlane {

ProfileDocument::ProfileDocument(TimeAxis* axis, QObject* parent) : QObject(parent), m_axis(axis)
{
    connect(&m_callTreeWatcher, &QFutureWatcher<std::shared_ptr<const CallTree>>::finished, this,
            &ProfileDocument::callTreeBuilt);
}

ProfileDocument::~ProfileDocument()
{
    m_callTreeWatcher.waitForFinished();
}

void ProfileDocument::setProfile(const LoadedProfile& loaded)
{
    if (loaded.isNull()) {
        clear();
        return;
    }
    m_callTreeWatcher.waitForFinished();
    m_loaded = loaded;
    m_callTree.reset();
    m_colors = ColorScheme::labelColors(*m_loaded.profile, m_colorMode);
    m_longest = m_loaded.longestInterval;
    m_aggregated = false;
    applyBounds();
    Q_EMIT profileChanged();
    // Folded stacks and sampled profiles have no meaningful timeline.
    if (m_loaded.profile->prefersAggregatedView())
        setAggregated(true);
}

void ProfileDocument::clear()
{
    m_callTreeWatcher.waitForFinished();
    m_loaded = LoadedProfile();
    m_callTree.reset();
    m_colors.clear();
    m_aggregated = false;
    m_axis->setBounds(0, 1);
    Q_EMIT profileChanged();
}

void ProfileDocument::setColorMode(ColorMode mode)
{
    if (mode == m_colorMode)
        return;
    m_colorMode = mode;
    if (hasProfile() && mode != ColorMode::ByDuration)
        m_colors = ColorScheme::labelColors(*m_loaded.profile, m_colorMode);
    Q_EMIT colorsChanged();
}

QRgb ProfileDocument::colorOf(LabelId label, Time duration) const
{
    if (m_colorMode == ColorMode::ByDuration)
        return ColorScheme::forDuration(duration, m_aggregated && m_callTree ? m_callTree->axisEnd() : m_longest).rgb();
    return m_colors[label];
}

void ProfileDocument::setAggregated(bool aggregated)
{
    if (aggregated == m_aggregated || !hasProfile())
        return;
    m_aggregated = aggregated;
    if (aggregated && !m_callTree && !m_callTreeWatcher.isRunning()) {
        const auto profile = m_loaded.profile;
        m_callTreeWatcher.setFuture(
            QtConcurrent::run([profile]() { return std::shared_ptr<const CallTree>(std::make_shared<CallTree>(*profile)); }));
    }
    applyBounds();
    Q_EMIT viewModeChanged();
}

void ProfileDocument::finishPendingWork()
{
    if (!m_callTreeWatcher.isRunning() && (m_callTree || !m_aggregated))
        return;
    m_callTreeWatcher.waitForFinished();
    if (!m_callTree)
        callTreeBuilt();
}

void ProfileDocument::callTreeBuilt()
{
    if (m_callTree || !m_callTreeWatcher.future().isValid() || m_callTreeWatcher.future().resultCount() == 0)
        return;
    m_callTree = m_callTreeWatcher.result();
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
