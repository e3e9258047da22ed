#include "longestlivedtasks.h"

#include <QtTest>

#include <algorithm>
#include <random>
#include <vector>

using namespace runlane;

namespace {

// A format's task as the test models it: not a task yet, a task whose
// life grows with its events (settled), or one still open whose life is
// `now` less its start until it ends, at any time from its start on.
struct Task {
    bool isTask = false;
    bool open = false;
    std::uint64_t first = 0;
    std::uint64_t last = 0;
};

std::uint64_t lifeOf(const Task& t, std::uint64_t now)
{
    return (t.open ? std::max(now, t.first) : t.last) - t.first;
}

// What the selection must give: every task's life, sorted.
std::vector<LongestLivedTasks::Kept> bruteForce(const std::vector<Task>& tasks, std::uint64_t now, std::size_t budget,
                                                std::uint64_t& leftOut)
{
    std::vector<LongestLivedTasks::Kept> all;
    for (std::uint32_t i = 0; i < tasks.size(); ++i) {
        if (tasks[i].isTask)
            all.push_back({lifeOf(tasks[i], now), i});
    }
    std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.span != b.span ? a.span > b.span : a.task < b.task; });
    const std::size_t kept = std::min(budget, all.size());
    leftOut = all.size() - kept;
    all.resize(kept);
    std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.task < b.task; });
    return all;
}

} // namespace

class TestLongestLivedTasks : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Random runs of new tasks, tasks taking events (their life grows),
    // open tasks growing with the time read and ending at any time since
    // their start (their life may shrink), and selections: every selection
    // keeps exactly what a selection among all tasks keeps (the longest-
    // lived, equal ones first in the list), and counts the others.
    void sameAsSelectingAmongAll_data()
    {
        QTest::addColumn<int>("budget");
        QTest::addColumn<int>("seed");
        QTest::addColumn<int>("lifeRange"); // small: many equal lives
        for (const int budget : {0, 1, 7, 50}) {
            for (const int seed : {1, 2, 3}) {
                for (const int range : {4, 1000}) {
                    QTest::addRow("budget %d, seed %d, lives < %d", budget, seed, range) << budget << seed << range;
                }
            }
        }
    }
    void sameAsSelectingAmongAll()
    {
        QFETCH(int, budget);
        QFETCH(int, seed);
        QFETCH(int, lifeRange);
        std::mt19937 rng{std::uint32_t(seed)};
        auto below = [&rng](int n) { return int(rng() % std::uint32_t(n)); };
        std::vector<Task> tasks;
        LongestLivedTasks selection;
        std::uint64_t now = 0;
        int selections = 0;
        for (int step = 0; step < 20000; ++step) {
            now += std::uint64_t(below(3));
            const int op = below(100);
            if (op < 30 || tasks.empty()) {
                Task t;
                t.isTask = below(4) != 0;
                t.open = t.isTask && below(5) == 0;
                t.first = now - std::min<std::uint64_t>(now, std::uint64_t(below(lifeRange)));
                t.last = t.first + std::uint64_t(below(lifeRange));
                tasks.push_back(t);
                selection.touch(std::uint32_t(tasks.size() - 1));
            } else if (op < 80) {
                // An event of a task: its life grows, or it becomes a task.
                const std::uint32_t i = std::uint32_t(below(int(tasks.size())));
                Task& t = tasks[i];
                if (!t.open) {
                    t.isTask = t.isTask || below(2) == 0;
                    t.last += std::uint64_t(below(lifeRange));
                    if (below(3) == 0)
                        t.first -= std::min<std::uint64_t>(t.first, std::uint64_t(below(lifeRange)));
                } else {
                    // It ends, at any time from its start (an end read
                    // later may carry an earlier time).
                    t.open = false;
                    t.last = t.first + std::uint64_t(below(int(std::max<std::uint64_t>(now, t.first) - t.first) + 1));
                }
                selection.touch(i);
            } else if (op < 82) {
                ++selections;
                const auto life = [&](std::uint32_t i) -> std::optional<LongestLivedTasks::Life> {
                    if (!tasks[i].isTask)
                        return std::nullopt;
                    return LongestLivedTasks::Life{lifeOf(tasks[i], now), !tasks[i].open};
                };
                std::vector<LongestLivedTasks::Kept> kept;
                const std::uint64_t leftOut = selection.select(std::size_t(budget), life, kept);
                std::uint64_t expectedLeftOut = 0;
                const auto expected = bruteForce(tasks, now, std::size_t(budget), expectedLeftOut);
                QCOMPARE(leftOut, expectedLeftOut);
                QCOMPARE(kept.size(), expected.size());
                for (std::size_t k = 0; k < kept.size(); ++k) {
                    QCOMPARE(kept[k].task, expected[k].task);
                    QCOMPARE(kept[k].span, expected[k].span);
                }
            }
        }
        QCOMPARE(tasks.size() > 5000, true);
        QCOMPARE(selections > 300, true);
    }
};

QTEST_GUILESS_MAIN(TestLongestLivedTasks)
#include "tst_longestlivedtasks.moc"
