#include "linelabel.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QtTest>

using namespace runlane;

namespace {

// Counts the layout requests a widget receives: each is a pass of its
// layout, and of every layout above it.
class LayoutRequests : public QObject
{
public:
    explicit LayoutRequests(QWidget* watched) { watched->installEventFilter(this); }
    int count = 0;

protected:
    bool eventFilter(QObject*, QEvent* event) override
    {
        if (event->type() == QEvent::LayoutRequest)
            ++count;
        return false;
    }
};

} // namespace

// LineLabel: a line of text that changes on every zoom without re-laying
// out the window, cut with "…" when it does not fit.
class TestLineLabel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // A row of controls with the label last, as the usage chart's header
    // and the status bar hold it. A QLabel in its place asks for a layout
    // pass at each new text (the control row: that the count sees one).
    void aNewTextLaysOutNothing_data()
    {
        QTest::addColumn<bool>("plainQLabel");
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("layoutRequests");
        QTest::newRow("short") << false << QStringLiteral("bins of 5.00 ms") << 0;
        QTest::newRow("longer than the row") << false << QStringLiteral("Showing 1.20 ms of 1.64 s ").repeated(20) << 0;
        QTest::newRow("empty") << false << QString() << 0;
        QTest::newRow("QLabel, short") << true << QStringLiteral("bins of 5.00 ms") << 1;
    }
    void aNewTextLaysOutNothing()
    {
        QFETCH(bool, plainQLabel);
        QFETCH(QString, text);
        QFETCH(int, layoutRequests);
        QWidget row;
        auto* layout = new QHBoxLayout(&row);
        auto* button = new QPushButton(QStringLiteral("top 8"), &row);
        layout->addWidget(button);
        auto* line = new LineLabel(&row);
        auto* label = new QLabel(&row);
        layout->addWidget(plainQLabel ? static_cast<QWidget*>(label) : line, 1);
        (plainQLabel ? static_cast<QWidget*>(line) : label)->hide();
        line->setText(QStringLiteral("bins of 1.00 ms"));
        label->setText(QStringLiteral("bins of 1.00 ms"));
        row.resize(400, 40);
        row.show();
        QVERIFY(QTest::qWaitForWindowExposed(&row));
        QCoreApplication::processEvents();
        const QRect buttonBefore = button->geometry();
        LayoutRequests requests(&row);
        if (plainQLabel)
            label->setText(text);
        else
            line->setText(text);
        QCoreApplication::processEvents();
        QCOMPARE(requests.count, layoutRequests);
        QCOMPARE(button->geometry(), buttonBefore);
        if (!plainQLabel)
            QCOMPARE(line->text(), text);
    }

    // The size it asks for is the font's, whatever the text: a long status
    // never widens the window.
    void theSizeHintIgnoresTheText_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("empty") << QString();
        QTest::newRow("short") << QStringLiteral("x");
        QTest::newRow("long") << QStringLiteral("Loading a-very-long-file-name.json… ").repeated(30);
    }
    void theSizeHintIgnoresTheText()
    {
        QFETCH(QString, text);
        LineLabel empty;
        LineLabel line;
        line.setText(text);
        QCOMPARE(line.sizeHint(), empty.sizeHint());
        QCOMPARE(line.minimumSizeHint(), QSize(0, line.fontMetrics().height()));
    }

    // Cut only when the text is wider than the label.
    void aTextTooWideIsCut_data()
    {
        QTest::addColumn<int>("width");
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("elided");
        QTest::newRow("fits") << 400 << QStringLiteral("bins of 5.00 ms") << false;
        QTest::newRow("too wide") << 60 << QStringLiteral("bins of 5.00 ms (1.00 ms merged ×5 to fit the width)") << true;
        QTest::newRow("empty") << 10 << QString() << false;
    }
    void aTextTooWideIsCut()
    {
        QFETCH(int, width);
        QFETCH(QString, text);
        QFETCH(bool, elided);
        LineLabel line;
        line.resize(width, line.sizeHint().height());
        line.setText(text);
        QCOMPARE(line.isElided(), elided);
        QCOMPARE(line.fontMetrics().horizontalAdvance(text) > width, elided);
    }
};

QTEST_MAIN(TestLineLabel)
#include "tst_linelabel.moc"
