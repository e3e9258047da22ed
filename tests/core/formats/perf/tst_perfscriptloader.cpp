#include "formatregistry.h"
#include "measurementmetrics.h"
#include "ranktable.h"
#include "testsupport.h"
#include "valueformat.h"

#include <QRegularExpression>
#include <QtTest>

#include <algorithm>
#include <map>
#include <set>

using namespace runlane;
using runlane::test::readAll;
using runlane::test::dataPath;
using runlane::test::loadText;
using runlane::test::qstr;

namespace {

// A second reading of perf script text, as simple as it can be and
// written apart from the reader (regular expressions, no shared code), to
// check the loaded profile's figures against: the samples of the first
// event, their weights by the rules of PerfScriptBuilder (the time to the
// next sample of the thread; the thread's lower median gap for the last
// one, and for one followed by a gap of more than 10 medians), and each
// label's self and total weight (a label counted once per sample).
struct Reference {
    int samples = 0;
    std::map<QString, qint64> self;
    std::map<QString, qint64> total;
    qint64 busy = 0;

    // "label self/total" of the top `n` by self, then total, then name.
    QStringList top(int n) const
    {
        std::vector<std::pair<QString, qint64>> rows(self.begin(), self.end());
        for (const auto& [label, weight] : total) {
            if (!self.count(label))
                rows.emplace_back(label, 0);
        }
        std::sort(rows.begin(), rows.end(), [this](const auto& a, const auto& b) {
            const qint64 ta = total.at(a.first);
            const qint64 tb = total.at(b.first);
            return a.second != b.second ? a.second > b.second : ta != tb ? ta > tb : a.first < b.first;
        });
        QStringList out;
        for (int i = 0; i < n && i < int(rows.size()); ++i)
            out << QStringLiteral("%1 %2/%3").arg(rows[i].first).arg(rows[i].second).arg(total.at(rows[i].first));
        return out;
    }

    // `dropLast`: the text is cut inside its last line; if that is part
    // of a sample, the sample is left out.
    static Reference of(const QByteArray& text, bool dropLast = false)
    {
        static const QRegularExpression header(
            QStringLiteral(R"(^\s*(.*?)\s+(?:(-?\d+)/)?(-?\d+)\s+(?:\[\d+\]\s+)?(\d+)\.(\d+):\s+(?:\d+\s+)?(\S+):\s*$)"));
        static const QRegularExpression frame(QStringLiteral(R"(^\s+([0-9a-fA-F]+)\s+(.+?)\s+\((.*)\)$)"));
        static const QRegularExpression offset(QStringLiteral(R"(\+0x[0-9a-fA-F]+$)"));
        struct Sample {
            qint64 time = 0;
            QStringList stack; // leaf first
        };
        std::map<std::pair<QString, QString>, std::vector<Sample>> threads; // (pid or "", tid)
        std::vector<std::pair<QString, QString>> order; // of the samples, for dropLast
        QString event;
        bool inSample = false;
        bool wanted = false;
        bool lastInSample = false; // the last line read belongs to a sample
        for (const QString& raw : QString::fromUtf8(text).split(QLatin1Char('\n'))) {
            lastInSample = false;
            const QString line = raw.endsWith(QLatin1Char('\r')) ? raw.chopped(1) : raw;
            if (line.trimmed().isEmpty()) {
                inSample = false;
                continue;
            }
            if (line.startsWith(QLatin1Char('#')))
                continue;
            if (!inSample) {
                const auto m = header.match(line);
                if (!m.hasMatch())
                    continue; // cut
                if (event.isEmpty())
                    event = m.captured(6);
                wanted = m.captured(6) == event;
                inSample = true;
                lastInSample = wanted;
                if (!wanted)
                    continue;
                const auto key = std::make_pair(m.captured(2), m.captured(3));
                const QString fraction = m.captured(5).leftJustified(9, QLatin1Char('0'));
                threads[key].push_back(Sample{m.captured(4).toLongLong() * 1000000000 + fraction.toLongLong(), {}});
                order.push_back(key);
                continue;
            }
            lastInSample = wanted;
            const auto m = frame.match(line);
            if (!wanted || !m.hasMatch())
                continue;
            QString symbol = m.captured(2);
            symbol.remove(offset);
            const QString dso = m.captured(3);
            QString label;
            if (symbol == QLatin1String("[unknown]"))
                label = dso == QLatin1String("[unknown]") ? QStringLiteral("0x") + m.captured(1)
                                                          : QStringLiteral("[unknown] (%1)").arg(dso);
            else
                label = dso == QLatin1String("[unknown]") ? symbol : QStringLiteral("%1 (%2)").arg(symbol, dso);
            threads[order.back()].back().stack << label;
        }
        if (dropLast && lastInSample)
            threads[order.back()].pop_back();

        Reference r;
        for (auto& [key, samples] : threads) {
            std::vector<qint64> gaps;
            for (std::size_t i = 1; i < samples.size(); ++i)
                gaps.push_back(samples[i].time - samples[i - 1].time);
            std::sort(gaps.begin(), gaps.end());
            const qint64 median = gaps.empty() ? 0 : gaps[(gaps.size() - 1) / 2];
            for (std::size_t i = 0; i < samples.size(); ++i) {
                qint64 weight = median;
                if (i + 1 < samples.size()) {
                    const qint64 gap = samples[i + 1].time - samples[i].time;
                    weight = median > 0 && gap > 10 * median ? median : gap;
                }
                ++r.samples;
                r.busy += weight;
                const QStringList& stack = samples[i].stack;
                if (!stack.isEmpty())
                    r.self[stack.front()] += weight;
                for (const QString& label : std::set<QString>(stack.begin(), stack.end()))
                    r.total[label] += weight;
            }
        }
        return r;
    }
};

// The same from the loaded profile's rank.
QStringList rankTop(const Profile& p, int n)
{
    const RankTable t = RankTable::compute(MeasurementMetrics(p));
    std::vector<RankRow> rows = t.rows();
    std::sort(rows.begin(), rows.end(), [&p](const RankRow& a, const RankRow& b) {
        return a.exec != b.exec ? a.exec > b.exec
            : a.total != b.total ? a.total > b.total
                                 : p.labelText(a.label) < p.labelText(b.label);
    });
    QStringList out;
    for (int i = 0; i < n && i < int(rows.size()); ++i)
        out << QStringLiteral("%1 %2/%3").arg(QString::fromStdString(p.labelText(rows[i].label))).arg(rows[i].exec).arg(rows[i].total);
    return out;
}

// "label exec/total" of every row, by exec, total then name, values as the CLI's plain
// numbers (ns; or samples, or counts, to three decimals).
QStringList rank(const Profile& p)
{
    const RankTable t = RankTable::compute(MeasurementMetrics(p));
    std::vector<RankRow> rows = t.rows();
    std::sort(rows.begin(), rows.end(), [&p](const RankRow& a, const RankRow& b) {
        return a.exec != b.exec ? a.exec > b.exec
            : a.total != b.total ? a.total > b.total
                                 : p.labelText(a.label) < p.labelText(b.label);
    });
    QStringList out;
    for (const RankRow& r : rows)
        out << QStringLiteral("%1 %2/%3")
                   .arg(QString::fromStdString(p.labelText(r.label)))
                   .arg(QString::fromStdString(ValueFormat::plain(r.exec, p.unit())))
                   .arg(QString::fromStdString(ValueFormat::plain(r.total, p.unit())));
    return out;
}

QStringList trackNames(const Profile& p)
{
    QStringList names;
    for (TrackId t = 0; t < p.trackCount(); ++t)
        names << qstr(p.string(p.track(t).name));
    return names;
}

Time busy(const Profile& p)
{
    const MeasurementMetrics metrics(p);
    Time sum = 0;
    for (TrackId t = 0; t < p.trackCount(); ++t)
        sum += metrics.busy(t);
    return sum;
}

// Two events: cycles first.
const QByteArray twoEvents = "app 1/1 10.000000: 100 cycles:\n"
                             "\t1 a (app)\n\t9 main (app)\n\n"
                             "app 1/1 10.000500: 50 instructions:\n"
                             "\t2 b (app)\n\t9 main (app)\n\n"
                             "app 1/1 10.001000: 100 cycles:\n"
                             "\t3 c (app)\n\t9 main (app)\n\n"
                             "app 1/1 10.001500: 50 instructions:\n"
                             "\t2 b (app)\n\t9 main (app)\n\n"
                             "app 1/1 10.003000: 100 cycles:\n"
                             "\t1 a (app)\n\t9 main (app)\n";

} // namespace

class TestPerfScriptLoader : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Every sample file: exact figures, and the rank agrees with the
    // reference reading of the same file.
    void samples_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("samples");
        QTest::addColumn<QStringList>("tracks");
        QTest::addColumn<QStringList>("top"); // "label exec/total" in ns
        QTest::addColumn<int>("warnings");

        QTest::newRow("simple: one sample, weight 0")
            << "simple.linux-perf.txt" << 1 << QStringList{"simple-terminat / simple-terminat (tid 10)"}
            << QStringList{"0x6ce258d4c544155 0/0", "_Z4betav (/workdir/simple-terminates) 0/0",
                           "_Z5deltav (/workdir/simple-terminates) 0/0"}
            << 0;
        QTest::newRow("with pid")
            << "simple-with-pid.linux-perf.txt" << 137 << QStringList{"simple-terminat / simple-terminat (tid 9)"}
            << QStringList{"_Z4betav (/workdir/simple-terminates) 57986000/57986000",
                           "_Z5alphav (/workdir/simple-terminates) 35637000/35637000",
                           "_Z5gammav (/workdir/simple-terminates) 23387000/23387000"}
            << 0;
        QTest::newRow("with header")
            << "simple-with-header.linux-perf.txt" << 136 << QStringList{"simple-terminat / simple-terminat (tid 9)"}
            << QStringList{"_Z4betav (/workdir/simple-terminates) 46440000/46440000",
                           "_Z5alphav (/workdir/simple-terminates) 44056000/44056000",
                           "_Z5deltav (/workdir/simple-terminates) 23415000/69425000"}
            << 0;
        const QString rust = QStringLiteral(" (/trace/target/debug/deps/trace-0f0e4af093fa4f97)");
        QTest::newRow("rust mangled")
            << "rust-mangled.linux-perf.txt" << 96 << QStringList{"trace / trace (tid 6061)"}
            << QStringList{"_RNvXsb_NtCsfiKabdrepoq_5alloc3vecINtB5_3VecdEINtNtNtCsTACXlTRjQ_4core3ops5index5IndexjE5"
                           "indexCs8K9WJNlS7Dz_5trace" + rust + " 254262000/254262000",
                           "_RNvNvNtNtCsTACXlTRjQ_4core5slice3raw18from_raw_parts_mut18precondition_checkCs8K9WJNlS7Dz_"
                           "5trace" + rust + " 220332000/220332000",
                           "_RNvXsb_NtCsfiKabdrepoq_5alloc3vecINtB5_3VecIBw_dEEINtNtNtCsTACXlTRjQ_4core3ops5index5Index"
                           "jE5indexCs8K9WJNlS7Dz_5trace" + rust + " 203394000/203394000"}
            << 0;
        QTest::newRow("forks") << "forks.linux-perf.txt" << 561
                               << QStringList{"swapper / swapper (tid 0)", "forks / forks (tid 9)",
                                              "forks / forks (tid 10)", "forks / forks (tid 11)"}
                               << QStringList{"_Z5alphav (/workdir/forks) 98889000/100860000",
                                              "_Z4betav (/workdir/forks) 92927000/93912000",
                                              "_Z5gammav (/workdir/forks) 25885000/25885000"}
                               << 0;
        // 72 samples of cycles:uppp; the one cycles:ppp sample is skipped,
        // with a warning. pid 7564 has 13 threads, 7565 and 7567 are
        // processes of their own (forked).
        QStringList firefox;
        for (int tid : {7564, 7566, 7568, 7569, 7570, 7571, 7572, 7573, 7574, 7575, 7576, 7577, 7578, 7565, 7567})
            firefox << QStringLiteral("firefox / %1 (tid %2)").arg(tid == 7569 ? "gdbus" : "firefox").arg(tid);
        QTest::newRow("firefox, two events")
            << "firefox-test.perf.txt" << 72 << firefox
            << QStringList{"native_irq_return_iret ([kernel.kallsyms]) 614000/614000",
                           "__clone (/usr/lib64/libc-2.25.so) 94000/489000",
                           "__GI___libc_poll (/usr/lib64/libc-2.25.so) 17000/38000"}
            << 1;
    }

    void samples()
    {
        QFETCH(QString, file);
        QFETCH(int, samples);
        QFETCH(QStringList, tracks);
        QFETCH(QStringList, top);
        QFETCH(int, warnings);
        const QString path = dataPath("samples/linux-perf/" + file);
        const LoadResult r = ProfileLoader::load(path);
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const Profile& p = *r.profile;
        QCOMPARE(p.formatName(), std::string_view("perf script"));
        QCOMPARE(p.unit(), ValueUnit::Nanoseconds);
        QVERIFY(!p.prefersAggregatedView());
        const Reference ref = Reference::of(readAll(path));
        QCOMPARE(ref.samples, samples);
        QCOMPARE(trackNames(p), tracks);
        QCOMPARE(ref.top(3), top);
        QCOMPARE(rankTop(p, 3), ref.top(3));
        QCOMPARE(busy(p), ref.busy);
        QCOMPARE(int(p.diagnostics().warningCount()), warnings);
    }

    // Cut inside a line: what is complete loads, the cut sample is left
    // out, and a warning says where the file ends.
    void truncated_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<double>("at"); // where to cut, as a share of the file
        QTest::addColumn<int>("samples");
        QTest::addColumn<QString>("warning");
        QTest::newRow("pid, in a frame") << "simple-with-pid.linux-perf.txt" << 0.5 << 69
                                         << "the file ends inside line 439 (sample #70); that sample is left out";
        QTest::newRow("header, in a frame") << "simple-with-header.linux-perf.txt" << 0.3 << 38
                                            << "the file ends inside line 264 (sample #39); that sample is left out";
        QTest::newRow("forks, a third") << "forks.linux-perf.txt" << 0.33 << 179
                                        << "the file ends inside line 1250 (sample #180); that sample is left out";
        QTest::newRow("forks, two thirds") << "forks.linux-perf.txt" << 0.66 << 365
                                           << "the file ends inside line 2495 (sample #366); that sample is left out";
        // The 10 samples before are complete: all are loaded.
        QTest::newRow("firefox, in a header") << "firefox-test.perf.txt" << -1.0 << 10
                                              << "the file ends inside line 45 (sample #11); that sample is left out";
        QTest::newRow("rust, in a symbol") << "rust-mangled.linux-perf.txt" << 0.8 << 76
                                           << "the file ends inside line 464 (sample #77); that sample is left out";
    }

    void truncated()
    {
        QFETCH(QString, file);
        QFETCH(double, at);
        QFETCH(int, samples);
        QFETCH(QString, warning);
        const QByteArray all = readAll(dataPath("samples/linux-perf/" + file));
        qsizetype cut = 0;
        if (at < 0) {
            // Inside the header of the 10th sample.
            qsizetype header = 0;
            for (int k = 0; k < 10; ++k)
                header = all.indexOf("\n\n", header) + 2;
            cut = header + 12;
        } else {
            // Inside a line, not at its end: after a letter or digit.
            cut = qsizetype(double(all.size()) * at);
            while (!QChar::fromLatin1(all[cut - 1]).isLetterOrNumber() || all[cut] == '\n')
                ++cut;
        }
        const QByteArray text = all.left(cut);
        const LoadResult r = loadText(text);
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const Profile& p = *r.profile;
        const auto& d = p.diagnostics();
        QCOMPARE(int(d.warningKinds().at("truncated file")), 1);
        const Reference ref = Reference::of(text, true);
        QCOMPARE(ref.samples, samples);
        QCOMPARE(QString::fromStdString(d.firstMessage("truncated file")), warning);
        QCOMPARE(rankTop(p, 3), ref.top(3));
        QCOMPARE(busy(p), ref.busy);
    }

    // A line that is neither a header nor a frame is an error that says
    // where and what was expected; a file that is complete otherwise
    // with junk in its last, unfinished line loads with a warning.
    void corrupted_data()
    {
        QTest::addColumn<QByteArray>("from");
        QTest::addColumn<QByteArray>("to");
        QTest::addColumn<int>("line"); // 0: loads, with a "truncated file" warning
        QTest::addColumn<QString>("message");
        QTest::newRow("garbage header")
            << QByteArray("\n\nsimple-terminat     9/9     198791.129324: cpu-clock: \n")
            << QByteArray("\n\nthis is no perf script\n") << 14
            << "expected a sample header (comm [pid/]tid [cpu] secs.usecs: [period] event:) but the line has no "
               "timestamp (secs.usecs:) nor event (name:) after the thread, found 'this is no perf script'";
        QTest::newRow("bad timestamp")
            << QByteArray("198791.129324:") << QByteArray("198791.12932x:") << 14
            << "expected a sample header (comm [pid/]tid [cpu] secs.usecs: [period] event:) but the line has a bad "
               "timestamp (expected seconds.fraction:, at most 9 decimals), found 'simple-terminat     9/9     "
               "198791.12932x: cpu-clock:'";
        QTest::newRow("timestamp of 10 decimals")
            << QByteArray("198791.129324:") << QByteArray("198791.1293240000:") << 14
            << "expected a sample header (comm [pid/]tid [cpu] secs.usecs: [period] event:) but the line has a bad "
               "timestamp (expected seconds.fraction:, at most 9 decimals), found 'simple-terminat     9/9     "
               "198791.1293240000: cpu-clock:'";
        QTest::newRow("no thread id")
            << QByteArray("\n\nsimple-terminat     9/9     198791.129324:") << QByteArray("\n\nsimple-terminat 198791.129324:")
            << 14
            << "expected a sample header (comm [pid/]tid [cpu] secs.usecs: [period] event:) but the line has no "
               "thread id ([pid/]tid) before the timestamp, found 'simple-terminat 198791.129324: cpu-clock:'";
        QTest::newRow("garbage frame")
            << QByteArray("\t             677 _Z5deltav (/workdir/simple-terminates)\n")
            << QByteArray("\t             xyz _Z5deltav (/workdir/simple-terminates)\n") << 9
            << "expected a frame line (address symbol (dso)) or a blank line, found 'xyz _Z5deltav "
               "(/workdir/simple-terminates)'";
        QTest::newRow("binary junk") << QByteArray("\n\nsimple-terminat     9/9     198791.129324:")
                                     << QByteArray("\n\n\x01\x02\x7f\n\nsimple-terminat     9/9     198791.129324:") << 14
                                     << "expected a sample header (comm [pid/]tid [cpu] secs.usecs: [period] event:) "
                                        "but the line has no timestamp (secs.usecs:) nor event (name:) after the "
                                        "thread, found '??\x7f'";
        QTest::newRow("junk in an unfinished last line")
            << QByteArray() << QByteArray("\x01\x02") << 0 << "the file ends inside line 876 (sample #137); that sample is left out";
    }

    void corrupted()
    {
        QFETCH(QByteArray, from);
        QFETCH(QByteArray, to);
        QFETCH(int, line);
        QFETCH(QString, message);
        QByteArray text = readAll(dataPath("samples/linux-perf/simple-with-pid.linux-perf.txt"));
        if (from.isEmpty()) {
            // The end of the file instead.
            text.chop(8);
            text += to;
        } else {
            const qsizetype at = text.indexOf(from);
            QVERIFY(at >= 0);
            text.replace(at, from.size(), to);
        }
        const LoadResult r = loadText(text);
        if (line == 0) {
            QVERIFY2(r.ok(), r.error.toString().c_str());
            QCOMPARE(QString::fromStdString(r.profile->diagnostics().firstMessage("truncated file")), message);
            return;
        }
        QVERIFY(!r.ok());
        QCOMPARE(QString::fromStdString(r.error.message), message);
        QCOMPARE(int(r.error.line), line);
        QCOMPARE(int(r.error.column), 1);
    }

    // Any file forced through the perf reader fails with its message or
    // loads: never a crash.
    void otherFormatsForced_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("message");
        QTest::newRow("folded") << "samples/folded/simple.txt"
                                << "expected a sample header (comm [pid/]tid [cpu] secs.usecs: [period] event:) but the "
                                   "line has no timestamp (secs.usecs:) nor event (name:) after the thread, found 'a;b;c 1'";
        QTest::newRow("chrome") << "samples/chrome-trace/catapult/trivial_trace.json"
                                << "expected a sample header (comm [pid/]tid [cpu] secs.usecs: [period] event:) but the "
                                   "line has no timestamp (secs.usecs:) nor event (name:) after the thread, found '['";
    }

    void otherFormatsForced()
    {
        QFETCH(QString, file);
        QFETCH(QString, message);
        const LoadResult r = ProfileLoader::load(dataPath(file), {}, FormatRegistry::find("perf"));
        QVERIFY(!r.ok());
        QCOMPARE(QString::fromStdString(r.error.message), message);
        QCOMPARE(int(r.error.line), 1);
    }

    // Two events: the first is loaded unless another is named; the other
    // one's samples are counted and said; a name the file lacks is an
    // error that lists what it has.
    void variants_data()
    {
        QTest::addColumn<QString>("variant");
        QTest::addColumn<int>("chosen");
        QTest::addColumn<QStringList>("expected");
        QTest::addColumn<QString>("skipped");
        QTest::newRow("default: the first") << QString() << 0
                                            << QStringList{"a (app) 2000000/2000000", "c (app) 2000000/2000000",
                                                           "main (app) 0/4000000"}
                                            << "instructions samples";
        QTest::newRow("cycles by name") << "cycles" << 0
                                        << QStringList{"a (app) 2000000/2000000", "c (app) 2000000/2000000",
                                                       "main (app) 0/4000000"}
                                        << "instructions samples";
        QTest::newRow("instructions") << "instructions" << 1
                                      << QStringList{"b (app) 2000000/2000000", "main (app) 0/2000000"}
                                      << "cycles samples";
    }

    void variants()
    {
        QFETCH(QString, variant);
        QFETCH(int, chosen);
        QFETCH(QStringList, expected);
        QFETCH(QString, skipped);
        LoadControl control;
        control.variant = variant.toStdString();
        const LoadResult r = loadText(twoEvents, control);
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const Profile& p = *r.profile;
        QCOMPARE(p.variants(), (std::vector<std::string>{"cycles", "instructions"}));
        QCOMPARE(int(p.variant()), chosen);
        QCOMPARE(rank(p), expected);
        const auto& d = p.diagnostics();
        QCOMPARE(d.skippedEvents().size(), std::size_t(1));
        QCOMPARE(d.skippedEvents().begin()->first, skipped.toStdString());
        QCOMPARE(int(d.skippedEvents().begin()->second), chosen == 0 ? 2 : 3);
        QCOMPARE(int(d.warningKinds().at("other events")), 1);
        QCOMPARE(QString::fromStdString(d.firstMessage("other events")),
                 chosen == 0 ? QStringLiteral("2 samples of other events are not loaded: instructions (2); choose an "
                                              "event to load its samples")
                             : QStringLiteral("3 samples of other events are not loaded: cycles (3); choose an event "
                                              "to load its samples"));
    }

    void unknownVariant()
    {
        LoadControl control;
        control.variant = "branches";
        const LoadResult r = loadText(twoEvents, control);
        QVERIFY(!r.ok());
        QCOMPARE(QString::fromStdString(r.error.message),
                 QStringLiteral("no event 'branches' in this file; its events are: cycles, instructions"));
        // The caller's mistake, with what the file has (runlane-cli's usage error).
        QVERIFY(r.error.unknownVariant);
        QCOMPARE(r.error.variants, (std::vector<std::string>{"cycles", "instructions"}));
    }

    // Without timestamps: end to end, by period (a count) or 1 sample each.
    void untimed_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("unit");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("periods") << QByteArray("app 1/1 100 cycles:\n\t1 a (app)\n\t9 main (app)\n\n"
                                               "app 1/1 300 cycles:\n\t2 b (app)\n\t9 main (app)\n\n"
                                               "app 1/2 50 cycles:\n\t1 a (app)\n\t9 main (app)\n")
                                 << int(ValueUnit::None) << QStringList{"b (app) 300/300", "a (app) 150/150", "main (app) 0/450"};
        QTest::newRow("samples") << QByteArray("app 1 [000] cycles:\n\t1 a (app)\n\t9 main (app)\n\n"
                                               "app 1 [001] cycles:\n\t2 b (app)\n\t9 main (app)\n\n"
                                               "app 1 [000] cycles:\n\t1 a (app)\n\t9 main (app)\n")
                                 << int(ValueUnit::Samples) << QStringList{"a (app) 2/2", "b (app) 1/1", "main (app) 0/3"};
    }

    void untimed()
    {
        QFETCH(QByteArray, text);
        QFETCH(int, unit);
        QFETCH(QStringList, expected);
        const LoadResult r = loadText(text);
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const Profile& p = *r.profile;
        QCOMPARE(int(p.unit()), unit);
        QVERIFY(p.prefersAggregatedView());
        QCOMPARE(rank(p), expected);
    }

    void timestampsMixed()
    {
        const LoadResult r = loadText("app 1 10.0: cycles:\n\t1 a (app)\n\napp 1 cycles:\n\t1 a (app)\n");
        QVERIFY(!r.ok());
        QCOMPARE(QString::fromStdString(r.error.message), QStringLiteral("a sample without a timestamp after samples with one"));
        QCOMPARE(int(r.error.line), 4);
    }

    // Gaps of more than 10 median intervals are off the CPU: the sample
    // before one lasts a median, the thread is idle until the next.
    void offCpuGap()
    {
        const QByteArray text = "app 7 10.000: cycles:\n\t1 work (app)\n\t9 main (app)\n\n"
                                "app 7 10.001: cycles:\n\t1 work (app)\n\t9 main (app)\n\n"
                                "app 7 10.002: cycles:\n\t1 work (app)\n\t9 main (app)\n\n"
                                "app 7 10.003: cycles:\n\t1 work (app)\n\t9 main (app)\n\n"
                                "app 7 10.100: cycles:\n\t1 work (app)\n\t9 main (app)\n\n"
                                "app 7 10.101: cycles:\n\t2 rest (app)\n\t9 main (app)\n";
        const LoadResult r = loadText(text);
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const Profile& p = *r.profile;
        QCOMPARE(rank(p), (QStringList{"work (app) 5000000/5000000", "rest (app) 1000000/1000000",
                                       "main (app) 0/6000000"}));
        QCOMPARE(p.startTime(), Time(10'000'000'000));
        QCOMPARE(p.duration(), Time(102'000'000));
        QStringList top;
        for (const Interval& iv : p.depthSlice(0, 0))
            top << QStringLiteral("%1..%2").arg(iv.start - p.startTime()).arg(iv.end - p.startTime());
        QCOMPARE(top, (QStringList{"0..4000000", "100000000..102000000"}));
    }

    // perf without callchains: one line a sample, the comm padded, the ip
    // on the header line, no blank lines.
    void oneLinePerSample()
    {
        const QByteArray text
            = "            bash  1234 [000] 100.000000:       1000 cycles:  ffffffff81000000 do_syscall+0x1f "
              "([kernel.kallsyms])\n"
              "            bash  1234 [000] 100.001000:       1000 cycles:      55555555 main+0x10 (/usr/bin/bash)\n"
              "              dd  1240 [001] 100.001500:       1000 cycles:      55555555 main+0x12 (/usr/bin/dd)\n"
              "            bash  1234 [000] 100.002000:       1000 cycles:      55555555 main+0x12 (/usr/bin/bash)\n";
        const LoadResult r = loadText(text);
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const Profile& p = *r.profile;
        QCOMPARE(trackNames(p), (QStringList{"bash / bash (tid 1234)", "dd / dd (tid 1240)"}));
        QCOMPARE(rank(p), (QStringList{"main (/usr/bin/bash) 2000000/2000000",
                                       "do_syscall ([kernel.kallsyms]) 1000000/1000000", "main (/usr/bin/dd) 0/0"}));
    }

    // A label is (symbol, dso); unknown symbols say their dso, or their
    // address; pid/tid tracks take the process name from the pid's first
    // sample; `#` lines and PERF_RECORD lines are no samples.
    void labelsAndTracks()
    {
        const QByteArray text = "# ========\n# cmdline : perf record -g\n#\n"
                                "app 5/5 1.000000: 1 cycles:\n"
                                "\tffffffff810 schedule+0x5 ([kernel.kallsyms])\n"
                                "\t7f00 foo+0x10 (/usr/lib/libc.so.6)\n"
                                "\t7f10 [unknown] (/usr/lib/libx.so)\n"
                                "\t5510 foo (/usr/bin/app)\n"
                                "\tdeadbeef [unknown] ([unknown])\n\n"
                                "app 5/5 1.000100: PERF_RECORD_COMM: worker:5/6\n\n"
                                "worker 5/6 1.000200: 1 cycles:\n"
                                "\t5510 f(int) (/usr/bin/app)\n"
                                "\t5520 (anonymous namespace)::g (/usr/bin/app (deleted))\n\n"
                                "app 5/5 1.001000: 1 cycles:\n"
                                "\t5510 foo (/usr/bin/app)\n";
        const LoadResult r = loadText(text);
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const Profile& p = *r.profile;
        QCOMPARE(trackNames(p), (QStringList{"app / app (tid 5)", "app / worker (tid 6)"}));
        QCOMPARE(rank(p), (QStringList{"foo (/usr/bin/app) 1000000/2000000",
                                       "schedule ([kernel.kallsyms]) 1000000/1000000",
                                       "0xdeadbeef 0/1000000",
                                       "[unknown] (/usr/lib/libx.so) 0/1000000",
                                       "foo (/usr/lib/libc.so.6) 0/1000000",
                                       "(anonymous namespace)::g (/usr/bin/app (deleted)) 0/0",
                                       "f(int) (/usr/bin/app) 0/0"}));
        QCOMPARE(int(p.diagnostics().skippedEvents().at("PERF_RECORD_COMM")), 1);
        QCOMPARE(int(p.diagnostics().warningCount()), 0);
    }
};

QTEST_GUILESS_MAIN(TestPerfScriptLoader)
#include "tst_perfscriptloader.moc"
