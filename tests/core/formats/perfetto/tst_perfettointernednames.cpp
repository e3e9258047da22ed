// PerfettoInternedNames: the event names of a sequence by iid, in a vector
// for the iids writers give out (from 1 upwards) and in a map for one far
// beyond the names set so far, so that a hostile iid allocates nothing
// the input does not hold. Either way a name is found as it was set.
#include "perfettointernednames.h"

#include <QtTest>

using namespace runlane;

namespace {

// "iid=name" pairs, set in this order.
void setAll(PerfettoInternedNames& names, const QString& sets)
{
    for (const QString& set : sets.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        const QStringList parts = set.split(QLatin1Char('='));
        names.set(parts[0].toULongLong(), StringId(parts[1].toUInt()));
    }
}

// What find() gives for each of `iids`: the name, or "-" for none.
QString found(const PerfettoInternedNames& names, const QList<quint64>& iids)
{
    QStringList out;
    for (const quint64 iid : iids) {
        const std::optional<StringId> name = names.find(iid);
        out << (name ? QString::number(*name) : QStringLiteral("-"));
    }
    return out.join(QLatin1Char(' '));
}

} // namespace

class TestPerfettoInternedNames : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void find_data()
    {
        QTest::addColumn<QString>("sets");
        QTest::addColumn<QList<quint64>>("iids");
        QTest::addColumn<QString>("expected");
        QTest::addColumn<qulonglong>("dense"); // the vector's length after
        const QList<quint64> few{0, 1, 2, 3, 4};
        QTest::newRow("none") << QString() << few << "- - - - -" << qulonglong(0);
        QTest::newRow("from 1 up") << "1=10 2=20 3=30" << few << "- 10 20 30 -" << qulonglong(4);
        QTest::newRow("set again") << "1=10 1=11" << few << "- 11 - - -" << qulonglong(2);
        QTest::newRow("in any order") << "3=30 1=10" << few << "- 10 - 30 -" << qulonglong(4);
        QTest::newRow("iid 0") << "0=7" << few << "7 - - - -" << qulonglong(1);
        // A name id that is kNone's neighbour is a name like any other.
        QTest::newRow("the largest name id") << "2=4294967294" << few << "- - 4294967294 - -" << qulonglong(3);
        // Beyond 1,024 + twice the names set: in the map, the vector stays small.
        QTest::newRow("a far iid") << "1=10 5000000000=50" << QList<quint64>{1, 5000000000, 4999999999}
                                   << "10 50 -" << qulonglong(2);
        QTest::newRow("the largest iid") << "18446744073709551615=9" << QList<quint64>{18446744073709551615ull, 0}
                                         << "9 -" << qulonglong(0);
        QTest::newRow("just within the vector") << "1024=1" << QList<quint64>{1024, 1023, 1025} << "1 - -"
                                                << qulonglong(1025);
        QTest::newRow("just beyond it") << "1025=1" << QList<quint64>{1025, 1024} << "1 -" << qulonglong(0);
        // Names set grow the room: 600 names let an iid of 2,224 in.
        QString many;
        for (int iid = 1; iid <= 600; ++iid)
            many += QStringLiteral("%1=%1 ").arg(iid);
        QTest::newRow("room grows with the names") << many + "2224=7 2300=8" << QList<quint64>{600, 2224, 2300, 601}
                                                   << "600 7 8 -" << qulonglong(2225);
    }
    void find()
    {
        QFETCH(QString, sets);
        QFETCH(QList<quint64>, iids);
        QFETCH(QString, expected);
        QFETCH(qulonglong, dense);
        PerfettoInternedNames names;
        setAll(names, sets);
        QCOMPARE(found(names, iids), expected);
        QCOMPARE(qulonglong(names.denseSize()), dense);
        // SEQ_INCREMENTAL_STATE_CLEARED: nothing is left, and new names
        // are found again.
        names.clear();
        QCOMPARE(found(names, iids), QStringList(iids.size(), QStringLiteral("-")).join(QLatin1Char(' ')));
        QCOMPARE(names.denseSize(), std::size_t(0));
        names.set(1, 5);
        QCOMPARE(names.find(1), std::optional<StringId>(5));
    }
};

QTEST_MAIN(TestPerfettoInternedNames)
#include "tst_perfettointernednames.moc"
