#include "comparecontroller.h"

#include "comparemodel.h"
#include "compareusagechart.h"
#include "comparesession.h"
#include "compareformatter.h"
#include "formatregistry.h"
#include "mainwindow.h"
#include "profiledocument.h"
#include "rankpanel.h"
#include "removedpathspanel.h"

#include <QAction>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QMainWindow>
#include <QMenu>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSaveFile>
#include <QStatusBar>

namespace runlane {

CompareController::CompareController(QMainWindow* window, ProfileDocument* document, RankPanel* rank)
    : QObject(window), m_window(window), m_document(document), m_rank(rank), m_removed(new RemovedPathsPanel(document, window)),
      m_removedDock(new QDockWidget(tr("Removed paths"), window)), m_usage(new CompareUsageChart(document, window)),
      m_usageDock(new QDockWidget(tr("Usage: base vs new"), window)), m_progress(new QProgressBar(window)),
      m_cancel(new QPushButton(tr("Cancel"), window))
{
    m_removedDock->setObjectName(QStringLiteral("removedPathsDock"));
    m_removedDock->setWidget(m_removed);
    window->addDockWidget(Qt::RightDockWidgetArea, m_removedDock);
    m_removedDock->hide(); // shown in compare mode
    m_usageDock->setObjectName(QStringLiteral("compareUsageDock"));
    m_usageDock->setWidget(m_usage);
    window->addDockWidget(Qt::BottomDockWidgetArea, m_usageDock);
    m_usageDock->hide();

    m_progress->setRange(0, 1000);
    m_progress->setMaximumWidth(220);
    m_progress->setFormat(tr("base %p%"));
    window->statusBar()->addPermanentWidget(m_progress);
    window->statusBar()->addPermanentWidget(m_cancel);
    m_progress->hide();
    m_cancel->hide();

    CompareSession* session = document->compare();
    connect(m_cancel, &QPushButton::clicked, session, &CompareSession::cancelLoad);
    connect(session, &CompareSession::loadProgress, this, [this](qint64 done, qint64 total) {
        if (total > 0)
            m_progress->setValue(int(1000 * done / total));
    });
    connect(session, &CompareSession::baseFailed, this, &CompareController::baseFailed);
    connect(session, &CompareSession::baseChanged, this, [this] {
        const bool active = m_document->compare()->isActive();
        m_removedDock->setVisible(active);
        m_usageDock->setVisible(active);
        if (active)
            m_removedDock->raise();
        update();
        Q_EMIT titleChanged();
    });
    connect(session, &CompareSession::comparisonChanged, this, &CompareController::update);
    // The rank's rows are reset for another metric and for each comparison
    // (its second pass too): the counts follow what it shows.
    connect(m_rank->compareModel(), &QAbstractItemModel::modelReset, this, &CompareController::update);
    connect(session, &CompareSession::baseLoaded, this, [this] {
        m_progress->hide();
        m_cancel->hide();
    });
}

void CompareController::addFileActions(QMenu* file)
{
    m_compareAction = file->addAction(tr("Compare &with…"), this, &CompareController::chooseAndCompare);
    m_compareAction->setObjectName(QStringLiteral("compareWith"));
    m_compareAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    m_compareAction->setToolTip(tr("Open one or more base runs and compare the open profile (new) against them"));
    m_stopAction = file->addAction(tr("&Stop comparing"), m_document->compare(), &CompareSession::stop);
    m_stopAction->setObjectName(QStringLiteral("stopComparing"));
    update();
}

void CompareController::addExportActions(QMenu* exports)
{
    m_markdownAction = exports->addAction(tr("Compare report as Markdown…"), this, &CompareController::exportMarkdown);
    m_markdownAction->setObjectName(QStringLiteral("exportCompareMarkdown"));
    update();
}

void CompareController::chooseAndCompare()
{
    if (!m_document->hasProfile())
        return;
    const QStringList paths = m_chooseOpen
        ? m_chooseOpen()
        : QFileDialog::getOpenFileNames(m_window, tr("Compare with: choose the base run(s) or a baseline report"),
                                        QFileInfo(m_document->loaded().path).absolutePath(),
                                        tr("Profiles and baseline reports (%1);;All files (*)")
                                            .arg(QString::fromStdString(FormatRegistry::fileNamePatterns())));
    if (!paths.isEmpty())
        compareWith(paths);
}

void CompareController::compareWith(const QStringList& paths)
{
    if (!m_document->hasProfile() || paths.isEmpty())
        return;
    m_lastError.clear();
    m_progress->setValue(0);
    m_progress->show();
    m_cancel->show();
    m_document->compare()->loadBase(paths);
    update();
    Q_EMIT status(tr("Loading the base: %1…").arg(MainWindow::displayName(paths.first())));
}

void CompareController::baseFailed(const LoadError& error)
{
    m_progress->hide();
    m_cancel->hide();
    if (m_stopAction)
        m_stopAction->setEnabled(m_document->compare()->isActive());
    const QString what = MainWindow::displayName(QString::fromStdString(error.file));
    const QString still = m_document->compare()->isActive() ? tr("The comparison with %1 is as it was.").arg(m_document->compare()->baseName())
                                                            : QString();
    if (error.cancelled) {
        Q_EMIT status(tr("Loading the base %1 cancelled. %2").arg(what, still));
        return;
    }
    m_lastError = QString::fromStdString(error.toString());
    Q_EMIT status(tr("Could not compare with %1").arg(what));
    auto* box = new QMessageBox(QMessageBox::Critical, tr("Could not compare with %1").arg(what), m_lastError, QMessageBox::Ok,
                                m_window);
    box->setInformativeText(still);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

QString CompareController::summary() const
{
    const CompareSession* session = m_document->compare();
    if (!session->comparison())
        return tr("Comparing with the base %1…").arg(session->baseName());
    // The verdicts of the metric the rank shows, as its banner counts
    // them: exec's beside a rank of wall would contradict its rows.
    const CompareModel* model = m_rank->compareModel();
    const QString metric = QString::fromLatin1(CompareMetrics::name(model->metric()).data());
    const QString names = tr("New: %1 · base: %2").arg(MainWindow::displayName(m_document->loaded().path), session->baseName());
    const Comparison* c = model->shown();
    if (!c) // a metric of the second pass, not computed yet
        return tr("%1 · %2: computing…").arg(names, metric);
    using V = Comparison::Verdict;
    return tr("%1 · %2: %3 regressed, %4 improved, %5 inconclusive, %6 unchanged, %7 added, %8 removed")
        .arg(names, metric)
        .arg(c->count(V::Regressed))
        .arg(c->count(V::Improved))
        .arg(c->count(V::Inconclusive))
        .arg(c->count(V::Unchanged))
        .arg(c->count(V::Added))
        .arg(c->count(V::Removed));
}

void CompareController::update()
{
    const CompareSession* session = m_document->compare();
    if (m_stopAction) // also while the base loads: it cancels that load
        m_stopAction->setEnabled(session->isActive() || session->isLoading());
    if (m_markdownAction)
        m_markdownAction->setEnabled(session->comparison() != nullptr);
    if (session->isActive())
        Q_EMIT status(summary());
}

QString CompareController::title(const QString& openName) const
{
    const CompareSession* session = m_document->compare();
    if (!session->isActive())
        return {};
    return tr("%1 (new) vs %2 (base)").arg(openName, session->baseName());
}

void CompareController::exportMarkdown()
{
    // What the rank shows: the chosen metric's comparison (none while that
    // metric is still being computed).
    const Comparison* c = m_rank->compareModel()->shown();
    if (!c) {
        Q_EMIT status(tr("The comparison is still being computed"));
        return;
    }
    const QString suggestion = QFileInfo(m_document->loaded().path).completeBaseName() + QStringLiteral("-compare.md");
    const QString path = m_chooseSave ? m_chooseSave(suggestion)
                                      : QFileDialog::getSaveFileName(m_window, tr("Export the compare report"), suggestion,
                                                                     tr("Markdown (*.md)"));
    if (path.isEmpty())
        return;
    // The metric the rank shows, as a pull request would read it.
    const std::string text = CompareFormatter::markdown(*c);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text.data(), qint64(text.size())) != qint64(text.size())
        || !file.commit()) {
        QMessageBox::warning(m_window, tr("Export failed"), tr("Could not write %1: %2").arg(path, file.errorString()));
        return;
    }
    Q_EMIT status(tr("Saved %1").arg(QFileInfo(path).fileName()));
}

} // namespace runlane
