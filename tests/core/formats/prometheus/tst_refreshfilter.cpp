#include "refreshfilter.h"

#include <QtTest>

using namespace runlane;

namespace {

// "a:100:1,b:50:2": procs with exec and calls (file "f.nim", line 1).
ScrapedSnapshot snapshotOf(const QString& text, Time time)
{
    ScrapedSnapshot s;
    s.time = time;
    for (const QString& row : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const QStringList parts = row.split(QLatin1Char(':'));
        NamedAggregateRow r;
        r.procedure = parts.value(0).toStdString();
        r.file = "f.nim";
        r.line = 1;
        r.values.exec = parts.value(1).toLongLong();
        r.values.calls = parts.value(2).toULongLong();
        s.rows.push_back(r);
    }
    return s;
}

} // namespace

class TestRefreshFilter : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void accept_data()
    {
        QTest::addColumn<QStringList>("snapshots");
        QTest::addColumn<QString>("accepted"); // one digit a snapshot

        QTest::newRow("firstAlways") << QStringList{QStringLiteral("a:100:1")} << QStringLiteral("1");
        QTest::newRow("repeatDropped") << QStringList{QStringLiteral("a:100:1"), QStringLiteral("a:100:1"),
                                                      QStringLiteral("a:100:1")}
                                       << QStringLiteral("100");
        QTest::newRow("execChanged") << QStringList{QStringLiteral("a:100:1"), QStringLiteral("a:150:1")}
                                     << QStringLiteral("11");
        QTest::newRow("callsChanged") << QStringList{QStringLiteral("a:100:1"), QStringLiteral("a:100:2")}
                                      << QStringLiteral("11");
        QTest::newRow("procAppeared") << QStringList{QStringLiteral("a:100:1"), QStringLiteral("a:100:1,b:5:1")}
                                      << QStringLiteral("11");
        QTest::newRow("procDisappeared") << QStringList{QStringLiteral("a:100:1,b:5:1"), QStringLiteral("a:100:1")}
                                         << QStringLiteral("11");
        // A reset is a change like any other.
        QTest::newRow("counterReset") << QStringList{QStringLiteral("a:100:1"), QStringLiteral("a:10:1"),
                                                     QStringLiteral("a:10:1")}
                                      << QStringLiteral("110");
        QTest::newRow("orderDoesNotMatter") << QStringList{QStringLiteral("a:1:1,b:2:2"), QStringLiteral("b:2:2,a:1:1")}
                                            << QStringLiteral("10");
        // Back to earlier values: compared with the last accepted only.
        QTest::newRow("backAndForth") << QStringList{QStringLiteral("a:1:1"), QStringLiteral("a:2:1"),
                                                     QStringLiteral("a:1:1")}
                                      << QStringLiteral("111");
        QTest::newRow("emptyAgain") << QStringList{QString(), QString(), QStringLiteral("a:1:1")}
                                    << QStringLiteral("101");
    }

    void accept()
    {
        QFETCH(QStringList, snapshots);
        QFETCH(QString, accepted);
        RefreshFilter filter;
        QString got;
        Time t = 0;
        for (const QString& s : snapshots)
            got += filter.accept(snapshotOf(s, t += 1000)) ? QLatin1Char('1') : QLatin1Char('0');
        QCOMPARE(got, accepted);
    }

    // Same data under another file or line is another proc.
    void locationCounts()
    {
        RefreshFilter filter;
        ScrapedSnapshot s = snapshotOf(QStringLiteral("a:1:1"), 0);
        QVERIFY(filter.accept(s));
        s.rows[0].line = 2;
        QVERIFY(filter.accept(s));
        s.rows[0].file = "g.nim";
        QVERIFY(filter.accept(s));
        QVERIFY(!filter.accept(s));
        filter.reset();
        QVERIFY(filter.accept(s));
    }
};

QTEST_GUILESS_MAIN(TestRefreshFilter)
#include "tst_refreshfilter.moc"
