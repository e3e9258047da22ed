// NoticeBar: notices added stand together, setNotice replaces them in
// place (the loading banner, many times a second: the bar is never hidden
// in between, which laid out the whole window, and an unchanged text is
// not laid out again), clearNotices and ✕ hide it.
#include "noticebar.h"

#include <QEvent>
#include <QLabel>
#include <QSignalSpy>
#include <QToolButton>
#include <QtTest>

using namespace runlane;

namespace {

// Counts the hide and show events of the widget it watches.
struct EventCount : QObject {
    int hides = 0;
    int shows = 0;
    bool eventFilter(QObject*, QEvent* event) override
    {
        if (event->type() == QEvent::Hide)
            ++hides;
        if (event->type() == QEvent::Show)
            ++shows;
        return false;
    }
};

QLabel* textOf(const NoticeBar& bar)
{
    return bar.findChild<QLabel*>();
}

} // namespace

class TestNoticeBar : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void notices_data()
    {
        QTest::addColumn<QStringList>("added");
        QTest::addColumn<QString>("set"); // then setNotice(set), unless empty
        QTest::addColumn<QStringList>("expected");
        QTest::addColumn<QString>("label");
        QTest::newRow("one") << QStringList{"a"} << QString() << QStringList{"a"} << QStringLiteral("a");
        QTest::newRow("two stand together") << QStringList{"a", "b"} << QString() << QStringList{"a", "b"}
                                            << QStringLiteral("a<br>b");
        QTest::newRow("set replaces them") << QStringList{"a", "b"} << QStringLiteral("c") << QStringList{"c"}
                                           << QStringLiteral("c");
        QTest::newRow("set on an empty bar") << QStringList{} << QStringLiteral("<b>c</b>") << QStringList{"<b>c</b>"}
                                             << QStringLiteral("<b>c</b>");
    }
    void notices()
    {
        QFETCH(QStringList, added);
        QFETCH(QString, set);
        QFETCH(QStringList, expected);
        QFETCH(QString, label);
        QWidget window;
        auto* bar = new NoticeBar(&window);
        window.show();
        QVERIFY(bar->isHidden());
        for (const QString& notice : added)
            bar->addNotice(notice);
        if (!set.isEmpty())
            bar->setNotice(set);
        QCOMPARE(bar->notices(), expected);
        QCOMPARE(textOf(*bar)->text(), label);
        QVERIFY(bar->isVisible());
        bar->clearNotices();
        QVERIFY(bar->isHidden());
        QCOMPARE(bar->notices(), QStringList());
    }

    // A hundred new texts in a row: the bar stays shown throughout (no
    // hide, no second show) and keeps its palette; the label ends on the
    // last text.
    void setNoticeInPlace()
    {
        QWidget window;
        auto* bar = new NoticeBar(&window);
        bar->setDismissible(false);
        window.show();
        EventCount count;
        bar->installEventFilter(&count);
        bar->setNotice(QStringLiteral("Loading big.json — 0 %"));
        QCOMPARE(count.shows, 1);
        const QPalette shown = bar->palette();
        for (int percent = 1; percent <= 100; ++percent)
            bar->setNotice(QStringLiteral("Loading big.json — %1 %").arg(percent));
        QCOMPARE(count.hides, 0);
        QCOMPARE(count.shows, 1);
        QCOMPARE(textOf(*bar)->text(), QStringLiteral("Loading big.json — 100 %"));
        QCOMPARE(bar->palette(), shown);
        // A warning is tinted otherwise, and back.
        bar->setNotice(QStringLiteral("cut"), NoticeBar::Level::Warning);
        QVERIFY(bar->palette().color(QPalette::Window) != shown.color(QPalette::Window));
        bar->setNotice(QStringLiteral("again"));
        QCOMPARE(bar->palette().color(QPalette::Window), shown.color(QPalette::Window));
        QCOMPARE(count.hides, 0);
        bar->clearNotices();
        QCOMPARE(count.hides, 1);
    }

    // ✕ clears and hides a dismissible bar.
    void dismiss()
    {
        QWidget window;
        auto* bar = new NoticeBar(&window);
        window.show();
        bar->addNotice(QStringLiteral("a"));
        QToolButton* close = bar->findChild<QToolButton*>();
        QVERIFY(close && close->isVisible());
        close->click();
        QVERIFY(bar->isHidden());
        QCOMPARE(bar->notices(), QStringList());
    }
};

QTEST_MAIN(TestNoticeBar)
#include "tst_noticebar.moc"
