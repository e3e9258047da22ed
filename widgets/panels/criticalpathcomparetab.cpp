#include "criticalpathcomparetab.h"

#include "comparesession.h"
#include "criticalpathcomparemodel.h"
#include "profiledocument.h"

#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace runlane {

namespace {

QTableView* tableOf(CriticalPathCompareModel* model, QWidget* parent, const QString& name, bool sortable)
{
    auto* view = new QTableView(parent);
    view->setObjectName(name);
    auto* proxy = new QSortFilterProxyModel(view);
    proxy->setSourceModel(model);
    proxy->setSortRole(CriticalPathCompareModel::SortRole);
    view->setModel(proxy);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setWordWrap(false);
    view->setAlternatingRowColors(true);
    view->verticalHeader()->hide();
    view->horizontalHeader()->setStretchLastSection(true);
    view->setSortingEnabled(sortable);
    return view;
}

// The base run's summary of the tasks of every label named `name`: a name
// may be one row from several labels (as compare --match name).
CriticalPathSummary summaryNamed(const Profile& profile, std::string_view name, const std::atomic<bool>* cancel)
{
    std::vector<LabelId> labels;
    for (LabelId id = 0; id < profile.labelCount(); ++id)
        if (profile.labelName(id) == name)
            labels.push_back(id);
    const CriticalPath path(profile, CriticalPath::sourceOf(profile));
    return CriticalPathSummary::compute(path, CriticalPathSummary::tasksOf(profile, labels), false, cancel);
}

} // namespace

CriticalPathCompareTab::CriticalPathCompareTab(ProfileDocument* document, QWidget* parent)
    : QWidget(parent), m_document(document), m_message(new QLabel(this)),
      m_kinds(new CriticalPathCompareModel(CriticalPathCompareModel::Part::Kinds, this)),
      m_labels(new CriticalPathCompareModel(CriticalPathCompareModel::Part::Labels, this)),
      m_job(this, [this](ProfileResult<CriticalPathComparison> result) { compared(std::move(result)); })
{
    m_message->setWordWrap(true);
    m_kindView = tableOf(m_kinds, this, QStringLiteral("criticalPathCompareKinds"), false);
    m_labelView = tableOf(m_labels, this, QStringLiteral("criticalPathCompareLabels"), true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_message);
    layout->addWidget(m_kindView, 1);
    layout->addWidget(m_labelView, 2);
    CompareSession* compare = m_document->compare();
    connect(compare, &CompareSession::baseChanged, this, &CriticalPathCompareTab::recompute);
    connect(compare, &CompareSession::comparisonChanged, this, &CriticalPathCompareTab::recompute);
}

CriticalPathCompareTab::~CriticalPathCompareTab()
{
    // The job's destructor waits for the worker: tell it to stop first.
    stopJob();
}

void CriticalPathCompareTab::stopJob()
{
    if (m_cancel)
        m_cancel->store(true);
    m_cancel.reset();
    m_job.drop();
}

bool CriticalPathCompareTab::isAvailable() const
{
    return m_document->compare()->isActive();
}

void CriticalPathCompareTab::setLabel(std::shared_ptr<const Profile> profile, LabelId label,
                                      std::shared_ptr<const CriticalPathSummary> summary)
{
    m_profile = std::move(profile);
    m_label = label;
    m_summary = std::move(summary);
    recompute();
}

void CriticalPathCompareTab::recompute()
{
    stopJob();
    show(nullptr);
    const CompareSession* compare = m_document->compare();
    const CompareSession::Base* base = compare->base();
    if (!base || base->profiles.empty() || !m_profile || !m_summary || m_label == kNone || !m_document->isCurrent(m_profile))
        return;
    std::vector<std::shared_ptr<const Profile>> profiles;
    std::vector<double> busy;
    for (std::size_t i = 0; i < base->profiles.size(); ++i) {
        profiles.push_back(base->profiles[i].profile);
        busy.push_back(base->runs && i < base->runs->runs().size() ? base->runs->runs()[i].busy : 0);
    }
    CompareOptions options = compare->options();
    options.floor = compare->floor();
    const std::string name(m_profile->labelName(m_label));
    const auto cancel = std::make_shared<std::atomic<bool>>(false);
    m_cancel = cancel;
    m_job.start(m_profile, [profiles, busy, options, name, cancel, summary = m_summary](const Profile& profile) {
        std::vector<CriticalPathSummary> summaries;
        summaries.reserve(profiles.size());
        std::vector<CriticalPathComparison::Run> baseRuns;
        for (std::size_t i = 0; i < profiles.size(); ++i) {
            summaries.push_back(summaryNamed(*profiles[i], name, cancel.get()));
            baseRuns.push_back({profiles[i].get(), &summaries.back(), busy[i], "base"});
        }
        const std::vector<CriticalPathComparison::Run> next{
            {&profile, summary.get(), CriticalPathComparison::busyOf(profile), "new"}};
        return std::make_shared<const CriticalPathComparison>(CriticalPathComparison::compute(baseRuns, next, options));
    });
}

void CriticalPathCompareTab::compared(ProfileResult<CriticalPathComparison> result)
{
    if (result.value && m_document->isCurrent(result.profile) && result.profile == m_profile)
        show(result.value);
}

void CriticalPathCompareTab::show(std::shared_ptr<const CriticalPathComparison> comparison)
{
    m_kinds->setComparison(comparison);
    m_labels->setComparison(std::move(comparison));
    m_message->setText(message());
    Q_EMIT comparisonChanged();
}

QString CriticalPathCompareTab::message() const
{
    const CompareSession::Base* base = m_document->compare()->base();
    if (!base)
        return tr("Open a base run (File ▸ Compare with…) to compare the label's paths.");
    if (base->profiles.empty())
        return tr("The base is a baseline report, which keeps no critical paths: compare with the base profiles.");
    if (m_label == kNone || !m_summary)
        return tr("Pick a label (Label scope) to compare its paths with the base.");
    if (!m_kinds->comparison())
        return tr("Comparing with the base…");
    return tr("%1's paths: %n base run(s) against this one.", nullptr, int(m_kinds->comparison()->baseRuns()))
        .arg(QString::fromUtf8(m_profile->labelName(m_label).data(), qsizetype(m_profile->labelName(m_label).size())));
}

void CriticalPathCompareTab::finishPendingWork()
{
    m_job.finish();
}

} // namespace runlane
