#include "ensogenerator.h"
#include "ensomessages.h"
#include "messagescontroller.h"
#include "messagesstate.h"
#include "messagesview.h"
#include "profiledocument.h"
#include "roundtripmodel.h"
#include "timeaxis.h"
#include "valueformat.h"
#include "widgettestsupport.h"

#include <QAbstractItemModelTester>
#include <QDockWidget>
#include <QMainWindow>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QtTest>

#include <algorithm>

using namespace runlane;
using namespace runlane::test;

namespace {

LoadedProfile generated(std::uint64_t seed, EnsoGenTruth* truth = nullptr)
{
    EnsoGenOptions options;
    options.seed = seed;
    options.tasks = int(40 * seed);
    return loadedText(QByteArray::fromStdString(EnsoGenerator::profile(options, truth)));
}

QVariant cell(const QAbstractItemModel& model, int row, int column, int role = Qt::DisplayRole)
{
    return model.data(model.index(row, column), role);
}

} // namespace

class TestRoundTripModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Every row is ProcessMessages' round-trip row of its endpoint, and
    // the generator's own figures (nearest rank over what it wrote).
    void rowsAreProcessMessages_data()
    {
        QTest::addColumn<quint64>("seed");
        for (const quint64 seed : {1, 2, 3, 4})
            QTest::addRow("seed %llu", static_cast<unsigned long long>(seed)) << seed;
    }
    void rowsAreProcessMessages()
    {
        QFETCH(quint64, seed);
        TimeAxis axis;
        ProfileDocument document(&axis);
        RoundTripModel model(&document);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        EnsoGenTruth truth;
        document.setProfile(generated(seed, &truth));
        const std::vector<ProcessMessages::RoundTrips>& trips = document.messages()->messages().roundTrips();
        QCOMPARE(model.rowCount(), int(truth.roundTrips.size()));
        QCOMPARE(model.columnCount(), 6);
        int r = 0;
        for (const auto& [endpoint, byEndpoint] : truth.roundTrips) {
            // A copy, sorted; a variable of its own, which a lambda may capture (clang 14).
            std::vector<std::uint64_t> written = byEndpoint;
            std::sort(written.begin(), written.end());
            const auto rank = [&written](double q) {
                const std::size_t k = std::max<std::size_t>(1, std::size_t(std::ceil(q * double(written.size()))));
                return qlonglong(written[k - 1] * 1000);
            };
            const ProcessMessages::RoundTrips& row = trips[std::size_t(r)];
            QCOMPARE(cell(model, r, RoundTripModel::Endpoint).toString(), QString::fromStdString(endpoint));
            QCOMPARE(cell(model, r, RoundTripModel::Requests, RoundTripModel::SortRole).toULongLong(), row.requests);
            QCOMPARE(cell(model, r, RoundTripModel::Requests, RoundTripModel::SortRole).toULongLong(), qulonglong(written.size()));
            QCOMPARE(cell(model, r, RoundTripModel::P50, RoundTripModel::SortRole).toLongLong(), qlonglong(row.p50));
            QCOMPARE(cell(model, r, RoundTripModel::P50, RoundTripModel::SortRole).toLongLong(), rank(0.5));
            QCOMPARE(cell(model, r, RoundTripModel::P90, RoundTripModel::SortRole).toLongLong(), rank(0.9));
            QCOMPARE(cell(model, r, RoundTripModel::Max, RoundTripModel::SortRole).toLongLong(), qlonglong(written.back() * 1000));
            QCOMPARE(cell(model, r, RoundTripModel::Unanswered, RoundTripModel::SortRole).toULongLong(), 0ull);
            QCOMPARE(cell(model, r, RoundTripModel::P90).toString(),
                     QString::fromStdString(ValueFormat::text(row.p90, ValueUnit::Nanoseconds)));
            ++r;
        }
    }

    // tests/ensomessages.h: executionContext/push has two requests, 7
    // answered after 200 µs, 8 never.
    void handWritten()
    {
        TimeAxis axis;
        ProfileDocument document(&axis);
        RoundTripModel model(&document);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        document.setProfile(loadedText(ensoMessages()));
        QCOMPARE(model.rowCount(), 1);
        QStringList texts;
        for (int c = 0; c < model.columnCount(); ++c)
            texts << cell(model, 0, c).toString();
        QCOMPARE(texts, (QStringList{"executionContext/push", "2", "200 µs", "200 µs", "200 µs", "1"}));
        // A profile without messages: no rows.
        document.setProfile(loadedText(requestReply()));
        QCOMPARE(model.rowCount(), 0);
    }

    // Sorted by the numbers (a proxy on SortRole), not by their text.
    void sortsByNumbers()
    {
        TimeAxis axis;
        ProfileDocument document(&axis);
        RoundTripModel model(&document);
        QSortFilterProxyModel sorted;
        sorted.setSourceModel(&model);
        sorted.setSortRole(RoundTripModel::SortRole);
        QAbstractItemModelTester tester(&sorted, QAbstractItemModelTester::FailureReportingMode::QtTest);
        document.setProfile(generated(3));
        std::vector<Time> maxima;
        for (const ProcessMessages::RoundTrips& row : document.messages()->messages().roundTrips())
            maxima.push_back(row.max);
        QVERIFY(maxima.size() >= 3);
        std::sort(maxima.rbegin(), maxima.rend());
        sorted.sort(RoundTripModel::Max, Qt::DescendingOrder);
        for (int r = 0; r < sorted.rowCount(); ++r)
            QCOMPARE(cell(sorted, r, RoundTripModel::Max, RoundTripModel::SortRole).toLongLong(), qlonglong(maxima[std::size_t(r)]));
    }

    // The Round trips dock: shown with a profile that has messages; a row
    // selected highlights its endpoint's messages in the Messages view
    // (through the document's MessagesState), and only those.
    void selectionHighlights()
    {
        QMainWindow window;
        TimeAxis axis;
        ProfileDocument document(&axis);
        auto* rank = new QDockWidget(QStringLiteral("Rank"), &window);
        window.addDockWidget(Qt::BottomDockWidgetArea, rank);
        MessagesController controller(&window, &document, rank);
        MessagesView view(&document);
        view.resize(TimeAxis::kGutter + 600 + 20, 200);
        window.show();
        document.setProfile(generated(2));
        QVERIFY(!controller.dock()->isHidden());
        QCOMPARE(controller.table()->model()->rowCount(), int(document.messages()->messages().roundTrips().size()));
        // The slowest endpoint first.
        controller.table()->selectRow(0);
        const QString endpoint = cell(*controller.table()->model(), 0, RoundTripModel::Endpoint).toString();
        QCOMPARE(QString::fromStdString(document.messages()->highlightedEndpoint()), endpoint);
        std::uint64_t named = 0;
        for (const ProcessMessages::Message& m : document.messages()->messages().messages())
            named += m.name == endpoint.toStdString() ? 1 : 0;
        std::uint64_t highlighted = 0;
        for (const MessagesView::Item& item : view.items(600)) {
            if (item.highlighted && item.kind == MessagesView::Item::Kind::Arrow) {
                highlighted += item.count;
                QCOMPARE(QString::fromStdString(document.messages()->messages().messages()[item.message].name), endpoint);
            }
        }
        QCOMPARE(highlighted, named);
        controller.table()->clearSelection();
        QCOMPARE(document.messages()->highlightedEndpoint(), std::string());
        document.setProfile(loadedText(requestReply()));
        QVERIFY(controller.dock()->isHidden());
    }
};

QTEST_MAIN(TestRoundTripModel)
#include "tst_roundtripmodel.moc"
