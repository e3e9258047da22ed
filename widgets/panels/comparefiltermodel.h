#pragma once

#include "comparison.h"

#include <QSortFilterProxyModel>

#include <optional>
#include <set>

namespace runlane {

// The compare rank's rows as shown: the name filter (text or /regex/) and a
// filter by verdict ("changed" is regressed or improved).
class CompareFilterModel : public QSortFilterProxyModel
{
    Q_OBJECT

public:
    explicit CompareFilterModel(QObject* parent = nullptr);

    // Empty: every verdict.
    void setVerdicts(std::set<Comparison::Verdict> verdicts);
    const std::set<Comparison::Verdict>& verdicts() const { return m_verdicts; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    std::set<Comparison::Verdict> m_verdicts;
};

} // namespace runlane
