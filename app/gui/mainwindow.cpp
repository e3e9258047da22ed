#include "mainwindow.h"

#include "addprofilecontroller.h"
#include "backgroundloader.h"
#include "colorscheme.h"
#include "comparecontroller.h"
#include "comparesession.h"
#include "counttext.h"
#include "criticalpathpanel.h"
#include "detailspane.h"
#include "droptargets.h"
#include "historycontroller.h"
#include "livecontroller.h"
#include "messagescontroller.h"
#include "findbar.h"
#include "formatregistry.h"
#include "helpdialogs.h"
#include "icicleview.h"
#include "imageexporter.h"
#include "linelabel.h"
#include "loadcontroller.h"
#include "noticebar.h"
#include "profiledocument.h"
#include "profileview.h"
#include "recentfiles.h"
#include "rankpanel.h"
#include "shortcutsdialog.h"
#include "tasklaneview.h"
#include "theme.h"
#include "timeaxis.h"
#include "userguide.h"
#include "valueformat.h"
#include "viewsizing.h"
#include "variantbox.h"
#include "warningspanel.h"

#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QScreen>
#include <QScrollBar>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QStatusBar>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

namespace runlane {

namespace {

// A menu item with a shortcut (Qt 6.4 deprecates the overload taking both)
// and an object name, for tests and automation to find it by.
template<typename Receiver, typename Slot>
QAction* addItem(QMenu* menu, const char* name, const QString& text, const QKeySequence& shortcut, Receiver* receiver,
                 Slot slot)
{
    QAction* action = menu->addAction(text);
    action->setObjectName(QString::fromLatin1(name));
    action->setShortcut(shortcut);
    QObject::connect(action, &QAction::triggered, receiver, slot);
    return action;
}

// One of a submenu's exclusive choices (View ▸ Colour boxes by, Order tasks by, …).
template<typename Value>
struct Choice {
    QString text;
    Value value;
    const char* name = nullptr; // an object name, for tests and automation
};

// A submenu of exclusive choices, the one `current()` returns checked; a pick
// calls `choose`. With `follow`, the check follows `current()` each time the
// submenu opens (the choice is also made elsewhere: a view's context menu).
template<typename Value, typename Current, typename Choose>
void addChoices(QMenu* parent, const QString& title, std::initializer_list<Choice<Value>> choices, Current current,
                Choose choose, bool follow = false)
{
    QMenu* menu = parent->addMenu(title);
    auto* group = new QActionGroup(menu);
    for (const Choice<Value>& choice : choices) {
        QAction* action = menu->addAction(choice.text, menu, [choose, value = choice.value] { choose(value); });
        if (choice.name)
            action->setObjectName(QString::fromLatin1(choice.name));
        action->setCheckable(true);
        action->setChecked(choice.value == current());
        group->addAction(action);
        if (follow)
            QObject::connect(menu, &QMenu::aboutToShow, action, [action, current, value = choice.value] { action->setChecked(current() == value); });
    }
}

// File ▸ Export's items of the profile view, in the menu's order (the whole window after them).
struct ExportedPart {
    ProfileView::Part part;
    QString text;
    const char* name; // the action's object name
};

std::vector<ExportedPart> exportedParts()
{
    return {{ProfileView::Part::Icicle, MainWindow::tr("Icicle plot as PNG…"), "exportIcicle"},
            {ProfileView::Part::Lanes, MainWindow::tr("Task lanes as PNG…"), "exportLanes"},
            {ProfileView::Part::Usage, MainWindow::tr("Usage chart as PNG…"), "exportUsage"},
            {ProfileView::Part::Counters, MainWindow::tr("Counters as PNG…"), "exportCounters"},
            {ProfileView::Part::Messages, MainWindow::tr("Messages as PNG…"), "exportMessages"}};
}

} // namespace

QString MainWindow::displayName(const QString& path)
{
    if (path.contains(QLatin1String("://"))) // a live source: its URL says which program
        return QObject::tr("%1 (live)").arg(path);
    return path.startsWith(QLatin1Char(':')) ? QObject::tr("demo profile") : QFileInfo(path).fileName();
}

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), m_axis(new TimeAxis(this)), m_document(new ProfileDocument(m_axis, this)),
      m_loader(new BackgroundLoader(this))
{
    // The theme before any widget: none needs polishing twice.
    Theme::apply(Theme::fromName(QSettings().value(Theme::settingsKey()).toString()));
    QIcon icon(QStringLiteral(":/icons/runlane-256.png"));
    icon.addFile(QStringLiteral(":/icons/runlane-64.png"));
    setWindowIcon(icon);
    setAcceptDrops(true);

    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    // The views first: the icicle is the first to take the focus.
    m_view = new ProfileView(m_document, central);
    m_notices = new NoticeBar(central);
    connect(m_notices, &NoticeBar::linkActivated, this, [this](const QString& link) {
        if (link == QLatin1String("warnings"))
            showWarnings();
    });
    m_findBar = new FindBar(m_document, central);
    m_findBar->hide();
    connect(m_findBar, &FindBar::dismissed, this, [this] {
        QWidget* focus = QApplication::focusWidget();
        if (!focus || !focus->isVisible() || m_findBar->isAncestorOf(focus))
            icicle()->setFocus(Qt::OtherFocusReason);
    });
    layout->addWidget(m_notices);
    layout->addWidget(m_findBar);
    layout->addWidget(m_view, 1);
    setCentralWidget(central);

    m_details = new DetailsPane(m_document, this);
    m_detailsDock = new QDockWidget(tr("Details"), this);
    m_detailsDock->setObjectName(QStringLiteral("details"));
    m_detailsDock->setWidget(m_details);
    addDockWidget(Qt::RightDockWidgetArea, m_detailsDock);
    connect(m_details, &DetailsPane::emptyChanged, this, &MainWindow::fitDetails);
    m_rank = new RankPanel(m_document, this);
    m_rankDock = new QDockWidget(tr("Rank"), this);
    m_rankDock->setObjectName(QStringLiteral("rank"));
    m_rankDock->setWidget(m_rank);
    addDockWidget(Qt::BottomDockWidgetArea, m_rankDock);
    m_warnings = new WarningsPanel(this);
    m_warningsDock = new QDockWidget(tr("Warnings"), this);
    m_warningsDock->setObjectName(QStringLiteral("warnings"));
    m_warningsDock->setWidget(m_warnings);
    addDockWidget(Qt::BottomDockWidgetArea, m_warningsDock);
    tabifyDockWidget(m_rankDock, m_warningsDock);
    auto* criticalPathDock = new QDockWidget(tr("Critical path"), this);
    criticalPathDock->setObjectName(QStringLiteral("criticalPathPanel"));
    criticalPathDock->setWidget(new CriticalPathPanel(m_document, criticalPathDock));
    addDockWidget(Qt::BottomDockWidgetArea, criticalPathDock);
    tabifyDockWidget(m_rankDock, criticalPathDock);
    criticalPathDock->hide(); // until a path is asked for (P), or from View
    m_rankDock->raise();
    m_warningsDock->hide();
    connect(icicle(), &IcicleView::aggregatedNodeSelected, this,
            [this](std::uint32_t span) { m_details->showAggregatedNode(icicle(), span); });

    // Shown over everything while a file is dragged over the window.
    m_drop = new DropTargets(this);
    m_compare = new CompareController(this, m_document, m_rank);
    tabifyDockWidget(m_detailsDock, m_compare->removedDock());
    connect(m_compare->removedDock(), &QDockWidget::visibilityChanged, this, &MainWindow::fitDetails); // its paths need the width
    tabifyDockWidget(m_rankDock, m_compare->usageDock());
    new MessagesController(this, m_document, m_rankDock); // the Round trips dock
    m_rankDock->raise();
    connect(m_compare, &CompareController::status, this, [this](const QString& text) { m_statusText->setText(text); });
    connect(m_compare, &CompareController::titleChanged, this, &MainWindow::updateTitle);
    m_addProfile = new AddProfileController(this, m_document, [this](const QString& path, std::vector<ProfileAddition> added) {
        const QString last = added.empty() ? QString() : displayName(QString::fromStdString(added.back().path));
        openFile(path, std::move(added));
        if (!last.isEmpty())
            m_statusText->setText(tr("Adding %1 to %2…").arg(last, displayName(path)));
    });
    buildMenus();
    buildStatusBar();
    m_load = new LoadController(this, m_loader); // its banner above the notices
    connect(m_loader, &BackgroundLoader::progress, this, &MainWindow::progress);
    connect(m_loader, &BackgroundLoader::loaded, this, &MainWindow::loaded);
    connect(m_loader, &BackgroundLoader::failed, this, &MainWindow::failed);
    connect(m_axis, &TimeAxis::visibleRangeChanged, this, &MainWindow::showSpan);
    // A live recording grows under a range that stays put: "of" follows it.
    connect(m_axis, &TimeAxis::boundsChanged, this, [this] {
        if (!m_spanText.isEmpty() && m_statusText->text() == m_spanText)
            showSpan();
    });

    QSettings settings;
    resize(1400, 900);
    restoreGeometry(settings.value(QStringLiteral("geometry")).toByteArray());
    fitToScreen();
    m_docksByUser = restoreState(settings.value(QStringLiteral("windowState")).toByteArray());
    for (QDockWidget* dock : {m_rankDock, m_warningsDock, criticalPathDock}) { // moved or floated by the user
        connect(dock, &QDockWidget::dockLocationChanged, this, [this] { m_docksByUser = true; });
        connect(dock, &QDockWidget::topLevelChanged, this, [this] { m_docksByUser = true; });
    }
    fitDetails(); // a strip until something is selected
    m_view->restoreSplitterState(settings.value(QStringLiteral("splitter")).toByteArray());
    updateTitle();
}

MainWindow::~MainWindow()
{
    // ~QWidget hides the docks, after this object's part is gone: no fitDetails then.
    disconnect(m_compare->removedDock(), nullptr, this, nullptr);
}

void MainWindow::fitToScreen()
{
    // The first start's size, or one restored from a larger screen or another scale factor (2880 px
    // saved at 150 %), may not fit the screen we are on: the title bar and the status bar must stay reachable.
    const QScreen* on = QGuiApplication::screenAt(geometry().center());
    if (!on)
        on = screen() ? screen() : QGuiApplication::primaryScreen();
    if (!on)
        return;
    const QRect available = on->availableGeometry();
    // A frame's decorations are unknown before the window is shown: leave room for a usual title bar and border.
    const QSize room(std::max(200, available.width() - 16), std::max(200, available.height() - 48));
    const QSize fitted = size().boundedTo(room);
    if (fitted != size())
        resize(fitted);
    QRect frame(geometry().topLeft(), fitted);
    if (!available.contains(frame)) {
        frame.moveLeft(std::clamp(frame.left(), available.left(), available.right() - fitted.width()));
        frame.moveTop(std::clamp(frame.top(), available.top() + 32, std::max(available.top() + 32, available.bottom() - fitted.height())));
        move(frame.topLeft());
    }
}

void MainWindow::buildMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    addItem(file, "open", tr("&Open…"), QKeySequence::Open, this, &MainWindow::chooseAndOpen);
    m_recent = new RecentFiles(file->addMenu(tr("Open &Recent")), [this](const QString& path) { openFile(path); }, this);
    new HistoryController(file, this);
    m_live = new LiveController(file, this);
    m_compare->addFileActions(file);
    m_addProfile->addFileActions(file);
    addItem(file, "reload", tr("&Reload"), QKeySequence(Qt::Key_F5), this, [this] {
        // With the files added to it and the variant the user chose.
        const Profile* p = m_document->profile();
        if (!m_currentPath.isEmpty() && !m_live->refusesReload(m_currentPath))
            openFile(m_currentPath, AddProfileController::additionsOf(p),
                     p && !p->variants().empty() ? QString::fromStdString(p->variants()[p->variant()]) : QString());
    });
    QMenu* exports = file->addMenu(tr("&Export"));
    for (const auto& [part, text, name] : exportedParts()) {
        QAction* item = exports->addAction(text, this, [this, part = part] { exportImage(part); });
        item->setObjectName(QString::fromLatin1(name));
        item->setEnabled(m_view->canExport(part));
    }
    connect(m_view, &ProfileView::exportsChanged, this, [this] {
        for (const auto& [part, text, name] : exportedParts())
            action(QString::fromLatin1(name))->setEnabled(m_view->canExport(part));
    });
    exports->addAction(tr("Whole window as PNG…"), this, [this] { exportImage(std::nullopt); })
        ->setObjectName(QStringLiteral("exportWindow"));
    QAction* rankCsv = exports->addAction(tr("Rank table as CSV…"), this, &MainWindow::exportRankCsv);
    rankCsv->setObjectName(QStringLiteral("exportRank"));
    m_rank->addAction(rankCsv); // in the rank's context menu too
    auto* criticalPath = findChild<CriticalPathPanel*>();
    exports->addActions(criticalPath->exportActions());
    m_rank->addAction(criticalPath->labelAction());
    m_compare->addExportActions(exports);
    exports->addSeparator();
    m_exportScale = exports->addAction(tr("At twice the resolution (2×)"));
    m_exportScale->setObjectName(QStringLiteral("exportScale"));
    m_exportScale->setCheckable(true);
    file->addSeparator();
    addItem(file, "close", tr("&Close"), QKeySequence::Close, this, &MainWindow::closeProfile);
    addItem(file, "quit", tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    // The rank's own action, so that one Ctrl+C exists (two would cancel each other out as ambiguous).
    m_rank->copyAction()->setShortcutContext(Qt::WindowShortcut);
    edit->addAction(m_rank->copyAction());
    edit->addSeparator();
    addItem(edit, "find", tr("&Find…"), QKeySequence::Find, m_findBar, &FindBar::activate);
    addItem(edit, "findNext", tr("&Next occurrence"), QKeySequence(Qt::Key_F3), this, [this] { stepOccurrence(true); });
    addItem(edit, "findPrevious", tr("&Previous occurrence"), QKeySequence(Qt::SHIFT | Qt::Key_F3), this,
            [this] { stepOccurrence(false); });
    edit->addAction(tr("&Clear focus and search"), this, [this] {
        m_document->setFocusLabel(kNone);
        m_findBar->field()->clear();
        m_document->setSearch(QString());
        m_findBar->hide();
    });

    QMenu* view = menuBar()->addMenu(tr("&View"));
    addItem(view, "zoomAll", tr("Zoom to &all"), QKeySequence(Qt::CTRL | Qt::Key_0), m_axis, &TimeAxis::zoomToAll);
    addItem(view, "back", tr("&Back"), QKeySequence(Qt::ALT | Qt::Key_Left), m_axis, &TimeAxis::goBack);
    addItem(view, "forward", tr("&Forward"), QKeySequence(Qt::ALT | Qt::Key_Right), m_axis, &TimeAxis::goForward);
    view->addAction(tr("Clear range selection"), m_axis, &TimeAxis::clearSelection);
    view->addSeparator();
    m_aggregatedAction = view->addAction(tr("A&ggregated flame graph"));
    m_aggregatedAction->setObjectName(QStringLiteral("aggregated"));
    m_aggregatedAction->setCheckable(true);
    m_aggregatedAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_G));
    connect(m_aggregatedAction, &QAction::toggled, m_document, &ProfileDocument::setAggregated);
    connect(m_document, &ProfileDocument::viewModeChanged, this,
            [this] {
                m_aggregatedAction->setChecked(m_document->isAggregated());
                const Profile* shown = m_document->profile();
                m_aggregatedAction->setEnabled(!shown || shown->hasTimestamps());
            });
    addChoices<ColorMode>(view, tr("&Colour boxes by"),
                          {{tr("Label"), ColorMode::ByLabel}, {tr("File"), ColorMode::ByFile}, {tr("Duration"), ColorMode::ByDuration}},
                          [this] { return m_document->colorMode(); }, [this](ColorMode mode) { m_document->setColorMode(mode); });
    addChoices<TaskLaneView::Order>(view, tr("&Order tasks by"),
                                    {{tr("Creation"), TaskLaneView::Order::Creation},
                                     {tr("Exec time"), TaskLaneView::Order::Exec},
                                     {tr("Name"), TaskLaneView::Order::Name}},
                                    [this] { return lanes()->order(); }, [this](TaskLaneView::Order order) { lanes()->setOrder(order); });
    // The lanes' own context menu sets their layout too: the check follows it.
    addChoices<TaskLaneView::Layout>(view, tr("Task &lanes"),
                                     {{tr("&Automatic"), TaskLaneView::Layout::Auto},
                                      {tr("&One row per task"), TaskLaneView::Layout::PerTask},
                                      {tr("&Packed by label"), TaskLaneView::Layout::Packed}},
                                     [this] { return lanes()->layout(); },
                                     [this](TaskLaneView::Layout layout) { lanes()->setLayout(layout); }, true);
    addChoices<Theme::Mode>(view, tr("&Theme"),
                            {{tr("&System"), Theme::Mode::System, "themeSystem"},
                             {tr("&Light"), Theme::Mode::Light, "themeLight"},
                             {tr("&Dark"), Theme::Mode::Dark, "themeDark"}},
                            &Theme::current, [](Theme::Mode mode) {
                                Theme::apply(mode);
                                QSettings().setValue(Theme::settingsKey(), Theme::name(mode));
                            });
    view->addSeparator();
    view->addAction(tr("&Expand all"), icicle(), &IcicleView::expandAll);
    view->addAction(tr("Collapse to depth &1"), this, [this] { icicle()->collapseToDepth(1); });
    view->addAction(tr("Collapse to depth &3"), this, [this] { icicle()->collapseToDepth(3); });
    view->addSeparator();
    view->addActions({m_view->criticalPathAction(), m_view->clearCriticalPathAction()});
    connect(m_view, &ProfileView::message, this, [this](const QString& text) { statusBar()->showMessage(text, 8000); });
    view->addSeparator();
    for (QDockWidget* dock : findChildren<QDockWidget*>())
        view->addAction(dock->toggleViewAction());

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("Open &Demo Profile"), this, &MainWindow::openDemo);
    help->addAction(tr("&User Guide"), this, [this] { UserGuide::show(this); })->setObjectName(QStringLiteral("userGuide"));
    addItem(help, "shortcuts", tr("&Keyboard Shortcuts"), QKeySequence(Qt::Key_F1), this, [this] { ShortcutsDialog::showFor(this); });
    help->addAction(tr("&About Runlane"), this, [this] { HelpDialogs::showAbout(this); })->setObjectName(QStringLiteral("about"));
}

void MainWindow::buildStatusBar()
{
    m_statusText = new LineLabel(this);
    m_statusText->setObjectName(QStringLiteral("statusText"));
    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("loadProgress"));
    m_progress->setRange(0, 1000);
    m_progress->setMaximumWidth(220);
    m_progress->setTextVisible(true);
    m_cancel = new QPushButton(tr("Cancel"), this);
    m_cancel->setObjectName(QStringLiteral("cancelLoad"));
    connect(m_cancel, &QPushButton::clicked, m_loader, &BackgroundLoader::cancel);
    m_warningsButton = new QPushButton(this);
    m_warningsButton->setFlat(true);
    connect(m_warningsButton, &QPushButton::clicked, this, &MainWindow::showWarnings);
    auto* variants = new VariantBox(m_document, this);
    connect(variants, &VariantBox::variantRequested, this,
            [this](const QString& name) {
                openFile(m_currentPath, AddProfileController::additionsOf(m_document->profile()), name);
            });
    statusBar()->addWidget(m_statusText, 1);
    statusBar()->addPermanentWidget(variants);
    statusBar()->addPermanentWidget(m_warningsButton);
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->addPermanentWidget(m_cancel);
    m_warningsButton->hide();
    setLoading(false);
}

void MainWindow::setLoading(bool loading)
{
    m_progress->setVisible(loading);
    m_cancel->setVisible(loading);
    m_progress->setValue(0);
}

void MainWindow::openFile(const QString& path, std::vector<ProfileAddition> additions, const QString& variant)
{
    m_loadNote.clear();
    m_loadingPath = path;
    m_lastError.clear();
    setLoading(true);
    m_statusText->setText(tr("Loading %1…").arg(displayName(path)));
    m_load->started(path);
    m_loader->load(path, std::move(additions), variant);
}

void MainWindow::progress(qint64 done, qint64 total)
{
    if (total > 0)
        m_progress->setValue(int(1000 * done / total));
}

void MainWindow::loaded(const LoadedProfile& profile)
{
    setLoading(false);
    const bool refines = m_load->isShowingPreview();
    m_load->finishing(); // the user's range in the preview, kept
    showProfile(profile, refines);
    m_load->finished();
    if (!profile.path.startsWith(QLatin1Char(':')))
        m_recent->add(profile.path);
}

void MainWindow::showWarnings()
{
    // Shown and brought to the front: a tab behind the rank is not shown.
    m_warningsDock->show();
    m_warningsDock->raise();
}

void MainWindow::noticeDiagnostics(const LoadedProfile& profile)
{
    const Diagnostics& d = profile.profile->diagnostics();
    const QString name = displayName(profile.path).toHtmlEscaped();
    if (const QString cut = LoadController::cutNotice(displayName(profile.path), profile.profile.get()); !cut.isEmpty())
        m_notices->addNotice(cut, NoticeBar::Level::Warning);
    if (const std::string cut = d.firstMessage("truncated file"); !cut.empty())
        m_notices->addNotice(tr("<b>%1 is cut short</b>: %2. What came before the cut is shown.")
                                 .arg(name, QString::fromStdString(cut).toHtmlEscaped()),
                             NoticeBar::Level::Warning);
    if (d.warningCount() > 0)
        m_notices->addNotice(tr("%1 while reading %2 · <a href='warnings'>show them</a>")
                                 .arg(countText(qint64(d.warningCount()), "warning", "warnings"), name));
    if (!profile.profile->hasTimestamps())
        m_notices->addNotice(tr("%1 has no timestamps, only totals per call stack: it is shown as an aggregated "
                                "flame graph and rank, and there is no timeline.")
                                 .arg(name));
}

void MainWindow::showProfile(const LoadedProfile& profile, bool refines)
{
    m_currentPath = profile.path;
    m_notices->clearNotices();
    if (refines)
        m_document->refineProfile(profile);
    else
        m_document->setProfile(profile);
    // The whole profile after its previews keeps what the user had in
    // front (the critical path asked for during the load).
    if (!refines)
        bringRankToFront();
    if (!m_loadNote.isEmpty())
        m_notices->addNotice(m_loadNote.toHtmlEscaped());
    noticeDiagnostics(profile);
    const Profile& p = *profile.profile;
    const Diagnostics& d = p.diagnostics();
    m_warnings->showDiagnostics(d);
    m_warningsButton->setVisible(d.warningCount() > 0);
    m_warningsButton->setText(QStringLiteral("⚠ ") + countText(qint64(d.warningCount()), "warning", "warnings"));
    m_statusText->setText(tr("%1: %2, %3 intervals, %4 tasks")
                              .arg(displayName(profile.path), QString::fromLatin1(p.formatName().data()))
                              .arg(p.intervalCount())
                              .arg(lanes()->totalTaskCount())
                          + (m_loadNote.isEmpty() ? QString() : QStringLiteral(" — ") + m_loadNote));
    m_loadNote.clear();
    // The notices above the views are laid out first: the views share the height they leave.
    centralWidget()->layout()->activate();
    if (!m_rankFitted)
        fitRank(); // for the first profile: the next keeps the room the views had (and the user's sizes in it)
    m_view->fitToProfile();
    updateTitle();
    Q_EMIT profileShown();
}

void MainWindow::bringRankToFront()
{
    m_rankDock->raise();
}

void MainWindow::fitDetails()
{
    const bool empty = m_details->isEmpty() && !m_compare->removedDock()->isVisible();
    resizeDocks({m_detailsDock}, {ViewSizing::detailsWidth(empty, width(), DetailsPane::kStripWidth, DetailsPane::kWidth)}, Qt::Horizontal);
}

void MainWindow::fitRank()
{
    // The bottom dock area is as tall as its docks ask (the rank's table asks for two rows):
    // the rank gets the rows the views can spare, measured from the laid-out table.
    if (m_docksByUser || !isVisible() || !m_rankDock->isVisible() || dockWidgetArea(m_rankDock) != Qt::BottomDockWidgetArea)
        return;
    m_rankFitted = true;
    const QTableView* table = m_rank->isComparing() ? m_rank->compareView() : m_rank->view();
    ViewSizing::Dock dock;
    dock.height = m_rankDock->height();
    // The scroll bar under the columns is counted, shown or not: the columns widen to their
    // values once the rank is computed, after this.
    const QScrollBar* under = table->horizontalScrollBar();
    dock.chrome = dock.height - table->viewport()->height() + (under->isVisible() ? 0 : under->sizeHint().height());
    dock.rowHeight = table->verticalHeader()->defaultSectionSize();
    if (const Profile* p = m_document->profile())
        dock.rows = int(std::min<std::size_t>(p->labelCount(), ViewSizing::kRankRows)); // no more rows than labels
    dock.window = height();
    dock.spare = m_view->spareHeight();
    if (const int fitted = ViewSizing::rankHeight(dock); fitted != dock.height) {
        resizeDocks({m_rankDock}, {fitted}, Qt::Vertical);
        layout()->activate(); // the views sized for their new room now, not at the next layout pass
    }
}

void MainWindow::failed(const LoadError& error)
{
    setLoading(false);
    m_load->abandoned(); // a preview shown: back to what was open before
    const QString what = displayName(QString::fromStdString(error.file));
    if (error.cancelled) {
        m_statusText->setText(m_document->hasProfile()
                                  ? tr("Loading %1 cancelled; %2 is still open").arg(what, displayName(m_currentPath))
                                  : tr("Loading %1 cancelled").arg(what));
        Q_EMIT loadFailed(QString::fromStdString(error.message));
        return;
    }
    m_lastError = QString::fromStdString(error.toString());
    m_statusText->setText(tr("Could not open %1").arg(what));
    auto* box = new QMessageBox(QMessageBox::Critical, tr("Could not open %1").arg(what), m_lastError, QMessageBox::Ok, this);
    box->setInformativeText(m_document->hasProfile() ? tr("%1 is still open.").arg(displayName(m_currentPath)) : QString());
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
    Q_EMIT loadFailed(m_lastError);
}

void MainWindow::chooseAndOpen()
{
    const QString path = m_chooseOpen
        ? m_chooseOpen()
        : QFileDialog::getOpenFileName(this, tr("Open a profile"), lastFolder(),
                                       tr("Profiles (%1);;All files (*)")
                                           .arg(QString::fromStdString(FormatRegistry::fileNamePatterns())));
    if (!path.isEmpty())
        openFile(path);
}

void MainWindow::closeProfile()
{
    m_loader->cancel();
    m_notices->clearNotices();
    m_document->clear();
    m_currentPath.clear();
    m_warnings->clear();
    m_warningsButton->hide();
    m_statusText->setText(QString());
    updateTitle();
}

QString MainWindow::statusText() const
{
    return m_statusText->text();
}

void MainWindow::setStatusText(const QString& text)
{
    m_statusText->setText(text);
}

void MainWindow::showSpan()
{
    const Profile* p = m_document->profile();
    if (!p || m_loader->isLoading())
        return;
    // On the timeline the whole is the profile's span, as `runlane-cli
    // summary` gives it (a recording's first to last snapshot, live or
    // saved); the aggregated view's axis is the flame graph's width.
    const Time whole = m_document->isAggregated() ? m_axis->boundsEnd() - m_axis->boundsStart() : p->duration();
    m_spanText = tr("Showing %1 of %2")
                     .arg(QString::fromStdString(ValueFormat::text(std::min(m_axis->visibleSpan(), whole), p->unit())),
                          QString::fromStdString(ValueFormat::text(whole, p->unit())));
    m_statusText->setText(m_spanText);
}

QAction* MainWindow::action(const QString& name) const
{
    return findChild<QAction*>(name);
}

QStringList MainWindow::recentFiles() const
{
    return m_recent->files();
}

QString MainWindow::lastFolder() const
{
    return m_recent->lastFolder(m_currentPath);
}

void MainWindow::stepOccurrence(bool forward)
{
    // F3 in the open find bar steps through what it found.
    if (m_findBar->isVisible() && !m_document->searchMatches().empty()) {
        m_findBar->step(forward);
        return;
    }
    const auto labels = m_document->steppedLabels();
    if (labels.empty()) {
        m_statusText->setText(tr("Select a row of the rank or search (Ctrl+F) to step through occurrences"));
        return;
    }
    if (m_document->stepOccurrence(forward) == kNone)
        m_statusText->setText(forward ? tr("No later occurrence") : tr("No earlier occurrence"));
}

void MainWindow::exportRankCsv()
{
    const QString suggestion = QFileInfo(m_currentPath).completeBaseName() + QStringLiteral("-rank.csv");
    const QString path = m_chooseSave ? m_chooseSave(suggestion)
                                      : QFileDialog::getSaveFileName(this, tr("Export the rank as CSV"), suggestion,
                                                                     tr("CSV files (*.csv)"));
    if (path.isEmpty())
        return;
    m_rank->finishPendingWork();
    QString error;
    if (m_rank->exportCsv(path, &error))
        m_statusText->setText(tr("Saved %1 (%2)").arg(QFileInfo(path).fileName(), countText(m_rank->proxy()->rowCount(), "row", "rows")));
    else
        QMessageBox::warning(this, tr("Export failed"), tr("Could not write %1: %2").arg(path, error));
}

void MainWindow::exportImage(std::optional<ProfileView::Part> part)
{
    const QString name = part ? QString::fromLatin1(ProfileView::partName(*part)) : QStringLiteral("runlane");
    const QString suggestion = QFileInfo(m_currentPath).completeBaseName() + QLatin1Char('-') + name + QStringLiteral(".png");
    const QString path = m_chooseSave ? m_chooseSave(suggestion)
                                      : QFileDialog::getSaveFileName(this, tr("Export as PNG"), suggestion, tr("PNG images (*.png)"));
    if (path.isEmpty())
        return;
    // The screen's device pixel ratio, doubled on request.
    const qreal scale = devicePixelRatioF() * (m_exportScale->isChecked() ? 2.0 : 1.0);
    const QImage image = part ? ImageExporter::part(*m_view, *part, scale) : ImageExporter::widget(*this, scale);
    QString error;
    if (ImageExporter::savePng(image, path, &error))
        m_statusText->setText(tr("Saved %1 (%2×%3)").arg(QFileInfo(path).fileName()).arg(image.width()).arg(image.height()));
    else
        QMessageBox::warning(this, tr("Export failed"), tr("Could not write %1: %2").arg(path, error));
}

void MainWindow::updateTitle()
{
    // "trace.json + profile.cpuprofile" when files were added to it.
    const QString name = displayName(m_currentPath) + AddProfileController::titleSuffix(m_document->profile())
        + LoadController::titleSuffix(m_document->profile());
    const QString compared = m_compare->title(name);
    setWindowTitle(m_currentPath.isEmpty() ? tr("Runlane") : tr("%1 — Runlane").arg(compared.isEmpty() ? name : compared));
}

void MainWindow::setSaveFileChooser(std::function<QString(const QString&)> chooser)
{
    m_chooseSave = chooser;
    m_compare->setSaveFileChooser(std::move(chooser));
}

namespace {

QStringList localFiles(const QMimeData* data)
{
    QStringList files;
    for (const QUrl& url : data->urls()) {
        if (url.isLocalFile())
            files << url.toLocalFile();
    }
    return files;
}

} // namespace

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    // Anything dragged in gets an answer: what a drop will do (open, or
    // compare with the open profile), or why it will not open anything.
    m_drop->begin(localFiles(event->mimeData()), centralWidget()->geometry(), m_document->hasProfile(),
                  displayName(m_currentPath));
    m_drop->hover(event->position().toPoint(), event->modifiers() & Qt::ShiftModifier);
    event->acceptProposedAction();
}

void MainWindow::dragMoveEvent(QDragMoveEvent* event)
{
    m_drop->hover(event->position().toPoint(), event->modifiers() & Qt::ShiftModifier);
    event->acceptProposedAction();
}

void MainWindow::dragLeaveEvent(QDragLeaveEvent*)
{
    m_drop->end();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    const bool compare = m_drop->comparesAt(event->position().toPoint(), event->modifiers() & Qt::ShiftModifier);
    m_drop->end();
    const QStringList files = localFiles(event->mimeData());
    if (files.isEmpty()) {
        const QString what = event->mimeData()->hasUrls() ? event->mimeData()->urls().value(0).toString()
                                                          : tr("what was dropped");
        m_lastError = tr("Only files on this computer can be opened; %1 is not one.").arg(what);
        m_statusText->setText(m_lastError);
        event->ignore();
        return;
    }
    event->acceptProposedAction();
    if (compare && m_document->hasProfile()) {
        m_compare->compareWith(files); // every file dropped is a base run
        return;
    }
    // A CPU profile on a trace: add it or open it? Asked once the drop is over.
    if (files.size() == 1 && m_addProfile->takeDrop(files.first()))
        return;
    openFile(files.first());
    if (files.size() > 1) {
        // Said until the load ends, and after it in the status line.
        m_loadNote = tr("opened %1, the first of the %2 files dropped: Runlane shows one profile at a time")
                         .arg(displayName(files.first()))
                         .arg(files.size());
        m_statusText->setText(tr("Loading %1…").arg(displayName(files.first())) + QStringLiteral(" — ") + m_loadNote);
    }
}

void MainWindow::resizeEvent(QResizeEvent* event)
{
    QMainWindow::resizeEvent(event);
    // A narrower window takes the details' width first.
    if (m_detailsDock->width() > std::max(DetailsPane::kStripWidth, width() / 4))
        fitDetails();
    if (m_drop->isShown())
        m_drop->setArea(centralWidget()->geometry());
    if (m_rankFitted)
        fitRank(); // a smaller window takes the rank's rows first, down to a few
}

bool MainWindow::event(QEvent* event)
{
    // A press on the window's own area, on no child, is on a dock's separator: the drag that
    // follows makes the docks' sizes the user's, no longer fitRank's.
    if (event->type() == QEvent::MouseButtonPress && !childAt(static_cast<QMouseEvent*>(event)->position().toPoint()))
        m_docksByUser = true;
    return QMainWindow::event(event);
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    m_loader->cancel();
    QSettings settings;
    settings.setValue(QStringLiteral("geometry"), saveGeometry());
    settings.setValue(QStringLiteral("windowState"), saveState());
    if (m_view->splitterMoved())
        settings.setValue(QStringLiteral("splitter"), m_view->splitterState());
    event->accept();
}

} // namespace runlane
