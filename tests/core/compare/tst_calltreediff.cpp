#include "calltree.h"
#include "calltreediff.h"
#include "profileloader.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace runlane;

namespace {

// Folded stacks as a user's file: written, then loaded.
std::shared_ptr<const Profile> folded(const QByteArray& text)
{
    QTemporaryDir dir;
    QFile file(dir.filePath(QStringLiteral("stacks.folded")));
    if (!file.open(QIODevice::WriteOnly) || file.write(text) != text.size())
        return nullptr;
    file.close();
    return ProfileLoader::load(file.fileName()).profile;
}

CallTreeDiff::Base baseOf(const QByteArray& text)
{
    auto profile = folded(text);
    if (!profile)
        qFatal("the base does not load");
    auto tree = std::make_shared<const CallTree>(*profile);
    return {std::move(profile), std::move(tree)};
}

// The node of the call path `labels` (root first) in `tree`, kNone if none.
std::uint32_t nodeOf(const Profile& profile, const CallTree& tree, const QStringList& labels)
{
    for (std::uint32_t n = 0; n < tree.nodeCount(); ++n) {
        QStringList path;
        for (std::uint32_t a = n; a != kNone; a = tree.node(a).parent)
        {
            const std::string_view name = profile.labelName(tree.node(a).label);
            path.prepend(QString::fromUtf8(name.data(), qsizetype(name.size())));
        }
        if (path == labels)
            return n;
    }
    return kNone;
}

// Sample counts are held in ticks (profiletypes.h).
constexpr double kTick = double(kTicksPerUnit);

} // namespace

class TestCallTreeDiff : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void selfTimesPerPath_data()
    {
        QTest::addColumn<QStringList>("path");
        QTest::addColumn<double>("baseSelf");
        QTest::addColumn<double>("baseTotal");
        QTest::addColumn<int>("baseRuns");
        QTest::addColumn<double>("newSelf");
        // Three base runs; main;work took 100, 120 and 90 self: median 100.
        QTest::newRow("slower") << QStringList{"main", "work"} << 100.0 << 100.0 << 3 << 150.0;
        // In one base run of three only: median over the runs of (0, 0, 40).
        QTest::newRow("rare in the base") << QStringList{"main", "rare"} << 0.0 << 0.0 << 1 << 40.0;
        QTest::newRow("unchanged") << QStringList{"main", "idle"} << 50.0 << 50.0 << 3 << 50.0;
        // A parent's self time is what its children leave.
        QTest::newRow("root") << QStringList{"main"} << 0.0 << 150.0 << 3 << 0.0;
        QTest::newRow("new path") << QStringList{"main", "fresh"} << 0.0 << 0.0 << 0 << 20.0;
    }
    void selfTimesPerPath()
    {
        QFETCH(QStringList, path);
        QFETCH(double, baseSelf);
        QFETCH(double, baseTotal);
        QFETCH(int, baseRuns);
        QFETCH(double, newSelf);
        const std::vector<CallTreeDiff::Base> bases{
            baseOf("main;work 100\nmain;idle 50\n"),
            baseOf("main;work 120\nmain;idle 50\nmain;rare 40\n"),
            baseOf("main;work 90\nmain;idle 50\nmain;gone;deep 30\n"),
        };
        const auto next = folded("main;work 150\nmain;idle 50\nmain;rare 40\nmain;fresh 20\n");
        QVERIFY(next);
        const CallTree tree(*next);
        const CallTreeDiff diff = CallTreeDiff::compute(*next, tree, bases);
        QCOMPARE(diff.baseRunCount(), std::size_t(3));
        QCOMPARE(diff.pathCount(), tree.nodeCount());
        const std::uint32_t node = nodeOf(*next, tree, path);
        QVERIFY(node != kNone);
        QCOMPARE(diff.path(node).baseSelf, baseSelf * kTick);
        if (path != QStringList{"main"})
            QCOMPARE(diff.path(node).baseTotal, baseTotal * kTick);
        QCOMPARE(int(diff.path(node).baseRuns), baseRuns);
        QCOMPARE(diff.isNew(node), baseRuns == 0);
        QCOMPARE(double(tree.node(node).self), newSelf * kTick);
    }

    void rootTotalIsMedianOfRuns()
    {
        // main's totals: 150, 210 and 170: the median is 170, not a mean.
        const std::vector<CallTreeDiff::Base> bases{baseOf("main;work 100\nmain;idle 50\n"),
                                                    baseOf("main;work 120\nmain;idle 50\nmain;rare 40\n"),
                                                    baseOf("main;work 90\nmain;idle 50\nmain;gone;deep 30\n")};
        const auto next = folded("main;work 10\n");
        const CallTree tree(*next);
        const CallTreeDiff diff = CallTreeDiff::compute(*next, tree, bases);
        const std::uint32_t root = nodeOf(*next, tree, {"main"});
        QVERIFY(root != kNone);
        QCOMPARE(diff.path(root).baseTotal, 170 * kTick);
    }

    void removedPaths()
    {
        // Nothing vanishes silently: the paths the new profile lost, with
        // the medians over all three runs (two of which lack them), the
        // largest first, a path under a removed one marked so.
        const std::vector<CallTreeDiff::Base> bases{baseOf("main;work 100\nmain;gone;deep 30\n"),
                                                    baseOf("main;work 100\nmain;gone;deep 36\nmain;old 500\n"),
                                                    baseOf("main;work 100\nmain;gone;deep 24\nmain;old 700\n")};
        const auto next = folded("main;work 100\n");
        const CallTree tree(*next);
        const CallTreeDiff diff = CallTreeDiff::compute(*next, tree, bases);
        QCOMPARE(diff.removed().size(), std::size_t(3));
        const auto& old = diff.removed()[0];
        QCOMPARE(diff.labelsOf(old), (std::vector<std::string>{"main", "old"}));
        QCOMPARE(old.baseSelf, 500 * kTick); // median of 0, 500, 700
        QCOMPARE(old.baseRuns, 2u);
        QVERIFY(!old.parentRemoved);
        const auto& gone = diff.removed()[1];
        QCOMPARE(diff.labelsOf(gone), (std::vector<std::string>{"main", "gone"}));
        QCOMPARE(gone.baseTotal, 30 * kTick);
        QCOMPARE(gone.baseSelf, 0.0);
        QVERIFY(!gone.parentRemoved);
        const auto& deep = diff.removed()[2];
        QCOMPARE(diff.labelsOf(deep), (std::vector<std::string>{"main", "gone", "deep"}));
        QCOMPARE(deep.baseSelf, 30 * kTick);
        QCOMPARE(deep.baseRuns, 3u);
        QVERIFY(deep.parentRemoved);
        QCOMPARE(diff.trackOf(deep), std::string(bases[0].profile->string(bases[0].profile->track(0).name)));
    }

    void sameNameElsewhereIsAnotherPath()
    {
        // "work" under another parent is not main;work.
        const std::vector<CallTreeDiff::Base> bases{baseOf("other;work 100\n")};
        const auto next = folded("main;work 100\n");
        const CallTree tree(*next);
        const CallTreeDiff diff = CallTreeDiff::compute(*next, tree, bases);
        QVERIFY(diff.isNew(nodeOf(*next, tree, {"main", "work"})));
        QCOMPARE(diff.removed().size(), std::size_t(2));
    }

    void noBase()
    {
        const auto next = folded("main;work 100\n");
        const CallTree tree(*next);
        const CallTreeDiff diff = CallTreeDiff::compute(*next, tree, {});
        QCOMPARE(diff.baseRunCount(), std::size_t(0));
        QVERIFY(diff.isNew(0));
        QVERIFY(diff.removed().empty());
    }
};

QTEST_GUILESS_MAIN(TestCallTreeDiff)
#include "tst_calltreediff.moc"
