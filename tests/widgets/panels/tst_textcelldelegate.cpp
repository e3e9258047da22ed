#include "textcelldelegate.h"

#include <QStandardItemModel>
#include <QTableView>
#include <QtTest>

using namespace runlane;

namespace {

// A table as the rank shows one: names left, numbers right, a search
// match shaded, a name too long for its column, a few coloured texts.
struct Table {
    QStandardItemModel model{0, 3};
    QTableView view;
    TextCellDelegate* delegate = nullptr;

    // `elide`: the view's elision for the style's table, the delegate's for
    // the lean one (whose view keeps the default).
    explicit Table(bool lean, Qt::TextElideMode elide = Qt::ElideRight)
    {
        const QList<QStringList> rows{{"taskHandler", "5.63 s", "75.3 %"},
                                      {"handleBlock", "110 ms", "1.5 %"},
                                      {"a name far too long for the column it is in", "23.7 ms", "0.3 %"},
                                      {"handleManifest", "1.00 k samples", "1.4 %"},
                                      {"Ünïcödé → naïve ✓", "9 µs", "0 %"}};
        for (const QStringList& texts : rows) {
            QList<QStandardItem*> items;
            for (int c = 0; c < texts.size(); ++c) {
                auto* item = new QStandardItem(texts[c]);
                item->setTextAlignment(c == 0 ? Qt::AlignLeft | Qt::AlignVCenter : Qt::AlignRight | Qt::AlignVCenter);
                items << item;
            }
            model.appendRow(items);
        }
        model.item(1, 0)->setBackground(QColor(255, 240, 160));
        // Text colours as the compare rank's verdicts give them: on a plain
        // cell, on a shaded one, on the selected row (where the selection's
        // text colour wins).
        model.item(0, 2)->setForeground(QColor(200, 30, 30));
        model.item(1, 0)->setForeground(QColor(20, 120, 40));
        model.item(3, 2)->setForeground(QColor(200, 30, 30));
        view.setModel(&model);
        view.setAlternatingRowColors(true);
        view.setWordWrap(false);
        view.setColumnWidth(0, 120);
        view.setColumnWidth(1, 70);
        view.setColumnWidth(2, 60);
        view.resize(300, 200);
        if (lean) {
            delegate = new TextCellDelegate(&view);
            if (elide != Qt::ElideRight)
                delegate->setElideMode(elide);
            view.setItemDelegate(delegate);
        } else {
            view.setTextElideMode(elide);
        }
        view.selectionModel()->select(model.index(3, 0), QItemSelectionModel::Select | QItemSelectionModel::Rows);
        view.show();
    }
    QImage cell(int row, int column)
    {
        return view.viewport()->grab(view.visualRect(model.index(row, column))).toImage();
    }
};

} // namespace

class TestTextCellDelegate : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // What the style draws, pixel for pixel: text, alignment, elision,
    // selection and a model's background and text colour.
    void drawsAsTheStyle_data()
    {
        QTest::addColumn<int>("row");
        QTest::addColumn<int>("column");
        QTest::addColumn<bool>("elided"); // too wide for its column
        for (int r = 0; r < 5; ++r) {
            for (int c = 0; c < 3; ++c)
                QTest::addRow("row %d, column %d", r, c) << r << c << ((r == 2 && c == 0) || (r == 3 && c == 1));
        }
    }
    void drawsAsTheStyle()
    {
        QFETCH(int, row);
        QFETCH(int, column);
        QFETCH(bool, elided);
        Table style(false);
        Table lean(true);
        QVERIFY(QTest::qWaitForWindowExposed(&style.view));
        QVERIFY(QTest::qWaitForWindowExposed(&lean.view));
        QCOMPARE(lean.cell(row, column), style.cell(row, column));
        // Drawn by the delegate, not handed to the style: all but the
        // elided texts and the current cell.
        const bool own = !elided && lean.view.currentIndex() != lean.model.index(row, column);
        const std::size_t before = lean.delegate->ownCells();
        lean.view.viewport()->repaint(lean.view.visualRect(lean.model.index(row, column)));
        QCOMPARE(lean.delegate->ownCells() - before, std::size_t(own ? 1 : 0));
    }

    // Its own elision (the rank's file:line keeps its end): as the style
    // draws a view set to elide that way, and not as the view's default.
    void elidesItsOwnWay_data()
    {
        QTest::addColumn<int>("mode");
        QTest::newRow("left") << int(Qt::ElideLeft);
        QTest::newRow("middle") << int(Qt::ElideMiddle);
    }
    void elidesItsOwnWay()
    {
        QFETCH(int, mode);
        const auto elide = Qt::TextElideMode(mode);
        Table style(false, elide);
        Table byDefault(false);
        Table lean(true, elide);
        QVERIFY(QTest::qWaitForWindowExposed(&style.view));
        QVERIFY(QTest::qWaitForWindowExposed(&byDefault.view));
        QVERIFY(QTest::qWaitForWindowExposed(&lean.view));
        QCOMPARE(lean.cell(2, 0), style.cell(2, 0));
        QVERIFY(lean.cell(2, 0) != byDefault.cell(2, 0));
        // A text that fits is the same either way (not the first cell: the
        // window with the focus frames its current one).
        QCOMPARE(lean.cell(4, 0), byDefault.cell(4, 0));
    }
};

QTEST_MAIN(TestTextCellDelegate)
#include "tst_textcelldelegate.moc"
