#pragma once

#include "loadedprofile.h"
#include "timeaxis.h"

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QTimer>

#include <optional>
#include <utility>

class QPushButton;

namespace runlane {

class BackgroundLoader;
class MainWindow;
class NoticeBar;

// What the window shows while a big file loads: each preview the loader
// gives (Profile::partial(): Preview) is shown in the views like a profile,
// the user can zoom, pan, select and search in it; a banner above the views
// says how far the load is, what the preview leaves out and which part of
// the time axis is complete, with "Stop and keep what was read"
// (BackgroundLoader::stop: the profile read so far, cut) and "Cancel" (back
// to the profile open before, as it was, or to the empty window). A range
// the user zoomed or panned to stays across previews and into the final
// profile; untouched, the view follows the growing span. MainWindow calls
// started(), finishing()/finished() around showing the result, and
// abandoned() when the load fails or is cancelled.
class LoadController : public QObject
{
    Q_OBJECT

public:
    LoadController(MainWindow* window, BackgroundLoader* loader);

    // The banner above the views (a NoticeBar with the two buttons).
    NoticeBar* banner() const { return m_banner; }
    bool isShowingPreview() const;
    // The open profile the Cancel button goes back to (null: none).
    const LoadedProfile& previous() const { return m_before.loaded; }

    void started(const QString& path);
    void finishing();
    void finished();
    void abandoned();

    // Once the file is read: the build's step (BackgroundLoader::building)
    // and the seconds since the build began.
    struct Building {
        int step = 0; // none yet
        int steps = 0;
        QString what;
        qint64 seconds = 0;
        // Stopped and kept: the build is of what was read, not of all.
        bool stopped = false;
    };
    // The banner's text: `done` of `total` bytes read (total <= 0: unknown),
    // the build's step once begun, and what the preview shown holds (none
    // yet: null).
    static QString bannerText(const QString& name, qint64 done, qint64 total, const Profile* preview,
                              const Building& building);
    static QString bannerText(const QString& name, qint64 done, qint64 total, const Profile* preview)
    {
        return bannerText(name, done, total, preview, Building());
    }
    // For a profile whose load was stopped and kept (PartialLoad::Cut): a
    // notice saying where it was cut, and the window title's suffix; empty
    // for any other profile.
    static QString cutNotice(const QString& name, const Profile* profile);
    static QString titleSuffix(const Profile* profile);

Q_SIGNALS:
    // A preview is in the views (runlane --report-first-frame).
    void previewShown(const runlane::LoadedProfile& preview);

private:
    // How the user left the views of a profile, to give back to it or to its successor.
    struct ViewState {
        LoadedProfile loaded;
        std::pair<Time, Time> range{0, 1};
        std::optional<std::pair<Time, Time>> selection;
        bool aggregated = false;
        IntervalId interval = kNone;
        MeasurementId measurement = kNone;
        TimeAxis::Steps history;
    };
    // After a preview or the whole profile refined `state.loaded`
    // (ProfileDocument::refineProfile, which keeps what is found again by
    // what it is): the axis as the user left it: the range (if moved), the
    // time selection and the zoom history.
    void carryOver(const ViewState& state);
    ViewState capture() const;
    void showPreview(const LoadedProfile& preview);
    void progress(qint64 done, qint64 total);
    void building(int step, int steps, const QString& what);
    // Now: a preview, the start, a click; Soon: the read's percent and the
    // build's reports, at most every kBannerEveryMs (a 1 M-event file
    // moved a percent every 4 ms, and each new text was laid out again
    // on the GUI thread beside the two loading threads).
    enum class When { Now, Soon };
    void updateBanner(When when = When::Now);
    void reset();

    MainWindow* m_window;
    BackgroundLoader* m_loader;
    NoticeBar* m_banner;
    // Gone once everything is read and while the profile is built: there
    // is no part of it to keep (a stop then would keep it all; Cancel goes
    // back).
    QPushButton* m_stopButton;
    QString m_path;
    qint64 m_done = 0;
    qint64 m_total = 0;
    int m_percent = -1; // the banner's, redone when it changes
    Building m_building;
    // While the profile is built: the banner's seconds tick, so that it
    // shows the load is alive through a step of many seconds.
    QElapsedTimer m_buildClock;
    QTimer* m_buildTicks;
    QElapsedTimer m_bannerClock; // since the banner's text was last written
    QTimer* m_bannerLater;       // a Soon update that waits for its turn
    LoadedProfile m_preview; // the preview in the views
    ViewState m_before;      // the profile open before the first preview
    std::optional<ViewState> m_keep; // finishing(): the user's view of the preview, for the profile
    bool m_userMoved = false; // the user zoomed or panned in a preview
    bool m_adjusting = false; // the axis moves because of us
    bool m_stopping = false;
};

} // namespace runlane
