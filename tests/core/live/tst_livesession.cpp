#include "livesession.h"
#include "profileloader.h"

#include <QPointer>
#include <QtTest>

#include <memory>
#include <vector>

using namespace runlane;

namespace {

constexpr Time kSecond = 1'000'000'000;

// A source the test drives: what it "receives" and its status are set by hand.
class FakeSource : public LiveSource
{
public:
    explicit FakeSource(QString description = QStringLiteral("http://fake:1/metrics")) : m_description(std::move(description)) {}
    void start() override { setState(State::Following); }
    void stop() override { setState(State::Stopped); }
    QString description() const override { return m_description; }
    void setState(State state, const QString& message = {})
    {
        Status s = status();
        s.state = state;
        s.message = message;
        setStatus(s);
    }
    void setFetched(const QDateTime& when, quint64 warnings)
    {
        Status s = status();
        s.lastFetch = when;
        s.warnings = warnings;
        setStatus(s);
    }
    void push(std::vector<ScrapedSnapshot> snapshots)
    {
        Q_EMIT received(std::make_shared<const std::vector<ScrapedSnapshot>>(std::move(snapshots)));
    }

private:
    QString m_description;
};

// `procs` procs p0, p1, …; proc i has exec (i + 1) × exec at `second`.
ScrapedSnapshot at(int second, int procs, Time exec = 1000)
{
    ScrapedSnapshot s;
    s.time = Time(second) * kSecond;
    for (int i = 0; i < procs; ++i) {
        NamedAggregateRow r;
        r.procedure = "p" + std::to_string(i);
        r.file = "node.nim";
        r.line = i + 1;
        r.values.exec = Time(i + 1) * exec;
        s.rows.push_back(r);
    }
    return s;
}

QString clock(int second)
{
    return QDateTime::fromMSecsSinceEpoch(qint64(second) * 1000).toString(QStringLiteral("HH:mm:ss"));
}

} // namespace

class TestLiveSession : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init()
    {
        QVERIFY(m_dir.isValid());
        m_session = std::make_unique<LiveSession>(m_dir.path());
        m_source = new FakeSource;
        m_session->attach(std::unique_ptr<LiveSource>(m_source));
    }

    void cleanup()
    {
        m_session.reset();
        QDir(m_dir.path()).removeRecursively();
        QDir().mkpath(m_dir.path());
    }

    void makesItsSources()
    {
        LiveSession session(m_dir.path());
        QString error;
        QVERIFY(!session.makeSource(QUrl(QStringLiteral("ftp://h/x")), LiveOptions(), &error));
        QVERIFY2(!error.isEmpty(), "an unknown scheme is said");
        QVERIFY(session.makeSource(QUrl(QStringLiteral("http://127.0.0.1:1/metrics")), LiveOptions(), &error));
        int made = 0;
        session.setSourceFactory([&](const QUrl& url, const LiveOptions&, QString*) {
            ++made;
            return std::make_unique<FakeSource>(url.toString());
        });
        const auto source = session.makeSource(QUrl(QStringLiteral("ftp://h/x")), LiveOptions(), &error);
        QCOMPARE(made, 1);
        QCOMPARE(source->description(), QStringLiteral("ftp://h/x"));
    }

    void attachStartDetach()
    {
        LiveSession& s = *m_session;
        QSignalSpy status(&s, &LiveSession::statusChanged);
        QVERIFY(s.isAttached());
        QCOMPARE(s.source(), m_source);
        QCOMPARE(s.recording()->source(), std::string("http://fake:1/metrics"));
        QCOMPARE(s.recording()->snapshotCount(), std::size_t(0));
        QVERIFY(s.recovery().isOpen());
        QCOMPARE(LiveRecovery::recordedFrom(s.recovery().path()), QStringLiteral("http://fake:1/metrics"));
        // Attached, not started: nothing is fetched yet.
        QCOMPARE(m_source->status().state, LiveSource::State::Idle);
        QCOMPARE(s.statusText(nullptr), QStringLiteral("● http://fake:1/metrics: connecting — no data yet"));
        s.start();
        QCOMPARE(status.count(), 1);
        QCOMPARE(s.statusText(nullptr), QStringLiteral("● http://fake:1/metrics: following — no data yet"));

        QPointer<LiveSource> source = m_source;
        QVERIFY(s.detach());
        QCOMPARE(status.count(), 1); // its stop is not said: it is no longer ours
        QCOMPARE(source->status().state, LiveSource::State::Stopped);
        QVERIFY(!s.isAttached());
        QCOMPARE(s.source(), nullptr);
        QVERIFY(!s.detach());
        QVERIFY(!s.recovery().isOpen());
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
        QVERIFY(source.isNull());
        // The recording stays.
        QVERIFY(s.recording());
        QCOMPARE(s.recording()->source(), std::string("http://fake:1/metrics"));
    }

    void status_data()
    {
        QTest::addColumn<int>("state"); // LiveSource::State
        QTest::addColumn<QString>("message");
        QTest::addColumn<bool>("following");
        QTest::addColumn<int>("fetchedAt"); // second; -1: never
        QTest::addColumn<int>("warnings");
        QTest::addColumn<bool>("reset");
        QTest::addColumn<QString>("text"); // %1 the data's clock, %2 the fetch's
        const QString data = QStringLiteral("2 snapshots, 3 procs, data of %1");
        QTest::newRow("connecting") << int(LiveSource::State::Connecting) << QString() << true << -1 << 0 << false
                                    << QStringLiteral("● http://fake:1/metrics: connecting — ") + data;
        QTest::newRow("following") << int(LiveSource::State::Following) << QString() << true << 7 << 0 << false
                                   << QStringLiteral("● http://fake:1/metrics: following — ") + data + QStringLiteral(", fetched %2");
        QTest::newRow("not following") << int(LiveSource::State::Following) << QString() << false << 7 << 0 << false
                                       << QStringLiteral("● http://fake:1/metrics: attached (not following: press Follow) — ")
                                              + data + QStringLiteral(", fetched %2");
        QTest::newRow("retrying, said once") << int(LiveSource::State::Retrying)
                                             << QStringLiteral("connection refused — retrying in 4 s") << true << 7 << 0 << false
                                             << QStringLiteral("● http://fake:1/metrics: connection refused — retrying in 4 s — ")
                                                    + data + QStringLiteral(", fetched %2");
        QTest::newRow("stopped") << int(LiveSource::State::Stopped) << QString() << true << -1 << 0 << false
                                 << QStringLiteral("● http://fake:1/metrics: stopped — ") + data;
        QTest::newRow("one malformed line") << int(LiveSource::State::Following) << QString() << true << 7 << 1 << false
                                            << QStringLiteral("● http://fake:1/metrics: following — ") + data
                                                   + QStringLiteral(", fetched %2, 1 malformed line skipped");
        QTest::newRow("malformed lines and a reset")
            << int(LiveSource::State::Following) << QString() << true << 7 << 1234 << true
            << QStringLiteral("● http://fake:1/metrics: following — ") + data
                   + QStringLiteral(", fetched %2, 1,234 malformed lines skipped, 3 counter resets");
    }
    void status()
    {
        QFETCH(int, state);
        QFETCH(QString, message);
        QFETCH(bool, following);
        QFETCH(int, fetchedAt);
        QFETCH(int, warnings);
        QFETCH(bool, reset);
        QFETCH(QString, text);
        m_source->push({at(1, 3), at(2, 3, reset ? 1 : 1000)});
        m_source->setState(LiveSource::State(state), message);
        if (fetchedAt >= 0)
            m_source->setFetched(QDateTime::fromMSecsSinceEpoch(qint64(fetchedAt) * 1000), quint64(warnings));
        m_session->setFollowing(following);
        QCOMPARE(m_session->isFollowing(), following);
        QCOMPARE(m_session->statusText(nullptr), fetchedAt < 0 ? text.arg(clock(2)) : text.arg(clock(2), clock(fetchedAt)));
    }

    // Detached, it speaks of the recording only while it is the profile shown.
    void statusWhenDetached()
    {
        m_source->push({at(1, 2), at(2, 2)});
        const auto version = m_session->recording()->profile();
        QVERIFY(m_session->detach());
        const QString detached = QStringLiteral("Detached from http://fake:1/metrics — 2 snapshots, 2 procs, data of %1").arg(clock(2));
        QCOMPARE(m_session->statusText(version.get()), detached);
        QCOMPARE(m_session->statusText(nullptr), QString());
        LiveRecording other("other.json");
        other.add({at(1, 1)});
        QCOMPARE(m_session->statusText(other.profile().get()), QString());
        // Nothing attached ever: nothing said.
        QCOMPARE(LiveSession(m_dir.path()).statusText(version.get()), QString());
    }

    void receivesWhatIsNew()
    {
        QSignalSpy recorded(m_session.get(), &LiveSession::recorded);
        m_source->push({at(1, 2), at(2, 2)});
        QCOMPARE(recorded.count(), 1);
        QCOMPARE(m_session->recording()->snapshotCount(), std::size_t(2));
        m_source->push({at(2, 2)}); // a repeat: nothing new
        m_source->push({});
        m_session->receive(nullptr);
        QCOMPARE(recorded.count(), 1);
        m_source->push({at(1, 2), at(3, 3)}); // one old, one new
        QCOMPARE(recorded.count(), 2);
        QCOMPARE(m_session->recording()->snapshotCount(), std::size_t(3));
        QCOMPARE(m_session->recording()->procCount(), std::size_t(3));
        // What a detached source would still say is not taken.
        m_session->detach();
        m_source->push({at(4, 2)});
        QCOMPARE(m_session->recording()->snapshotCount(), std::size_t(3));
        QCOMPARE(recorded.count(), 2);
    }

    // One version at a time; data that arrives meanwhile makes one more.
    void versionsOneAtATime()
    {
        LiveSession& s = *m_session;
        QVERIFY(!s.isBuilding());
        QCOMPARE(s.shownSnapshots(), std::size_t(0));
        m_source->push({at(1, 2)});
        auto first = s.nextVersion();
        QVERIFY(first);
        QCOMPARE(first->snapshots.size(), std::size_t(1));
        QCOMPARE(first->source, std::string("http://fake:1/metrics"));
        QVERIFY(s.isBuilding());
        QVERIFY(!s.hasPendingData());
        m_source->push({at(2, 2)});
        m_source->push({at(3, 2)});
        QVERIFY(!s.nextVersion());
        QVERIFY(!s.nextVersion());
        QVERIFY(s.hasPendingData());
        QVERIFY(s.versionBuilt()); // the first: shown
        s.setShownSnapshots(first->snapshots.size());
        QCOMPARE(s.shownSnapshots(), std::size_t(1));
        QVERIFY(s.isBuilding()); // data waits
        QVERIFY(s.hasPendingData());
        auto second = s.nextVersion();
        QVERIFY(second);
        QCOMPARE(second->snapshots.size(), std::size_t(3));
        QVERIFY(!s.hasPendingData());
        QVERIFY(s.versionBuilt());
        QVERIFY(!s.isBuilding());
    }

    void versionsGivenUp_data()
    {
        QTest::addColumn<bool>("reattach"); // else another file opened
        QTest::newRow("another file") << false;
        QTest::newRow("attached again") << true;
    }
    void versionsGivenUp()
    {
        QFETCH(bool, reattach);
        LiveSession& s = *m_session;
        m_source->push({at(1, 2)});
        QVERIFY(s.nextVersion());
        m_source->push({at(2, 2)});
        QVERIFY(!s.nextVersion());
        QVERIFY(s.hasPendingData());
        s.setShownSnapshots(1);
        if (reattach) {
            m_source = new FakeSource;
            s.attach(std::unique_ptr<LiveSource>(m_source));
            QCOMPARE(s.shownSnapshots(), std::size_t(0));
            QCOMPARE(s.recording()->snapshotCount(), std::size_t(0));
            QVERIFY(!s.versionBuilt()); // not shown
        } else {
            s.dropVersionsUnderWay();
            QVERIFY(!s.hasPendingData());
            QVERIFY(!s.versionBuilt()); // not shown
            QVERIFY(!s.isBuilding());
        }
        // The next data makes a version that is shown.
        m_source->push({at(3, 2)});
        const auto next = s.nextVersion();
        QVERIFY(next);
        QCOMPARE(next->snapshots.size(), reattach ? std::size_t(1) : std::size_t(3));
        QVERIFY(s.versionBuilt());
    }

    void saves_data()
    {
        QTest::addColumn<bool>("received");
        QTest::addColumn<bool>("writable");
        QTest::addColumn<QString>("error"); // %1 the path
        QTest::newRow("saved") << true << true << QString();
        QTest::newRow("nothing received") << false << true << QStringLiteral("nothing was received yet");
        QTest::newRow("no such folder") << true << false << QStringLiteral("%1: ");
    }
    void saves()
    {
        QFETCH(bool, received);
        QFETCH(bool, writable);
        QFETCH(QString, error);
        if (received)
            m_source->push({at(1, 2), at(2, 2), at(3, 2)});
        QTemporaryDir dir;
        const QString path = dir.filePath(writable ? QStringLiteral("rec.json") : QStringLiteral("gone/rec.json"));
        QString why;
        QCOMPARE(m_session->saveRecording(path, &why), error.isEmpty());
        QVERIFY2(why.startsWith(error.contains(QStringLiteral("%1")) ? error.arg(path) : error), qPrintable(why));
        QCOMPARE(m_session->isSaved(), error.isEmpty());
        if (error.isEmpty()) {
            const auto loaded = ProfileLoader::load(path);
            QVERIFY(loaded.profile);
            QCOMPARE(loaded.profile->snapshots().size(), std::size_t(3));
        }
    }

    // The recovery file is kept when the recording was not saved and had
    // data, whether it ends by detaching or with the program.
    void recoveryKeptOrRemoved_data()
    {
        QTest::addColumn<bool>("received");
        QTest::addColumn<int>("save"); // 0 never, 1 before detaching, 2 after
        QTest::addColumn<bool>("detach"); // else the session ends attached
        QTest::addColumn<bool>("kept");
        QTest::newRow("unsaved, detached") << true << 0 << true << true;
        QTest::newRow("unsaved, ended") << true << 0 << false << true;
        QTest::newRow("nothing received, detached") << false << 0 << true << false;
        QTest::newRow("nothing received, ended") << false << 0 << false << false;
        QTest::newRow("saved, then detached") << true << 1 << true << false;
        QTest::newRow("saved, then ended") << true << 1 << false << false;
        QTest::newRow("detached, then saved") << true << 2 << true << false;
    }
    void recoveryKeptOrRemoved()
    {
        QFETCH(bool, received);
        QFETCH(int, save);
        QFETCH(bool, detach);
        QFETCH(bool, kept);
        if (received)
            m_source->push({at(1, 2), at(2, 2)});
        const QString recovery = m_session->recovery().path();
        QTemporaryDir dir;
        if (save == 1)
            QVERIFY(m_session->saveRecording(dir.filePath(QStringLiteral("a.json"))));
        if (detach)
            m_session->detach();
        if (save == 2) {
            QVERIFY(QFile::exists(recovery)); // until saved
            QVERIFY(m_session->saveRecording(dir.filePath(QStringLiteral("a.json"))));
        }
        m_session.reset();
        QCOMPARE(QFile::exists(recovery), kept);
        QCOMPARE(QFile::exists(recovery + QStringLiteral(".url")), kept);
        QCOMPARE(LiveRecovery(m_dir.path()).recoverableFiles(), kept ? QStringList{recovery} : QStringList());
        if (kept) {
            const auto loaded = ProfileLoader::load(recovery);
            QVERIFY(loaded.profile);
            QCOMPARE(loaded.profile->snapshots().size(), std::size_t(2));
        }
    }

    // New data after a save is unsaved again.
    void dataAfterASaveIsUnsaved()
    {
        m_source->push({at(1, 2)});
        QTemporaryDir dir;
        QVERIFY(m_session->saveRecording(dir.filePath(QStringLiteral("a.json"))));
        QVERIFY(m_session->isSaved());
        m_source->push({at(1, 2)}); // nothing new: still saved
        QVERIFY(m_session->isSaved());
        m_source->push({at(2, 2)});
        QVERIFY(!m_session->isSaved());
        const QString recovery = m_session->recovery().path();
        m_session->detach();
        QVERIFY(QFile::exists(recovery));
    }

private:
    QTemporaryDir m_dir;
    std::unique_ptr<LiveSession> m_session;
    FakeSource* m_source = nullptr;
};

QTEST_GUILESS_MAIN(TestLiveSession)
#include "tst_livesession.moc"
