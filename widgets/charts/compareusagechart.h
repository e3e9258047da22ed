#pragma once

#include "profilejob.h"
#include "profiletypes.h"

#include <QWidget>

#include <vector>

class QCategoryAxis;
class QChart;
class QChartView;
class QLabel;
class QLineSeries;
class QValueAxis;

namespace runlane {

class ProfileDocument;

// Compare mode's usage overlay: the focused label's event-loop share
// (LabelUsage, semantics.md §6) in the base and in the new profile on one
// chart, two series with the same bin width, each from its own profile's
// start — two runs side by side, never an averaged timeline. With several
// base runs, the first one is drawn (the legend says so). With nothing to
// draw (not comparing, no label selected, computing) it says so, centred,
// and shows no axes; times are labelled as the ruler labels them ("2 s").
class CompareUsageChart : public QWidget
{
    Q_OBJECT

public:
    static constexpr std::size_t kBins = 200;

    struct Series {
        // Share per bin, 0..1 (may exceed 1 on snapshots), each of the
        // bin's part inside its profile (UsageSeries): the last bin ends
        // at the profile's span.
        std::vector<double> base;
        std::vector<double> next;
        Time binWidth = 1;
        Time baseSpan = 0;
        Time nextSpan = 0;
        ValueUnit unit = ValueUnit::Nanoseconds;
        QString label;
        // The time of bin `bin` inside a profile of `span`.
        Time partOf(std::size_t bin, Time span) const;
    };

    explicit CompareUsageChart(ProfileDocument* document, QWidget* parent = nullptr);
    ~CompareUsageChart() override;

    // Null while nothing is focused, outside compare mode, or computing.
    const Series* series() const { return m_shown.value.get(); }
    QLineSeries* baseLine() const { return m_baseLine; }
    QLineSeries* newLine() const { return m_newLine; }
    QLabel* note() const { return m_note; }
    // What it says instead of a chart (empty while a chart is shown).
    QString message() const;
    bool isChartShown() const;
    QCategoryAxis* timeAxis() const { return m_xAxis; }
    QValueAxis* shareAxis() const { return m_yAxis; }
    void finishPendingWork();

private:
    void drop();
    void recompute();
    void computed(ProfileResult<Series> result);
    // No chart: `message`, centred, in its place.
    void showMessage(const QString& message);
    // Why nothing is drawn, before a label's usage is asked for.
    QString idleMessage() const;
    // Ticks at round times, labelled as the ruler labels them.
    void labelTimes(double span, ValueUnit unit);

    ProfileDocument* m_document;
    QChart* m_chart;
    QChartView* m_view;
    QLineSeries* m_baseLine;
    QLineSeries* m_newLine;
    QCategoryAxis* m_xAxis;
    QValueAxis* m_yAxis;
    QLabel* m_note;
    QLabel* m_message;
    // What the series shown or under way is of (the profile: until drop()).
    struct Asked {
        LabelId focus = kNone;
        quint64 generation = 0;
        bool operator==(const Asked&) const = default;
    };
    Asked m_asked;
    ProfileJob<Series> m_job;
    ProfileResult<Series> m_shown;
};

} // namespace runlane
