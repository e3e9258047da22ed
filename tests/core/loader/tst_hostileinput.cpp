// Files from strangers: truncated, out-of-range numbers, absurd nesting,
// wrong encodings, things that are not regular files, files that change
// while they load. Each must give a profile (with its warnings counted) or
// a clear error, never a crash, a hang or an exception. Runs on both JSON
// paths (the suite's `_reference` twin).
#include "fuzz/analyseprofile.h"
#include "loaderror.h"
#include "testsupport.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QtTest>

#include <grp.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <functional>
#include <thread>

using namespace runlane;
using runlane::test::readAll;
using runlane::test::dataPath;
using runlane::test::loadText;

namespace {

QString errorOf(const LoadResult& r)
{
    return r.ok() ? QString() : QString::fromStdString(r.error.message);
}

// Every value in a JSON document, by path (object keys and array indices).
void collectPaths(const QJsonValue& value, QList<QVariantList>& paths, QVariantList path = {})
{
    if (!path.isEmpty())
        paths.append(path);
    if (value.isObject()) {
        const QJsonObject object = value.toObject();
        for (auto it = object.begin(); it != object.end(); ++it)
            collectPaths(it.value(), paths, path + QVariantList{it.key()});
    } else if (value.isArray()) {
        const QJsonArray array = value.toArray();
        for (qsizetype i = 0; i < array.size(); ++i)
            collectPaths(array[i], paths, path + QVariantList{i});
    }
}

// `document` with the value at `path` replaced (Undefined: removed).
QJsonValue replaced(const QJsonValue& document, const QVariantList& path, const QJsonValue& value, qsizetype at = 0)
{
    if (at == path.size())
        return value;
    if (document.isObject()) {
        QJsonObject object = document.toObject();
        const QString key = path[at].toString();
        const QJsonValue inner = replaced(object.value(key), path, value, at + 1);
        if (inner.isUndefined())
            object.remove(key);
        else
            object[key] = inner;
        return object;
    }
    QJsonArray array = document.toArray();
    const qsizetype index = path[at].toLongLong();
    const QJsonValue inner = replaced(array[index], path, value, at + 1);
    if (inner.isUndefined())
        array.removeAt(index);
    else
        array[index] = inner;
    return array;
}

QString pathText(const QVariantList& path)
{
    QStringList parts;
    for (const QVariant& p : path)
        parts << p.toString();
    return parts.join(QLatin1Char('.'));
}

// A Chrome trace of `count` back-to-back X events, written to `path`.
QByteArray writeSteps(const QString& path, int count)
{
    QByteArray text = "[";
    for (int i = 0; i < count; ++i)
        text += JSON({"ph":"X","name":"step","pid":1,"tid":1,"ts":) + QByteArray::number(i * 10) + ",\"dur\":5},";
    text.chop(1);
    text += "]";
    QFile out(path);
    if (!out.open(QIODevice::WriteOnly) || out.write(text) != text.size())
        return {};
    return text;
}

// Loads from a new FIFO at `path` while another thread writes `write`'s
// bytes into it. A reader that gives up early makes the writer's next
// write fail (EPIPE) instead of killing the test with SIGPIPE.
LoadResult loadThroughFifo(const QString& path, const std::function<void(QFile&)>& write,
                           const LoadControl& control = {})
{
    if (::mkfifo(QFile::encodeName(path).constData(), 0600) != 0)
        return {};
    const auto previous = std::signal(SIGPIPE, SIG_IGN);
    std::thread writer([&] {
        QFile out(path);
        if (out.open(QIODevice::WriteOnly))
            write(out);
    });
    LoadResult r = ProfileLoader::load(path, control);
    writer.join();
    std::signal(SIGPIPE, previous);
    return r;
}

} // namespace

class TestHostileInput : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Every prefix of a small file of each format: a profile of no more
    // intervals than the whole file's, or an error with a message and a
    // byte offset inside the prefix. The empty prefix is an empty file.
    void truncatedAtEveryOffset_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("intervals"); // of the whole file
        // Event streams give what came before the cut; a speedscope file is
        // one document (frames are defined apart from where they are used),
        // so it loads only whole (trailing blanks aside).
        QTest::addColumn<bool>("tolerant");
        QTest::newRow("chrome") << "profiles/fgh-chrome.json" << 3 << true;
        QTest::newRow("enso") << "profiles/fgh-enso.json" << 3 << true;
        QTest::newRow("enso async") << "profiles/enso-async.json" << 8 << true;
        QTest::newRow("chronos") << "profiles/chronos-states.json" << 3 << true;
        QTest::newRow("chroprof rows") << "profiles/chroprof-rows.json" << 0 << true;
        QTest::newRow("chroprof snapshots") << "profiles/chroprof-snapshots.json" << 0 << true;
        QTest::newRow("speedscope evented") << "samples/speedscope/0.0.1_simple-no-pretty-print.speedscope.json" << 5 << false;
        QTest::newRow("speedscope sampled") << "samples/speedscope/0.1.2_simple-sampled.speedscope.json" << 5 << false;
        // One document: a thread's tables are read when its object closes.
        QTest::newRow("gecko") << "samples/gecko/firefox-gecko-2.json" << 36 << false;
        QTest::newRow("folded") << "samples/folded/recursion.txt" << 16 << true;
        // Its string table comes last: no cut of it is a profile.
        QTest::newRow("pprof") << "samples/pprof/speedscope-simple.prof.pb" << 27 << false;
    }

    void truncatedAtEveryOffset()
    {
        QFETCH(QString, file);
        QFETCH(int, intervals);
        QFETCH(bool, tolerant);
        const QByteArray whole = readAll(dataPath(file));
        QVERIFY(!whole.isEmpty());
        const LoadResult full = loadText(whole);
        QVERIFY2(full.ok(), full.error.toString().c_str());
        QCOMPARE(int(full.profile->intervalCount()), intervals);
        int loaded = 0; // prefixes short of the whole document that load
        for (qsizetype length = 0; length < whole.size(); ++length) {
            const LoadResult r = loadText(whole.left(length));
            const QByteArray where = file.toUtf8() + " cut at byte " + QByteArray::number(length);
            const bool complete = whole.left(length).trimmed() == whole.trimmed();
            if (!tolerant)
                QVERIFY2(r.ok() == complete, where);
            if (r.ok()) {
                loaded += complete ? 0 : 1;
                QVERIFY2(r.profile->intervalCount() <= std::size_t(intervals), where);
                continue;
            }
            QVERIFY2(!r.error.message.empty(), where);
            QVERIFY2(!r.error.cancelled, where);
            QVERIFY2(r.error.byteOffset <= std::int64_t(length), where + ": " + r.error.toString().c_str());
            if (length == 0)
                QCOMPARE(errorOf(r), QStringLiteral("the file is empty"));
        }
        // An unterminated array or a cut last line still gives what came
        // before it (how much depends on the format).
        QCOMPARE(loaded > 0, tolerant);
    }

    // Numbers that do not fit, and strings where numbers belong.
    void outOfRangeNumbers_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("error"); // empty: it loads
        QTest::addColumn<int>("warnings");
        const QByteArray x = "[" + JSON({"ph":"X","name":"a","pid":1,"tid":1,);
        QTest::newRow("chrome ts 1e300") << x + JSON("ts":1e300,"dur":1}]) << "'ts' 1e300 is out of range (more than 292 years from 0)" << 0;
        QTest::newRow("chrome ts NaN") << x + JSON("ts":"NaN","dur":1}]) << "'ts' must be a number of microseconds, found \"NaN\"" << 0;
        QTest::newRow("chrome negative dur") << x + JSON("ts":5,"dur":-3}]) << "" << 1;
        QTest::newRow("chrome ts + dur beyond int64 ns")
            << x + JSON("ts":9223372036854775,"dur":1}]) << "'ts' + 'dur' is out of range" << 0;
        // The largest Time marks an interval still open: one below it is the last.
        QTest::newRow("chrome ts at the int64 edge")
            << x + JSON("ts":9223372036854775.807,"dur":0}]) << "'ts' + 'dur' is out of range" << 0;
        QTest::newRow("chrome times 500 years apart")
            << x + JSON("ts":-9000000000000000,"dur":1},{"ph":"X","name":"b","pid":1,"tid":1,"ts":9000000000000000,"dur":1}])
            << "the times in this file span more than 292 years (from -9000000000000000000 ns to 9000000000000001000 ns)" << 0;
        QTest::newRow("chrome ts just below the int64 edge")
            << x + JSON("ts":9223372036854775.806,"dur":0}]) << "" << 0;
        QTest::newRow("chronos t 1e300") << JSON({"chronosFutureEvents": 1, "events": [{"t": 1e300, "id": 1, "state": "Pending", "proc": "a", "file": "a.nim", "line": 1}]})
                                         << "'t' must be integer nanoseconds, found 1e300" << 0;
        QTest::newRow("chronos id beyond uint64")
            << JSON({"chronosFutureEvents": 1, "events": [{"t": 0, "id": 18446744073709551616, "state": "Pending", "proc": "a", "file": "a.nim", "line": 1}]})
            << "'id' must be an integer, found 18446744073709551616" << 0;
        QTest::newRow("enso t 1e300") << JSON([{"L":{"l":"main (a.rs:1)"}},{"C":{"p":-1,"t":1e300,"l":0}}])
                                      << "'t' of a 'C' event must be an unsigned integer (microseconds), found 1e300" << 0;
        QTest::newRow("enso t beyond int64 ns")
            << JSON([{"L":{"l":"main (a.rs:1)"}},{"C":{"p":-1,"t":5,"l":0}},{"S":{"i":0,"t":9223372036854775807}}])
            << "a time of 9223372036854775807 µs (+ $TimeOffset 0) is out of range" << 0;
        QTest::newRow("enso undefined label") << JSON([{"L":{"l":"main (a.rs:1)"}},{"C":{"p":-1,"t":5,"l":99999999999}}])
                                              << "" << 1;
        QTest::newRow("chroprof exec 1e300")
            << JSON([{"location": {"procedure": "a", "file": "x.nim", "line": 1}, "execTime": 1e300, "callCount": 1}])
            << "'execTime' must be a non-negative integer (nanoseconds or a count), found 1e300" << 0;
        QTest::newRow("speedscope endValue 1e300")
            << JSON({"$schema":"https://www.speedscope.app/file-format-schema.json","shared":{"frames":[{"name":"a"}]},"profiles":[{"type":"evented","name":"p","unit":"milliseconds","startValue":0,"endValue":1e300,"events":[{"type":"O","frame":0,"at":0},{"type":"C","frame":0,"at":1}]}]})
            << "endValue is out of range" << 0;
        QTest::newRow("folded count beyond int64") << QByteArray("a;b 99999999999999999999\na 1\n") << "" << 1;
    }

    void outOfRangeNumbers()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, error);
        QFETCH(int, warnings);
        const LoadResult r = loadText(text);
        QCOMPARE(errorOf(r), error);
        if (r.ok())
            QCOMPARE(int(r.profile->diagnostics().warningCount()), warnings);
    }

    // A million levels: of arrays where an event belongs, of arrays inside
    // an event's args (skipped), and of B events never closed.
    void deepNesting()
    {
        const int depth = 1'000'000;
        LoadResult r = loadText("[" + QByteArray(depth, '[') + QByteArray(depth, ']') + "]");
        QCOMPARE(errorOf(r), QStringLiteral("expected an event object, found an array"));
        QCOMPARE(r.error.eventIndex, std::int64_t(0));
        QCOMPARE(r.error.byteOffset, std::int64_t(2)); // where the reader saw it: just after that '['


        r = loadText(JSON([{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":2,"args":) + QByteArray(depth, '[')
                     + QByteArray(depth, ']') + "}]");
        QVERIFY2(r.ok(), r.error.toString().c_str());
        QCOMPARE(r.profile->intervalCount(), std::size_t(1));

        QByteArray begins = "[";
        for (int i = 0; i < depth; ++i)
            begins += JSON({"ph":"B","name":"a","pid":1,"tid":1,"ts":) + QByteArray::number(i) + "},";
        // Something later, so that the innermost one is not cut to nothing
        // by the end of the profile.
        begins += JSON({"ph":"i","name":"later","pid":1,"tid":1,"ts":) + QByteArray::number(2 * depth) + "}]";
        r = loadText(begins);
        QVERIFY2(r.ok(), r.error.toString().c_str());
        QCOMPARE(r.profile->intervalCount(), std::size_t(depth));
        QCOMPARE(r.profile->track(0).depthCount(), depth);
        QCOMPARE(r.profile->diagnostics().warningCount(), std::uint64_t(depth)); // each never closed

        // A million async tasks alive at once: a lane each, packed in
        // O(n log n) (first fit by scanning rows was quadratic: 28 s for
        // 200,000).
        QByteArray tasks = "[";
        for (int i = 0; i < depth; ++i)
            tasks += JSON({"ph":"b","name":"t","cat":"c","pid":1,"tid":1,"id":) + QByteArray::number(i) + ",\"ts\":"
                + QByteArray::number(i) + "},";
        for (int i = 0; i < depth; ++i)
            tasks += JSON({"ph":"e","name":"t","cat":"c","pid":1,"tid":1,"id":) + QByteArray::number(i) + ",\"ts\":"
                + QByteArray::number(2 * depth + i) + "},";
        tasks.chop(1);
        tasks += "]";
        r = loadText(tasks);
        QVERIFY2(r.ok(), r.error.toString().c_str());
        QCOMPARE(r.profile->intervalCount(), std::size_t(depth));
        QCOMPARE(r.profile->track(0).depthCount(), depth);
    }

    void encodings_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("error");
        const QByteArray event = JSON([{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":1}]);
        QTest::newRow("UTF-8 with BOM") << "\xef\xbb\xbf" + event << "";
        QByteArray utf16le("\xff\xfe", 2);
        QByteArray utf16be("\xfe\xff", 2);
        for (const char c : event) {
            utf16le += c;
            utf16le += '\0';
            utf16be += '\0';
            utf16be += c;
        }
        const QString notUtf8 = QStringLiteral("the file is UTF-16 text but not folded stacks; JSON profiles must be UTF-8");
        QTest::newRow("UTF-16 LE with BOM") << utf16le << notUtf8;
        QTest::newRow("UTF-16 BE with BOM") << utf16be << notUtf8;
        QTest::newRow("invalid UTF-8 in a name")
            << QByteArray("[{\"ph\":\"X\",\"name\":\"a\xff\xfe" "b\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1}]")
            << "invalid JSON: syntax error while parsing value - invalid string: ill-formed UTF-8 byte; last read: '\"a\\xff'";
    }

    void encodings()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, error);
        const LoadResult r = loadText(text);
        QCOMPARE(errorOf(r), error);
        if (r.ok())
            QCOMPARE(r.profile->intervalCount(), std::size_t(1));
    }

    void notRegularFiles()
    {
        QTemporaryDir dir;
        LoadResult r = ProfileLoader::load(dir.path());
        QCOMPARE(errorOf(r), QStringLiteral("this is a directory, not a profile file"));
        r = ProfileLoader::load(dir.filePath(QStringLiteral("gone.json")));
        QCOMPARE(errorOf(r), QStringLiteral("no such file"));

        // A FIFO: read as a stream when something writes to it...
        const QString fifo = dir.filePath(QStringLiteral("fifo"));
        const QByteArray profile = readAll(dataPath(QStringLiteral("profiles/fgh-chrome.json")));
        r = loadThroughFifo(fifo, [&profile](QFile& out) { out.write(profile); });
        QVERIFY2(r.ok(), r.error.toString().c_str());
        QCOMPARE(r.profile->intervalCount(), std::size_t(3));
        // ... an error, not a hang, when nothing does ...
        LoadControl control;
        control.pipeWaitMs = 300;
        r = ProfileLoader::load(fifo, control);
        QCOMPARE(errorOf(r), QStringLiteral("nothing came through this pipe in 0 s; is anything writing to it?"));
        // ... and Cancel works while it waits.
        std::atomic<bool> cancel{false};
        control.pipeWaitMs = 60'000;
        control.cancel = &cancel;
        std::thread canceller([&cancel] {
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
            cancel = true;
        });
        QElapsedTimer clock;
        clock.start();
        r = ProfileLoader::load(fifo, control);
        canceller.join();
        QVERIFY(r.error.cancelled);
        QVERIFY(clock.elapsed() < 5000);
    }

    void unreadableFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("secret.json"));
        QVERIFY(QFile::copy(dataPath(QStringLiteral("profiles/fgh-chrome.json")), path));
        QVERIFY(QFile::setPermissions(path, QFileDevice::WriteOwner));
        const QString expected = QStringLiteral("cannot open the file: Permission denied");
        if (::geteuid() != 0) {
            QCOMPARE(errorOf(ProfileLoader::load(path)), expected);
            return;
        }
        // Root reads anything, and CI runs as root: load in a child that
        // became nobody (65534). The folder is opened up so that only the
        // file's own permission stands in the way.
        QVERIFY(QFile::setPermissions(dir.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner
                                                      | QFileDevice::ReadOther | QFileDevice::ExeOther));
        const pid_t child = ::fork();
        QVERIFY(child >= 0);
        if (child == 0) {
            if (::setgroups(0, nullptr) != 0 || ::setgid(65534) != 0 || ::setuid(65534) != 0)
                ::_exit(3);
            ::_exit(errorOf(ProfileLoader::load(path)) == expected ? 0 : 1);
        }
        int status = 0;
        QCOMPARE(::waitpid(child, &status, 0), child);
        QVERIFY(WIFEXITED(status));
        if (WEXITSTATUS(status) == 3)
            QSKIP("cannot become nobody to test an unreadable file as root");
        QCOMPARE(WEXITSTATUS(status), 0);
    }

    // Deleted or cut short by someone else while it loads (at the first
    // progress report, after the first MiB): deleted, it still reads to
    // the end (the open file stays); cut, it ends where the file now ends.
    void fileChangesWhileLoading_data()
    {
        QTest::addColumn<bool>("remove");
        QTest::newRow("deleted") << true;
        QTest::newRow("truncated") << false;
    }

    void fileChangesWhileLoading()
    {
        QFETCH(bool, remove);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("big.json"));
        QVERIFY(writeSteps(path, 60'000).size() > 3 * (1 << 20));
        bool changed = false;
        LoadControl control;
        control.progress = [&](std::int64_t, std::int64_t) {
            if (changed)
                return;
            changed = true;
            if (remove)
                QFile::remove(path);
            else
                QFile::resize(path, 1000);
        };
        const LoadResult r = ProfileLoader::load(path, control);
        QVERIFY(changed);
        if (remove) {
            QVERIFY2(r.ok(), r.error.toString().c_str());
            QCOMPARE(r.profile->intervalCount(), std::size_t(60'000));
        } else {
            // Whatever was read before the cut, then an unterminated array or
            // a cut event: fewer intervals, or an error with its place.
            if (r.ok())
                QVERIFY(r.profile->intervalCount() < 60'000);
            else
                QVERIFY2(r.error.byteOffset >= 0, r.error.toString().c_str());
        }
    }
    // More than the machine (here: RUNLANE_MEMORY_LIMIT) has: refused with
    // a message, up front for a file of known size, while reading for a
    // pipe, instead of the kernel killing the process.
    void refusesWhatDoesNotFitInMemory()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("big.json"));
        const QByteArray text = writeSteps(path, 300'000);
        QVERIFY(!text.isEmpty());
        qputenv("RUNLANE_MEMORY_LIMIT", "2M");
        const auto unset = qScopeGuard([] { qunsetenv("RUNLANE_MEMORY_LIMIT"); });
        LoadResult r = ProfileLoader::load(path);
        const QString error = errorOf(r);
        QVERIFY2(error.startsWith(QStringLiteral("loading this 17.6 MiB file needs about 90.4 MiB of memory, more than the ")),
                 qPrintable(error));
        QVERIFY2(error.endsWith(QStringLiteral(" that RUNLANE_MEMORY_LIMIT allows")), qPrintable(error));

        r = loadThroughFifo(dir.filePath(QStringLiteral("fifo")), [&text](QFile& out) { out.write(text); });
        QVERIFY2(errorOf(r).startsWith(QStringLiteral("out of memory after reading ")), qPrintable(errorOf(r)));
        QVERIFY2(errorOf(r).endsWith(QStringLiteral(" MiB of the file (RUNLANE_MEMORY_LIMIT reached)")), qPrintable(errorOf(r)));

        qunsetenv("RUNLANE_MEMORY_LIMIT");
        r = ProfileLoader::load(path);
        QVERIFY2(r.ok(), r.error.toString().c_str());
        QCOMPARE(r.profile->intervalCount(), std::size_t(300'000));
    }
    // Every value of a small file of each format, removed or replaced by
    // each other JSON type: a profile or an error with a message and a
    // place inside the file, nothing else.
    void wrongTypesEverywhere_data()
    {
        QTest::addColumn<QByteArray>("text");
        const QList<QPair<const char*, QByteArray>> documents = {
            {"chronos", JSON({"chronosFutureEvents": 1, "loop": "node", "events": [
                {"t": 0, "id": 1, "state": "Pending", "proc": "main", "file": "a.nim", "line": 1},
                {"t": 5, "id": 1, "state": "Running"}, {"t": 9, "id": 1, "state": "Completed"}]})},
            {"enso", JSON([{"X": {"t": 0, "d": {"$Process": "Ide"}}}, {"L": {"l": "main (a.rs:1)"}},
                           {"C": {"p": -1, "t": 5, "l": 0}}, {"S": {"i": 0, "t": 5}}, {"P": {"i": 0, "t": 9}}])},
            {"chroprof rows", JSON([{"location": {"procedure": "a", "file": "x.nim", "line": 1}, "execTime": 5,
                                     "execTimeMax": 3, "callCount": 1, "wallClockTime": 7, "childrenExecTime": 0,
                                     "stillbornCount": 0, "zombieEventCount": 0}])},
            {"chroprof snapshots", JSON({"chroprofSnapshots": 1, "snapshots": [{"t": 10, "rows": [
                {"location": {"procedure": "a", "file": "x.nim", "line": 1}, "execTime": 5, "callCount": 1}]}]})},
            {"gecko", JSON({"meta": {"version": 27, "interval": 1, "startTime": 0, "categories": [{"name": "Idle"}]},
                            "threads": [{"name": "T", "pid": 1, "tid": 2,
                                         "samples": {"schema": {"stack": 0, "time": 1}, "data": [[1, 0], [null, 1]]},
                                         "stackTable": {"schema": {"prefix": 0, "frame": 1}, "data": [[null, 0], [0, 1]]},
                                         "frameTable": {"schema": {"location": 0, "line": 1, "category": 2}, "data": [[0, 3, 0], [1]]},
                                         "markers": {"schema": {"name": 0, "startTime": 1, "endTime": 2, "phase": 3},
                                                     "data": [[0, 0, 1, 1], [1, 1, null, 0]]},
                                         "stringTable": ["a (f.js:1:2)", "b"]}],
                            "processes": [{"meta": {"startTime": 5}, "threads": []}]})},
            {"gecko processed", JSON({"meta": {"interval": 1, "startTime": 0},
                                      "threads": [{"name": "T", "samples": {"stack": [0, null], "timeDeltas": [0, 1]},
                                                   "stackTable": {"frame": [0], "prefix": [null]},
                                                   "frameTable": {"func": [0], "line": [3]},
                                                   "funcTable": {"name": [0], "fileName": [1]},
                                                   "markers": {"name": [0], "startTime": [0], "endTime": [1], "phase": [1]}}],
                                      "shared": {"stringArray": ["a", "f.js"]}})},
            {"speedscope", JSON({"$schema": "https://www.speedscope.app/file-format-schema.json",
                                 "shared": {"frames": [{"name": "a", "file": "f.js", "line": 1}]},
                                 "profiles": [{"type": "evented", "name": "p", "unit": "milliseconds", "startValue": 0,
                                               "endValue": 10, "events": [{"type": "O", "frame": 0, "at": 0},
                                                                          {"type": "C", "frame": 0, "at": 5}]},
                                              {"type": "sampled", "name": "s", "unit": "none", "startValue": 0,
                                               "endValue": 2, "samples": [[0], [0]], "weights": [1, 1]}]})},
        };
        const QList<QPair<QString, QJsonValue>> wrong = {
            {"a string", QJsonValue("x")}, {"a number", QJsonValue(7)}, {"a fraction", QJsonValue(-1.5)},
            {"true", QJsonValue(true)}, {"null", QJsonValue()}, {"an array", QJsonArray{1}},
            {"an object", QJsonObject{{"a", 1}}}, {"missing", QJsonValue(QJsonValue::Undefined)}};
        for (const auto& [format, text] : documents) {
            QJsonParseError error;
            const QJsonDocument document = QJsonDocument::fromJson(text, &error);
            QVERIFY2(error.error == QJsonParseError::NoError, format);
            const QJsonValue root = document.isObject() ? QJsonValue(document.object()) : QJsonValue(document.array());
            QList<QVariantList> paths;
            collectPaths(root, paths);
            for (const QVariantList& path : paths) {
                for (const auto& [what, value] : wrong) {
                    const QJsonValue changed = replaced(root, path, value);
                    const QJsonDocument out = changed.isObject() ? QJsonDocument(changed.toObject()) : QJsonDocument(changed.toArray());
                    QTest::addRow("%s %s: %s", format, qPrintable(pathText(path)), qPrintable(what))
                        << out.toJson(QJsonDocument::Compact);
                }
            }
        }
    }

    void wrongTypesEverywhere()
    {
        QFETCH(QByteArray, text);
        const LoadResult r = loadText(text);
        if (r.ok()) {
            QVERIFY(r.error.message.empty());
            return;
        }
        QVERIFY(!r.error.message.empty());
        QVERIFY(!r.error.cancelled);
        QVERIFY2(r.error.byteOffset <= std::int64_t(text.size()), r.error.toString().c_str());
    }
    // The source is opened read-only and left as it was: a file without
    // write permission loads, and neither bytes nor times change.
    void sourceIsNeverModified()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("trace.json"));
        QVERIFY(QFile::copy(dataPath(QStringLiteral("profiles/chronos-states.json")), path));
        QVERIFY(QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::ReadGroup | QFileDevice::ReadOther));
        const QByteArray before = readAll(path);
        struct stat was {};
        QCOMPARE(::stat(QFile::encodeName(path).constData(), &was), 0);
        const LoadResult r = ProfileLoader::load(path);
        QVERIFY2(r.ok(), r.error.toString().c_str());
        struct stat is {};
        QCOMPARE(::stat(QFile::encodeName(path).constData(), &is), 0);
        QCOMPARE(readAll(path), before);
        QCOMPARE(is.st_mtim.tv_sec, was.st_mtim.tv_sec);
        QCOMPARE(is.st_mtim.tv_nsec, was.st_mtim.tv_nsec);
        QCOMPARE(is.st_mode, was.st_mode);
    }
    // Inputs that once crashed, hung or tripped a sanitizer (data/malformed).
    void malformedRegressions()
    {
        const QDir dir(dataPath(QStringLiteral("malformed")));
        QVERIFY(dir.exists());
        const QStringList files = dir.entryList(QDir::Files, QDir::Name);
        for (const QString& name : files) {
            if (name == QStringLiteral("README.md"))
                continue;
            const LoadResult r = ProfileLoader::load(dir.filePath(name));
            QVERIFY2(r.ok() == r.error.message.empty(), qPrintable(name));
            if (r.ok())
                fuzz::analyseProfile(*r.profile); // the rest of the path the fuzzer took
        }
    }
    // A 2 GB string, streamed through a FIFO (the loader stops long before
    // the writer would be done), and a 70 MiB one in a file, in a name and
    // in an ignored value: refused at the string's first byte, on both
    // paths, before any of it is held in memory.
    void hugeStrings_data()
    {
        QTest::addColumn<bool>("pipe");
        QTest::addColumn<QByteArray>("before");
        QTest::addColumn<qint64>("length");
        QTest::newRow("2 GB name through a pipe") << true << JSON([{"ph":"X","name":) << qint64(2) * 1000 * 1000 * 1000;
        QTest::newRow("70 MiB name in a file") << false << JSON([{"ph":"X","name":) << (qint64(70) << 20);
        QTest::newRow("70 MiB in args") << false << JSON([{"ph":"X","name":"a","ts":1,"dur":1,"args":{"blob":)
                                        << (qint64(70) << 20);
    }

    void hugeStrings()
    {
        QFETCH(bool, pipe);
        QFETCH(QByteArray, before);
        QFETCH(qint64, length);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("huge.json"));
        auto write = [&](QFile& out) {
            out.write(before + "\"");
            const QByteArray block(1 << 20, 'a');
            for (qint64 left = length; left > 0; left -= block.size()) {
                if (out.write(block.constData(), std::min<qint64>(left, block.size())) < 0)
                    return; // the reader gave up
            }
            out.write("\",\"ts\":1,\"dur\":1}]");
        };
        LoadResult r;
        if (pipe) {
            r = loadThroughFifo(path, write);
        } else {
            QFile out(path);
            QVERIFY(out.open(QIODevice::WriteOnly));
            write(out);
            out.close();
            r = ProfileLoader::load(path);
        }
        QCOMPARE(errorOf(r), QStringLiteral("a string of more than 64 MiB starts here; no profile has names or values that long"));
        QCOMPARE(r.error.byteOffset, std::int64_t(before.size()));
    }
    // Ten million distinct names (folded stacks streamed through a FIFO,
    // 104 MiB): every one becomes a label, in seconds, without a hash table
    // per name beyond the string pool's.
    void tenMillionDistinctNames()
    {
        constexpr int names = 10'000'000;
        QTemporaryDir dir;
        const LoadResult r = loadThroughFifo(dir.filePath(QStringLiteral("names.txt")), [](QFile& out) {
            QByteArray block;
            for (int i = 0; i < names; ++i) {
                block += 'n';
                block += QByteArray::number(i);
                block += " 1\n";
                if (block.size() > (1 << 20)) {
                    out.write(block);
                    block.clear();
                }
            }
            out.write(block);
        });
        QVERIFY2(r.ok(), r.error.toString().c_str());
        QCOMPARE(r.profile->labelCount(), std::size_t(names));
        QCOMPARE(r.profile->intervalCount(), std::size_t(names));
        QCOMPARE(r.profile->labelName(LabelId(names - 1)), std::string_view("n9999999"));
    }
};

QTEST_GUILESS_MAIN(TestHostileInput)
#include "tst_hostileinput.moc"
