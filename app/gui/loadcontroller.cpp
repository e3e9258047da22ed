#include "loadcontroller.h"

#include "backgroundloader.h"
#include "mainwindow.h"
#include "noticebar.h"
#include "profiledocument.h"
#include "timeaxis.h"
#include "valueformat.h"

#include <QLayout>
#include <QLocale>
#include <QPushButton>
#include <QVBoxLayout>

namespace runlane {

namespace {

QString sizeText(qint64 bytes)
{
    return QString::fromStdString(ValueFormat::text(Time(bytes) * kTicksPerUnit, ValueUnit::Bytes));
}

// A time of `profile` from its start, as a duration: "3.20 s" (the ruler's
// precise point, "3.200000 s", is more than a banner needs).
QString pointText(const Profile& profile, Time t)
{
    return QString::fromStdString(ValueFormat::text(t - profile.startTime(), profile.unit()));
}

int percentOf(qint64 done, qint64 total)
{
    return total > 0 ? int(100 * done / total) : -1;
}

} // namespace

LoadController::LoadController(MainWindow* window, BackgroundLoader* loader)
    : QObject(window)
    , m_window(window)
    , m_loader(loader)
    , m_banner(new NoticeBar(window->centralWidget()))
    , m_stopButton(m_banner->addButton(tr("Stop and keep what was read"), QStringLiteral("stopLoad")))
{
    m_banner->setObjectName(QStringLiteral("loadingBanner"));
    m_banner->setDismissible(false); // it goes when the load ends
    connect(m_stopButton, &QPushButton::clicked, this, [this] {
        m_stopping = true;
        m_loader->stop();
        updateBanner();
    });
    connect(m_banner->addButton(tr("Cancel"), QStringLiteral("cancelPreviewLoad")), &QPushButton::clicked, m_loader,
            &BackgroundLoader::cancel);
    // Above the notices and the views.
    if (auto* column = qobject_cast<QVBoxLayout*>(window->centralWidget()->layout()))
        column->insertWidget(0, m_banner);
    connect(loader, &BackgroundLoader::previewed, this, &LoadController::showPreview);
    connect(loader, &BackgroundLoader::progress, this, &LoadController::progress);
    connect(loader, &BackgroundLoader::building, this, &LoadController::building);
    m_buildTicks = new QTimer(this);
    m_buildTicks->setInterval(1000);
    connect(m_buildTicks, &QTimer::timeout, this, [this] {
        if (isShowingPreview())
            updateBanner();
    });
    m_bannerLater = new QTimer(this);
    m_bannerLater->setSingleShot(true);
    connect(m_bannerLater, &QTimer::timeout, this, [this] {
        if (isShowingPreview())
            updateBanner();
    });
    connect(window->axis(), &TimeAxis::visibleRangeChanged, this, [this] {
        if (!m_adjusting && isShowingPreview())
            m_userMoved = true;
    });
}

bool LoadController::isShowingPreview() const
{
    return !m_preview.isNull() && m_window->document()->isCurrent(m_preview.profile);
}

LoadController::ViewState LoadController::capture() const
{
    const ProfileDocument* document = m_window->document();
    const TimeAxis* axis = m_window->axis();
    ViewState state;
    state.loaded = document->loaded();
    state.range = {axis->visibleStart(), axis->visibleEnd()};
    state.selection = axis->selection();
    state.aggregated = document->isAggregated() && !(document->profile() && document->profile()->prefersAggregatedView());
    state.interval = axis->selectedInterval();
    state.measurement = axis->selectedMeasurement();
    state.history = axis->history();
    return state;
}

void LoadController::carryOver(const ViewState& state)
{
    // The rest (view mode, selected box, focus, path) is the document's
    // refineProfile, found again by what it is.
    TimeAxis* axis = m_window->axis();
    if (m_userMoved)
        axis->setVisibleRange(state.range.first, state.range.second, TimeAxis::History::Skip);
    if (state.selection)
        axis->setSelection(state.selection->first, state.selection->second);
    axis->restoreHistory(state.history);
}

void LoadController::started(const QString& path)
{
    m_path = path;
    m_done = 0;
    m_total = 0;
    m_percent = -1;
    m_building = Building();
    m_buildTicks->stop();
    m_stopping = false;
    // Another file while a preview is shown: it stays until the new file's
    // first preview, which then shows its whole span.
    m_userMoved = false;
    if (isShowingPreview())
        updateBanner();
}

void LoadController::showPreview(const LoadedProfile& preview)
{
    ProfileDocument* document = m_window->document();
    const bool first = m_preview.isNull();
    // Something else was opened over our last preview (history, live, a
    // script): the previews no longer own the views.
    if (!first && !isShowingPreview())
        return;
    const ViewState now = capture();
    if (first) {
        m_before = now;
        m_userMoved = false;
        m_window->notices()->hide(); // the open profile's notices, back on Cancel
    }
    m_adjusting = true;
    if (first) {
        document->setProfile(preview);
        m_window->bringRankToFront();
    } else {
        document->refineProfile(preview);
        carryOver(now);
    }
    m_adjusting = false;
    m_preview = preview;
    if (first)
        m_window->profileView()->fitToProfile();
    updateBanner();
    Q_EMIT previewShown(preview);
}

void LoadController::progress(qint64 done, qint64 total)
{
    m_done = done;
    m_total = total;
    // The banner's rich text is laid out anew each time: once a percent.
    if (isShowingPreview() && percentOf(done, total) != m_percent)
        updateBanner(When::Soon);
}

void LoadController::building(int step, int steps, const QString& what)
{
    if (m_building.step == 0) {
        m_buildClock.start();
        m_buildTicks->start();
    }
    m_building.step = step;
    m_building.steps = steps;
    m_building.what = what;
    if (isShowingPreview())
        updateBanner(When::Soon);
}

void LoadController::updateBanner(When when)
{
    const QString name = MainWindow::displayName(m_path);
    const Profile* preview = isShowingPreview() ? m_preview.profile.get() : nullptr;
    // The reader's progress is queued on its own: the preview may be ahead.
    qint64 done = m_done;
    qint64 total = m_total;
    if (preview && preview->partial() && preview->partial()->bytesRead > done) {
        done = preview->partial()->bytesRead;
        total = preview->partial()->totalBytes;
    }
    m_percent = percentOf(done, total);
    // At once, whatever the text waits for: Stop is gone as soon as there
    // is nothing partial left to keep.
    m_stopButton->setVisible(m_building.step == 0 && !(total > 0 && done >= total));
    constexpr qint64 kBannerEveryMs = 100;
    if (when == When::Soon && m_bannerClock.isValid() && m_bannerClock.elapsed() < kBannerEveryMs) {
        if (!m_bannerLater->isActive())
            m_bannerLater->start(int(kBannerEveryMs - m_bannerClock.elapsed()));
        return;
    }
    m_bannerLater->stop();
    m_bannerClock.start();
    m_building.seconds = m_building.step > 0 ? m_buildClock.elapsed() / 1000 : 0;
    m_building.stopped = m_stopping;
    QString text = bannerText(name, done, total, preview, m_building).toHtmlEscaped();
    if (m_stopping)
        text += tr(" · <b>stopping</b>: what was read is kept");
    m_banner->setNotice(text);
    m_window->setWindowTitle(m_percent >= 0 ? tr("%1 (loading, %2 %) — Runlane").arg(name).arg(m_percent)
                                            : tr("%1 (loading) — Runlane").arg(name));
}

void LoadController::finishing()
{
    // The user's view of the preview, for the profile that replaces it.
    m_keep.reset();
    if (isShowingPreview())
        m_keep = capture();
}

void LoadController::finished()
{
    if (m_keep) {
        m_adjusting = true;
        carryOver(*m_keep);
        m_adjusting = false;
    }
    reset();
}

void LoadController::abandoned()
{
    // Back to what was open before the first preview, as the user left it
    // (the same profile: its ids still hold), or to the empty window.
    if (isShowingPreview()) {
        ProfileDocument* document = m_window->document();
        TimeAxis* axis = m_window->axis();
        m_adjusting = true;
        if (m_before.loaded.isNull()) {
            document->clear();
        } else {
            document->setProfile(m_before.loaded);
            if (m_before.aggregated)
                document->setAggregated(true);
            axis->setVisibleRange(m_before.range.first, m_before.range.second, TimeAxis::History::Skip);
            if (m_before.selection)
                axis->setSelection(m_before.selection->first, m_before.selection->second);
            if (m_before.interval != kNone || m_before.measurement != kNone)
                axis->selectItem(m_before.interval, m_before.measurement);
            axis->restoreHistory(m_before.history); // the same profile: its steps hold
        }
        m_adjusting = false;
        m_window->notices()->setVisible(!m_window->notices()->notices().isEmpty());
        m_window->updateTitle();
    }
    reset();
}

void LoadController::reset()
{
    m_preview = LoadedProfile();
    m_before = ViewState();
    m_keep.reset();
    m_userMoved = false;
    m_stopping = false;
    m_building = Building();
    m_buildTicks->stop();
    m_bannerLater->stop();
    m_bannerClock.invalidate();
    m_banner->clearNotices(); // hides it
}

QString LoadController::bannerText(const QString& name, qint64 done, qint64 total, const Profile* preview,
                                   const Building& building)
{
    // The file read, the profile built from it (seconds, for the biggest):
    // the preview stays until it is, and the banner says which step of the
    // build runs, and for how long.
    const bool allRead = (total > 0 && done >= total) || (building.step > 0 && !building.stopped);
    QString text = allRead && total > 0 ? tr("Loading %1 — all %2 read, building the profile").arg(name, sizeText(total))
        : allRead                       ? tr("Loading %1 — all read, building the profile").arg(name)
        : total > 0                     ? tr("Loading %1 — %2 % (%3 of %4)")
                              .arg(name)
                              .arg(percentOf(done, total))
                              .arg(sizeText(done), sizeText(total))
                                        : tr("Loading %1 — %2 read").arg(name, sizeText(done));
    if (building.step > 0)
        text += tr(" (step %1 of %2: %3, %4 s)").arg(building.step).arg(building.steps).arg(building.what).arg(building.seconds);
    if (!preview || !preview->partial())
        return text;
    const PartialLoad& part = *preview->partial();
    // A format that builds its tasks at the end adds them to its previews
    // as their events so far make them (PreviewSettings::addTasks).
    const QString shortest = QString::fromStdString(ValueFormat::text(part.shortestKept, preview->unit()));
    if (part.shortestKept > 0)
        text += part.holdsTasks ? tr(" · preview of the calls and tasks: calls shorter than %1 hidden").arg(shortest)
                                : tr(" · preview of the calls: those shorter than %1 hidden").arg(shortest);
    else
        text += part.holdsTasks ? tr(" · preview of the calls and tasks read so far") : tr(" · preview of the calls read so far");
    if (part.tasksLeftOut > 0)
        text += tr(" · the %1 shortest-lived tasks left out").arg(QLocale(QLocale::English).toString(qulonglong(part.tasksLeftOut)));
    // Once all is read, no event can still land anywhere.
    if (!allRead)
        text += part.completeUpTo == kTimeMin ? tr(" · events not in time order: any part may still change")
                                              : tr(" · complete up to %1").arg(pointText(*preview, part.completeUpTo));
    return text;
}

QString LoadController::cutNotice(const QString& name, const Profile* profile)
{
    if (!profile || !profile->partial() || profile->partial()->kind != PartialLoad::Kind::Cut)
        return {};
    const PartialLoad& part = *profile->partial();
    const QLocale numbers(QLocale::English);
    const QString where = part.totalBytes > 0 ? tr("byte %1 of %2 (%3 %)")
                                                    .arg(numbers.toString(part.bytesRead), numbers.toString(part.totalBytes))
                                                    .arg(percentOf(part.bytesRead, part.totalBytes))
                                              : tr("byte %1").arg(numbers.toString(part.bytesRead));
    const QString when = part.completeUpTo == kTimeMin
        ? tr("its events were not in time order: any part of the time axis may miss events")
        : tr("complete up to %1").arg(pointText(*profile, part.completeUpTo));
    return tr("<b>%1 is cut</b>: the load was stopped at %2 and what was read is shown, %3. Reload (F5) reads all of it.")
        .arg(name.toHtmlEscaped(), where, when);
}

QString LoadController::titleSuffix(const Profile* profile)
{
    if (!profile || !profile->partial() || profile->partial()->kind != PartialLoad::Kind::Cut)
        return {};
    const PartialLoad& part = *profile->partial();
    return part.totalBytes > 0 ? tr(" (cut at %1 %)").arg(percentOf(part.bytesRead, part.totalBytes)) : tr(" (cut)");
}

} // namespace runlane
