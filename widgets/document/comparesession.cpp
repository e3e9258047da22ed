#include "comparesession.h"

#include "baselinereport.h"
#include "profiledocument.h"
#include "profileloader.h"
#include "workpool.h"

#include <QFileInfo>
#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

namespace runlane {

CompareSession::CompareSession(ProfileDocument* document)
    : QObject(document), m_document(document),
      m_compareJob(this, [this](ProfileResult<Compared> result) { compared(std::move(result)); }),
      m_diffJob(this, [this](ProfileResult<CallTreeDiff> result) { diffed(std::move(result)); })
{
    m_options.metrics = CompareMetrics::list();
    connect(&m_watcher, &QFutureWatcher<Outcome>::finished, this, &CompareSession::loadFinished);
    // Connected before any view (the document makes this object first), so
    // the results of the old profile are gone before a view rebuilds.
    connect(document, &ProfileDocument::profileAboutToChange, this, &CompareSession::dropResults);
    connect(document, &ProfileDocument::profileChanged, this, [this] {
        if (!m_document->hasProfile()) {
            stop();
            return;
        }
        recompute();
    });
    connect(document, &ProfileDocument::viewModeChanged, this, &CompareSession::maybeStartDiff);
}

CompareSession::~CompareSession()
{
    cancelLoad();
    m_watcher.waitForFinished();
}

void CompareSession::loadBase(const QStringList& paths)
{
    if (paths.isEmpty())
        return;
    if (m_watcher.isRunning()) {
        cancelLoad();
        m_watcher.waitForFinished(); // its result is dropped: the request moved on
    }
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    m_loadingPath = paths.first();
    const auto cancel = m_cancel;
    const quint64 request = ++m_loadRequest;
    const RunSet::Match match = m_match;
    QPointer<CompareSession> self(this);
    m_watcher.setFuture(QtConcurrent::run(workPool(), [paths, match, cancel, self, request]() {
        Outcome outcome = loadRuns(paths, match, cancel.get(), [self, request](qint64 done, qint64 total) {
            if (self)
                QMetaObject::invokeMethod(self, [self, request, done, total] {
                    if (self && self->m_loadRequest == request)
                        Q_EMIT self->loadProgress(done, total);
                }, Qt::QueuedConnection);
        });
        outcome.request = request;
        return outcome;
    }));
}

CompareSession::Outcome CompareSession::loadRuns(const QStringList& paths, RunSet::Match match,
                                                 const std::atomic<bool>* cancel,
                                                 const std::function<void(qint64, qint64)>& progress)
{
    Outcome outcome;
    auto base = std::make_shared<Base>();
    base->paths = paths;
    auto runs = std::make_shared<RunSet>(match);
    // Each call's values matter only for one run against the one open.
    const bool keepCalls = paths.size() == 1;
    std::vector<qint64> sizes;
    qint64 total = 0;
    for (const QString& path : paths)
        total += sizes.emplace_back(std::max<qint64>(1, QFileInfo(path).size()));
    qint64 before = 0;
    try {
        for (qsizetype i = 0; i < paths.size(); ++i) {
            const QString& path = paths[i];
            // A report holds a whole set of runs' values, no profiles.
            bool report = false;
            std::string error;
            if (!BaselineReport::readIfReport(path.toStdString(), *runs, report, error)) {
                outcome.error.file = path.toStdString();
                outcome.error.message = error;
                return outcome;
            }
            if (!report) {
                LoadControl control;
                control.cancel = cancel;
                control.progress = [&](std::int64_t done, std::int64_t) { progress(before + done, total); };
                LoadResult result = ProfileLoader::load(path, control);
                if (!result.ok()) {
                    outcome.error = std::move(result.error);
                    return outcome;
                }
                runs->add(*result.profile, QFileInfo(path).fileName().toStdString(), keepCalls);
                auto tree = std::make_shared<const CallTree>(*result.profile);
                base->profiles.push_back(CallTreeDiff::Base{std::move(result.profile), std::move(tree)});
            }
            before += sizes[std::size_t(i)];
            progress(before, total);
            if (cancel->load())
                throw LoadCancelled();
        }
    } catch (const LoadCancelled&) {
        outcome.error.file = paths.value(0).toStdString();
        outcome.error.cancelled = true;
        outcome.error.message = "loading was cancelled";
        return outcome;
    } catch (const std::exception& e) {
        // Nothing thrown here may reach the event loop.
        outcome.error.file = paths.value(0).toStdString();
        outcome.error.message = dynamic_cast<const std::bad_alloc*>(&e) ? "not enough memory to compare these runs"
                                                                        : std::string("unexpected error: ") + e.what();
        return outcome;
    }
    base->runs = std::move(runs);
    outcome.base = std::move(base);
    return outcome;
}

void CompareSession::cancelLoad()
{
    if (m_cancel)
        m_cancel->store(true);
}

void CompareSession::loadFinished()
{
    const QFuture<Outcome> future = m_watcher.future();
    if (!future.isValid() || future.resultCount() == 0)
        return;
    Outcome outcome = future.result();
    m_watcher.setFuture(QFuture<Outcome>()); // taken once
    // Stopped, closed or replaced while it loaded: the user moved on.
    if (outcome.request != m_loadRequest)
        return;
    if (!outcome.base) {
        Q_EMIT baseFailed(outcome.error);
        return;
    }
    dropResults();
    outcome.base->generation = ++m_generation;
    m_base = std::move(outcome.base);
    Q_EMIT baseChanged();
    Q_EMIT comparisonChanged();
    Q_EMIT diffChanged();
    recompute();
    Q_EMIT baseLoaded();
}

void CompareSession::stop()
{
    cancelLoad();
    ++m_loadRequest; // a load under way is not applied
    if (isLoading()) {
        // Said at once: its own end will not be.
        LoadError cancelled;
        cancelled.file = m_loadingPath.toStdString();
        cancelled.cancelled = true;
        cancelled.message = "loading was cancelled";
        Q_EMIT baseFailed(cancelled);
    }
    const bool was = isActive();
    dropResults();
    m_base.reset();
    ++m_generation;
    if (was) {
        Q_EMIT baseChanged();
        Q_EMIT comparisonChanged();
        Q_EMIT diffChanged();
    }
}

void CompareSession::setOptions(const CompareOptions& options, RunSet::Match match)
{
    m_options = options;
    m_options.metrics = CompareMetrics::list();
    const bool rematch = match != m_match;
    m_match = match;
    if (rematch && m_base && !m_base->paths.isEmpty()) {
        loadBase(m_base->paths); // the base's labels are merged differently
        return;
    }
    dropResults();
    Q_EMIT comparisonChanged();
    Q_EMIT diffChanged();
    recompute();
}

void CompareSession::dropResults()
{
    m_compareJob.drop();
    m_diffJob.drop();
    m_compared.reset();
    m_diff.reset();
    m_diffTree.reset();
    m_diffTreeAsked.reset();
}

void CompareSession::recompute()
{
    if (!m_base || !m_document->hasProfile())
        return;
    // First the rank's metric (and calls, which cost nothing); the others,
    // the side columns' exec, wall and wait among them, in the second pass.
    CompareOptions options = m_options;
    options.metrics = {m_preferred};
    if (m_preferred != CompareMetric::Calls)
        options.metrics.push_back(CompareMetric::Calls);
    const std::shared_ptr<const RunSet> runs = m_base->runs;
    const RunSet::Match match = m_match;
    const bool keepCalls = runs->runs().size() == 1;
    const std::string source = QFileInfo(m_document->loaded().path).fileName().toStdString();
    m_compareGeneration = m_base->generation;
    m_firstPass = true;
    m_compareJob.start(m_document->sharedProfile(), [runs, options, match, keepCalls, source](const Profile& profile) {
        auto next = std::make_shared<RunSet>(match);
        next->add(profile, source, keepCalls);
        Comparison comparison = Comparison::compute(*runs, *next, options);
        return std::make_shared<const Compared>(Compared{std::move(next), std::move(comparison)});
    });
    maybeStartDiff();
}

void CompareSession::startSecondPass()
{
    // The metrics the first pass left, over the same reduced runs, added to
    // its comparison: no metric is computed twice.
    const std::shared_ptr<const Compared> first = m_compared;
    CompareOptions options = m_options;
    options.metrics.clear();
    const auto& done = first->comparison.options().metrics;
    for (const CompareMetric m : m_options.metrics) {
        if (std::find(done.begin(), done.end(), m) == done.end())
            options.metrics.push_back(m);
    }
    m_firstPass = false;
    if (options.metrics.empty())
        return;
    const std::shared_ptr<const RunSet> runs = m_base->runs;
    m_compareJob.start(m_document->sharedProfile(), [runs, first, options](const Profile&) {
        const Comparison rest = Comparison::compute(*runs, *first->next, options);
        return std::make_shared<const Compared>(Compared{first->next, first->comparison.with(rest)});
    });
}

double CompareSession::floor() const
{
    if (!m_base)
        return 0;
    return m_options.floor ? *m_options.floor : Comparison::defaultFloor(*m_base->runs);
}

void CompareSession::maybeStartDiff()
{
    if (!m_base || m_base->profiles.empty() || !m_document->callTree())
        return;
    const std::shared_ptr<const CallTree> tree = m_document->sharedCallTree();
    const bool done = m_diffTree == tree && m_diffGeneration == m_base->generation;
    const bool underWay = m_diffJob.isRunning() && m_diffTreeAsked == tree && m_diffGeneration == m_base->generation;
    if (done || underWay)
        return;
    m_diffTreeAsked = tree;
    m_diffGeneration = m_base->generation;
    const std::vector<CallTreeDiff::Base> bases = m_base->profiles;
    const RunSet::Match match = m_match;
    m_diffJob.start(m_document->sharedProfile(), [tree, bases, match](const Profile& profile) {
        return std::make_shared<const CallTreeDiff>(CallTreeDiff::compute(profile, *tree, bases, match));
    });
}

void CompareSession::compared(ProfileResult<Compared> result)
{
    // Cancelled or failed (null), of another profile, or of another base.
    if (!result.value || !m_document->isCurrent(result.profile) || !m_base || m_compareGeneration != m_base->generation)
        return;
    m_compared = std::move(result.value);
    // The rest of the metrics, while the rank already shows the first.
    if (m_firstPass)
        startSecondPass();
    Q_EMIT comparisonChanged();
}

void CompareSession::diffed(ProfileResult<CallTreeDiff> result)
{
    if (!result.value || !m_document->isCurrent(result.profile) || !m_base || m_diffGeneration != m_base->generation
        || m_diffTreeAsked != m_document->sharedCallTree())
        return;
    m_diff = std::move(result.value);
    m_diffTree = m_diffTreeAsked;
    Q_EMIT diffChanged();
}

void CompareSession::finishPendingWork()
{
    if (m_watcher.isRunning() || (m_watcher.future().isValid() && m_watcher.future().resultCount() > 0)) {
        m_watcher.waitForFinished();
        loadFinished();
    }
    // The first pass starts the second when it is delivered.
    for (int pass = 0; pass < 2; ++pass)
        m_compareJob.finish();
    // The diff waits for the document's call tree, which starts it.
    m_document->finishPendingWork();
    m_diffJob.finish();
}

QString CompareSession::baseName() const
{
    if (!m_base)
        return {};
    const QString first = QFileInfo(m_base->paths.value(0)).fileName();
    if (m_base->paths.size() == 1) {
        const std::size_t runs = baseRunCount();
        return runs > 1 ? tr("%1 (%2 runs)").arg(first).arg(runs) : first;
    }
    return tr("%1 and %2 more").arg(first).arg(m_base->paths.size() - 1);
}

} // namespace runlane
