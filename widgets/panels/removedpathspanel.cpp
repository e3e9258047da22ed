#include "removedpathspanel.h"

#include "comparesession.h"
#include "diffcolors.h"
#include "profiledocument.h"
#include "valueformat.h"

#include <QHeaderView>
#include <QLabel>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace runlane {

RemovedPathsPanel::RemovedPathsPanel(ProfileDocument* document, QWidget* parent)
    : QWidget(parent), m_document(document), m_legend(new QLabel(this)), m_list(new QTreeWidget(this))
{
    m_legend->setWordWrap(true);
    m_legend->setTextFormat(Qt::RichText);
    m_legend->setContentsMargins(6, 4, 6, 4);
    m_list->setObjectName(QStringLiteral("removedPaths"));
    m_list->setRootIsDecorated(false);
    m_list->setHeaderLabels({tr("Removed call path"), tr("Base self"), tr("Base total"), tr("In base runs")});
    m_list->header()->setStretchLastSection(false);
    m_list->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_legend);
    layout->addWidget(m_list, 1);
    CompareSession* compare = document->compare();
    connect(compare, &CompareSession::diffChanged, this, &RemovedPathsPanel::refresh);
    connect(compare, &CompareSession::baseChanged, this, &RemovedPathsPanel::refresh);
    connect(document, &ProfileDocument::viewModeChanged, this, &RemovedPathsPanel::refresh);
    refresh();
}

void RemovedPathsPanel::refresh()
{
    m_list->clear();
    const CompareSession* compare = m_document->compare();
    const auto swatch = [](const QColor& c) {
        return QStringLiteral("<span style='background:%1'>&nbsp;&nbsp;&nbsp;&nbsp;</span>").arg(c.name());
    };
    if (!compare->isActive()) {
        m_legend->setText(tr("Not comparing: File ▸ Compare with… opens the base runs."));
        return;
    }
    const QString threshold = QString::number(compare->options().threshold * 100, 'g', 3);
    QString text = tr("<b>Differential flame graph</b> (View ▸ Aggregated, Ctrl+G): widths are the new profile's; "
                      "colour is the change of each call path's self time against the base (%1):<br>"
                      "%2 slower &nbsp; %3 faster &nbsp; %4 within %5 % or under the floor &nbsp; %6 not in the base")
                       .arg(compare->baseName().toHtmlEscaped(),
                            swatch(DiffColors::forDelta(1.0, 1.0, 0.05, 0)), swatch(DiffColors::forDelta(-0.5, 1.0, 0.05, 0)),
                            swatch(DiffColors::forDelta(0, 1.0, 0.05, 0)), threshold, swatch(DiffColors::newPath()));
    const CallTreeDiff* diff = compare->diff();
    const CompareSession::Base* base = compare->base();
    if (base && base->profiles.empty())
        text += tr("<br><i>A baseline report holds per-label figures only: no call paths to compare.</i>");
    else if (!diff && !m_document->isAggregated())
        text += tr("<br><i>Shown in the aggregated view: turn it on to compare call paths.</i>");
    else if (!diff)
        text += tr("<br><i>Comparing call paths…</i>");
    else
        text += tr("<br>%n call path(s) of the base are not in the new profile:", nullptr, int(diff->removed().size()));
    m_legend->setText(text);
    if (!diff || !m_document->hasProfile())
        return;
    const ValueUnit unit = m_document->profile()->unit();
    const auto time = [unit](double v) { return QString::fromStdString(ValueFormat::text(Time(std::llround(v)), unit)); };
    QList<QTreeWidgetItem*> items;
    // Two unrelated profiles can differ in a million paths: the largest
    // are listed, and the count says how many there are.
    const std::size_t shown = std::min(diff->removed().size(), kMaxListed);
    for (std::size_t i = 0; i < shown; ++i) {
        const CallTreeDiff::Removed& removed = diff->removed()[i];
        QStringList path;
        for (const std::string& label : diff->labelsOf(removed))
            path << QString::fromStdString(label);
        auto* item = new QTreeWidgetItem({QString::fromStdString(diff->trackOf(removed)) + QStringLiteral(": ") + path.join(QStringLiteral(" ▸ ")),
                                          time(removed.baseSelf), time(removed.baseTotal),
                                          QStringLiteral("%1 of %2").arg(removed.baseRuns).arg(diff->baseRunCount())});
        item->setToolTip(0, path.join(QStringLiteral("\n")));
        for (int c = 1; c < 4; ++c)
            item->setTextAlignment(c, Qt::AlignRight | Qt::AlignVCenter);
        // A path whose parent is gone too is the rest of a removed subtree.
        if (removed.parentRemoved)
            item->setForeground(0, DiffColors::verdictText(Comparison::Verdict::Unchanged));
        items << item;
    }
    if (diff->removed().size() > shown)
        items << new QTreeWidgetItem({tr("… and %1 smaller ones").arg(diff->removed().size() - shown)});
    m_list->addTopLevelItems(items);
}

} // namespace runlane
