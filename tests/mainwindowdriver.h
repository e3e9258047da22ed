#pragma once

// Driving the real MainWindow as a user does, for the tests that switch
// profiles (tst_profileswitch) and the seeded random user (tst_monkey):
// waiting until a load and every background computation it started are
// shown, and checking that every view shows the open profile only.

#include "backgroundloader.h"
#include "comparemodel.h"
#include "comparesession.h"
#include "counterview.h"
#include "icicleview.h"
#include "mainwindow.h"
#include "profiledocument.h"
#include "rankmodel.h"
#include "rankpanel.h"
#include "tasklaneview.h"
#include "timeaxis.h"
#include "usagechart.h"

#include <QAbstractItemModel>
#include <QApplication>
#include <QDropEvent>
#include <QElapsedTimer>
#include <QLabel>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTest>
#include <QUrl>

namespace runlane::test {

inline QMimeData* urlsData(const QList<QUrl>& urls)
{
    auto* data = new QMimeData;
    data->setUrls(urls);
    return data;
}

// Drags `data` over the window and drops it, as a file manager would
// (takes `data`).
inline void dragAndDrop(MainWindow& window, QMimeData* data, bool* overlayShown = nullptr, QString* overlayText = nullptr)
{
    const QPoint at = window.rect().center();
    QDragEnterEvent enter(at, Qt::CopyAction, data, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&window, &enter);
    auto* overlay = window.findChild<QLabel*>(QStringLiteral("dropOverlay"));
    if (overlayShown)
        *overlayShown = overlay && overlay->isVisible();
    if (overlayText)
        *overlayText = overlay ? overlay->text() : QString();
    QDropEvent drop(at, Qt::CopyAction, data, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&window, &drop);
    delete data;
}

// Waits (up to `timeoutMs`) for the load under way, then for every view's
// background work. Returns false if the load did not end in time.
inline bool settle(MainWindow& window, int timeoutMs = 60000)
{
    QElapsedTimer timer;
    timer.start();
    // Until the outcome is given (a load under way has not given it), not
    // only until the worker ends: its result reaches the event queue a
    // moment after isLoading() turns false.
    const auto busy = [&window] { return !window.loader()->outcomeGiven(); };
    while (busy() && timer.elapsed() < timeoutMs)
        QTest::qWait(2);
    QCoreApplication::processEvents();
    const bool loaded = !busy();
    window.document()->finishPendingWork();
    // Compare mode: the base's load, the comparison, the call-path diff.
    window.document()->compare()->finishPendingWork();
    window.rank()->finishPendingWork();
    window.usage()->finishPendingWork();
    QCoreApplication::processEvents();
    return loaded;
}

// Waits for the next profile to be shown; false if a load failed first or
// nothing was shown within 20 s.
inline bool waitShown(MainWindow& window)
{
    QSignalSpy shown(&window, &MainWindow::profileShown);
    QSignalSpy failed(&window, &MainWindow::loadFailed);
    return shown.wait(20000) && failed.isEmpty();
}

// Settings (recent files, geometry) of a test go to a directory of its own.
inline void useTemporarySettings(const QString& directory, const QString& application)
{
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, directory);
    QApplication::setOrganizationName(QStringLiteral("RunlaneTest"));
    QApplication::setApplicationName(application);
}

inline void closeMessageBoxes(QWidget& window)
{
    for (QMessageBox* box : window.findChildren<QMessageBox*>())
        box->close();
}

// What a view shows that belongs to another profile than the open one, as
// text ("" if nothing): label ids past the profile's labels, a rank or a
// series computed from another profile, a selection past its intervals.
inline QString staleState(const MainWindow& window)
{
    const ProfileDocument& doc = *window.document();
    const Profile* p = doc.profile();
    const RankModel& rank = *window.rank()->model();
    if (!p) {
        if (doc.compare()->isActive() || window.rank()->compareModel()->rowCount() != 0)
            return QStringLiteral("compare mode after the profile was closed");
        if (rank.rowCount() != 0 || window.usage()->series() || window.lanes()->totalTaskCount() != 0
            || window.icicle()->source() || window.counters()->trackCount() != 0)
            return QStringLiteral("a view still shows something after the profile was closed");
        return {};
    }
    if (rank.profile() && rank.profile() != p)
        return QStringLiteral("the rank shows a table of another profile");
    if (rank.table()) {
        for (const RankRow& row : rank.table()->rows()) {
            if (row.label >= p->labelCount())
                return QStringLiteral("rank row with label %1 of %2").arg(row.label).arg(p->labelCount());
        }
    }
    if (const UsageSeries* s = window.usage()->series()) {
        for (const LabelId l : s->labels()) {
            if (l >= p->labelCount())
                return QStringLiteral("usage series with label %1 of %2").arg(l).arg(p->labelCount());
        }
    }
    const CompareModel& compared = *window.rank()->compareModel();
    for (int r = 0; r < compared.rowCount(); ++r) {
        const auto label = LabelId(compared.index(r, 0).data(CompareModel::LabelRole).toULongLong());
        if (label != kNone && label >= p->labelCount())
            return QStringLiteral("compare rank row with label %1 of %2").arg(label).arg(p->labelCount());
    }
    if (!doc.compare()->isActive() && (compared.rowCount() != 0 || window.icicle()->isDifferential()))
        return QStringLiteral("compare rows or the differential flame graph outside compare mode");
    if (window.icicle()->isDifferential() && doc.compare()->diffTree() != doc.sharedCallTree())
        return QStringLiteral("a differential flame graph of another call tree");
    if (doc.focusLabel() != kNone && doc.focusLabel() >= p->labelCount())
        return QStringLiteral("focus label %1 of %2").arg(doc.focusLabel()).arg(p->labelCount());
    const TimeAxis& axis = *window.axis();
    if (axis.selectedInterval() != kNone && axis.selectedInterval() >= p->intervalCount())
        return QStringLiteral("selected interval %1 of %2").arg(axis.selectedInterval()).arg(p->intervalCount());
    if (axis.selectedMeasurement() != kNone && axis.selectedMeasurement() >= p->measurementCount())
        return QStringLiteral("selected measurement %1 of %2").arg(axis.selectedMeasurement()).arg(p->measurementCount());
    if (!doc.isAggregated() && window.icicle()->source()
        && window.icicle()->source()->trackCount() != p->trackCount())
        return QStringLiteral("icicle with %1 tracks, profile with %2")
            .arg(window.icicle()->source()->trackCount())
            .arg(p->trackCount());
    if (window.counters()->trackCount() != p->counters().size())
        return QStringLiteral("counter view with %1 tracks, profile with %2 series")
            .arg(window.counters()->trackCount())
            .arg(p->counters().size());
    return {};
}

} // namespace runlane::test
