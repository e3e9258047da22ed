#include "rendercommand.h"

#include "clicommands.h"
#include "clisupport.h"
#include "comparesession.h"
#include "icicleview.h"
#include "imageexporter.h"
#include "messagesview.h"
#include "mainwindow.h"
#include "profiledocument.h"
#include "profileloader.h"
#include "profileview.h"
#include "rankpanel.h"
#include "tasklaneview.h"
#include "theme.h"
#include "timeaxis.h"
#include "timeruler.h"
#include "usagechart.h"
#include "usagechartview.h"

#include <QApplication>
#include <QPainter>
#include <QSettings>

#include <algorithm>
#include <memory>
#include <ostream>

namespace runlane {

namespace {

QtMessageHandler g_previousHandler = nullptr;

// The offscreen platform's chatter ("does not support propagateSizeHints",
// "XDG_RUNTIME_DIR not set") says nothing about the rendering; scripts
// should see only real problems on stderr.
void quietQtMessages(QtMsgType type, const QMessageLogContext& context, const QString& message)
{
    if (type == QtDebugMsg || type == QtInfoMsg)
        return;
    if (type == QtWarningMsg
        && (message.contains(QLatin1String("propagateSizeHints")) || message.startsWith(QLatin1String("QStandardPaths:"))))
        return;
    g_previousHandler(type, context, message);
}

MeasurementId longestNamed(const ProfileDocument& document, const std::string& name)
{
    const Profile& p = *document.profile();
    const TimeAxis& axis = *document.axis();
    MeasurementId best = kNone;
    Time bestExec = -1;
    for (MeasurementId id = 0; id < p.measurementCount(); ++id) {
        const Measurement& m = p.measurement(id);
        if (p.labelName(m.label) != name || m.created > axis.visibleEnd() || m.finished < axis.visibleStart())
            continue;
        if (const Time exec = document.metrics()->exec(id); exec > bestExec) {
            best = id;
            bestExec = exec;
        }
    }
    return best;
}

// An image has no keyboard focus: which of the offscreen top-level widgets
// gets activated first is a race, and a focused table draws a frame round
// its current cell, so the same command gave two different PNGs.
void dropFocus(QWidget& widget)
{
    if (QWidget* focus = QApplication::focusWidget(); focus && (focus == &widget || widget.isAncestorOf(focus)))
        focus->clearFocus();
}

// Qt Charts lays a chart out in steps that post one another (the plot area
// changes, the y axis takes new ticks, which lays it out again), and the
// window's panes settle their sizes the same way. Three rounds of events
// were not always enough: on a busy machine one file's window gave two PNGs,
// the usage chart's y labels off their ticks in one. A window left idle has
// run them all; so does this.
void settleLayouts()
{
    for (int round = 0; round < 5; ++round) {
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        QApplication::processEvents();
    }
}

template<typename Finish>
QImage renderAlone(QWidget& widget, const RenderCommand::Request& request, Finish finish)
{
    widget.resize(request.size);
    widget.show();
    QApplication::processEvents();
    finish();
    QApplication::processEvents();
    dropFocus(widget);
    return ImageExporter::widget(widget, request.scale);
}

// A part of the ProfileView, drawn alone at the requested size under the ruler.
QImage drawPart(ProfileView::Part part, ProfileView& view, ProfileDocument* shown, const RenderCommand::Request& request)
{
    switch (part) {
    case ProfileView::Part::Icicle: {
        // The size asked for, the differential flame graph's key included.
        const int legend = ImageExporter::icicleLegendHeight(*view.icicle());
        const QSize size(request.size.width(), std::max(1, request.size.height() - legend));
        return ImageExporter::icicle(*view.icicle(), *view.ruler(), size, request.scale);
    }
    case ProfileView::Part::Lanes: {
        // On their own, on the view's document, as high as the image less the ruler: their
        // automatic layout (per task or packed) is chosen for the room they have in it.
        TaskLaneView lanes(shown);
        lanes.resize(request.size.width(), std::max(lanes.minimumHeight(), request.size.height() - view.ruler()->height()));
        lanes.show();
        QApplication::processEvents();
        // The selected task in view, as the lanes scroll to it when it is selected (--select).
        if (const MeasurementId selected = shown->axis()->selectedMeasurement(); selected != kNone)
            lanes.scrollToTask(selected);
        dropFocus(lanes);
        return ImageExporter::lanes(lanes, *view.ruler(), request.size, request.scale);
    }
    case ProfileView::Part::Usage: {
        // On its own, on the view's document: the ruler, the chart and
        // its whole legend in the requested size. The legend is sized for
        // top k and "other" (fewer labels leave a margin below it).
        UsageChart chart(shown);
        const int legend = ImageExporter::usageLegendHeight(chart, request.size.width(), std::size_t(chart.topK()) + 1);
        const int rest = view.ruler()->height() + legend;
        chart.resize(request.size.width(), std::max(chart.minimumHeight(), request.size.height() - rest));
        chart.show();
        QApplication::processEvents();
        // The image has its plot, not the controls above it: the plot
        // takes their height too.
        chart.resize(chart.width(), chart.height() + chart.height() - chart.view()->height());
        QApplication::processEvents();
        chart.finishPendingWork();
        QApplication::processEvents();
        QImage image = ImageExporter::usage(chart, *view.ruler(), request.scale);
        if (image.height() < request.size.height() * request.scale) {
            QImage padded(request.size * request.scale, image.format());
            padded.setDevicePixelRatio(request.scale);
            padded.fill(image.pixel(image.width() - 1, image.height() - 1));
            QPainter(&padded).drawImage(QPoint(0, 0), image);
            image = padded;
        }
        return image;
    }
    case ProfileView::Part::Counters:
        // As File ▸ Export draws them (not offered on the command line yet).
        return ImageExporter::part(view, part, request.scale);
    case ProfileView::Part::Messages: {
        // On their own, on the view's document, as high as the image less the ruler.
        MessagesView messages(shown);
        messages.resize(request.size.width(), std::max(messages.minimumHeight(), request.size.height() - view.ruler()->height()));
        messages.show();
        QApplication::processEvents();
        dropFocus(messages);
        return ImageExporter::messages(messages, *view.ruler(), request.size, request.scale);
    }
    }
    return {};
}

constexpr const char* kRenderHelp = R"HELP(Usage: runlane-cli render FILE -o OUT.png [--view V] [--size WxH] [--range A..B] [--scale N] [--aggregated] [--select NAME] [--input-format ID] [--add PROFILE [--add-thread PID:TID]]
       runlane-cli render --base A.json [A2.json ...] B.json -o OUT.png --view rank|icicle|window

Draws what the viewer shows into a PNG, offscreen (no display is needed).

  --view V       window (default), icicle, lanes, usage (the event-loop
                 usage chart), messages (between processes: poles, arrows,
                 round trips) or rank (the rank table)
  --size WxH     the window's or view's size in pixels (default 1600x1000)
  --range A..B   the visible range, from the profile start, e.g. 10ms..20ms
  --scale N      device pixels per pixel: 1 (default) or 2
  --aggregated   the aggregated flame graph instead of the timeline
  --base B       compare mode: FILE is the new run, B the base (a profile
                 or a baseline report; repeat for several base runs). The
                 rank view is the compare rank, the icicle the differential
                 flame graph (aggregated), the window shows both
  --select NAME  select the busiest measurement named NAME in the visible
                 range: its details, its creator and children highlighted
  --input-format ID
                 read FILE as this format instead of recognising it from
                 its content (the ids: 'runlane-cli formats')
)HELP";

} // namespace

int RenderCommand::fromArguments(int argc, char** argv, std::ostream& out, std::ostream& err)
{
    CliArgs args;
    const CliArgs::Spec spec
        = CliSupport::withAdditions({{"-o", "--output", "--view", "--size", "--range", "--scale", "--select", CliSupport::kInputFormatOption},
                                     {"--help", "--aggregated"},
                                     0,
                                     1,
                                     {"--base"}});
    if (const int code = CliSupport::parseArgs(args, spec, argc, argv, (std::string(kRenderHelp) + CliSupport::kAddHelp).c_str(), out, err);
        code >= 0)
        return code;
    RenderCommand::Request request;
    // "render --base A.json B.json": the list takes both; the last is the
    // new run when no other file is named.
    std::vector<std::string> bases = args.values("--base");
    std::string input;
    if (!args.positional().empty())
        input = args.positional()[0];
    else if (bases.size() >= 2) {
        input = bases.back();
        bases.pop_back();
    } else
        return CliSupport::usageError(err, "render needs a profile FILE");
    for (const std::string& base : bases)
        request.base << QString::fromLocal8Bit(base.c_str());
    request.input = QString::fromLocal8Bit(input.c_str());
    request.format = CliSupport::inputFormat(args);
    request.additions = CliSupport::additions(args);
    const auto output = args.value("-o") ? args.value("-o") : args.value("--output");
    if (!output || output->empty())
        return CliSupport::usageError(err, "render needs -o OUT.png");
    request.output = QString::fromLocal8Bit(output->c_str());
    const std::string view = args.value("--view").value_or("window");
    if (view == "rank")
        request.view = RenderCommand::Panel::Rank;
    else if (view != "window") {
        // The parts named as the viewer's exports name them (the counters are not drawn alone yet).
        const auto parts = {ProfileView::Part::Icicle, ProfileView::Part::Lanes, ProfileView::Part::Usage, ProfileView::Part::Messages};
        const auto part = std::find_if(parts.begin(), parts.end(), [&view](ProfileView::Part p) { return view == ProfileView::partName(p); });
        if (part == parts.end())
            return CliSupport::usageError(err, "unknown --view '" + view + "' (window, icicle, lanes, usage, messages, rank)");
        request.view = *part;
    }
    if (const auto size = args.value("--size")) {
        const auto x = size->find('x');
        std::size_t w = 0;
        std::size_t h = 0;
        if (x == std::string::npos || !CliSupport::parseCount(size->substr(0, x), w) || !CliSupport::parseCount(size->substr(x + 1), h) || w < 200
            || h < 120 || w > 16384 || h > 16384)
            return CliSupport::usageError(err, "bad --size '" + *size + "': give WxH, e.g. 1600x1000 (200x120 to 16384x16384)");
        request.size = QSize(int(w), int(h));
    }
    if (const auto scale = args.value("--scale")) {
        if (*scale != "1" && *scale != "2")
            return CliSupport::usageError(err, "--scale takes 1 or 2");
        request.scale = std::stod(*scale);
    }
    if (const auto range = args.value("--range")) {
        if (range->find("..") == std::string::npos)
            return CliSupport::usageError(err, "--range takes A..B, e.g. 10ms..20ms");
        request.range = *range;
    }
    request.aggregated = args.has("--aggregated");
    if (const auto select = args.value("--select"))
        request.select = *select;
    return RenderCommand::run(request, out, err);
}

int RenderCommand::run(const Request& request, std::ostream& out, std::ostream& err)
{
    g_previousHandler = qInstallMessageHandler(quietQtMessages);
    // No display is needed: draw with Qt's offscreen platform unless told otherwise.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    static int argc = 1;
    static char name[] = "runlane-cli";
    static char* argv[] = {name, nullptr};
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("Runlane"));
    QApplication::setApplicationName(QStringLiteral("runlane-cli"));

    LoadControl control;
    control.additions = request.additions;
    LoadResult result = ProfileLoader::load(request.input, control, request.format);
    if (!result.ok()) {
        err << "runlane-cli: " << result.error.toString() << "\n";
        return CliCommands::InputError;
    }
    std::optional<TimeRange> range;
    if (request.range) {
        TimeRange parsed;
        std::string error;
        if (!CliSupport::parseRange(*request.range, *result.profile, parsed, error)) {
            err << "runlane-cli: " << error << " (see --help)\n";
            return CliCommands::UsageError;
        }
        range = parsed;
    }
    // The window is drawn whole, the rank from a rank panel alone and the
    // icicle, task lanes and usage chart from a ProfileView alone, each on a
    // document of its own, so that the window's docks change none of them.
    const ProfileView::Part* part = std::get_if<ProfileView::Part>(&request.view);
    std::unique_ptr<MainWindow> window;
    std::unique_ptr<TimeAxis> axis;
    std::unique_ptr<ProfileDocument> document;
    std::unique_ptr<ProfileView> alone;
    if (request.view == View(Panel::Window)) {
        window = std::make_unique<MainWindow>();
    } else {
        // The theme before any widget, as the window does.
        Theme::apply(Theme::fromName(QSettings().value(Theme::settingsKey()).toString()));
        axis = std::make_unique<TimeAxis>();
        document = std::make_unique<ProfileDocument>(axis.get());
        if (part)
            alone = std::make_unique<ProfileView>(document.get());
    }
    ProfileDocument* shown = window ? window->document() : document.get();
    ProfileView* view = window ? window->profileView() : alone.get(); // none for the rank
    if (view) {
        QWidget& top = window ? static_cast<QWidget&>(*window) : *alone;
        // Exactly the size asked for, even below what the panes would like.
        top.setMinimumSize(1, 1);
        top.resize(request.size);
        // Shown (offscreen) first, as in the app, so that the panes have their
        // final sizes when the profile arrives.
        top.show();
        QApplication::processEvents();
    }
    LoadedProfile loaded = LoadedProfile::prepare(std::move(result.profile), request.input);
    if (window) {
        window->showProfile(loaded);
    } else {
        shown->setProfile(loaded);
        if (view)
            view->fitToProfile();
    }
    // The differential flame graph is the aggregated one.
    if (request.aggregated || (!request.base.isEmpty() && part && *part == ProfileView::Part::Icicle))
        shown->setAggregated(true);
    shown->finishPendingWork();
    if (!request.base.isEmpty()) {
        CompareSession* session = shown->compare();
        LoadError failure;
        QObject::connect(session, &CompareSession::baseFailed, [&failure](const LoadError& error) { failure = error; });
        session->loadBase(request.base);
        session->finishPendingWork();
        if (!session->isActive()) {
            err << "runlane-cli: " << failure.toString() << "\n";
            return CliCommands::InputError;
        }
    }
    if (range)
        shown->axis()->setVisibleRange(range->from, range->to);
    if (request.select) {
        const MeasurementId id = longestNamed(*shown, *request.select);
        if (id == kNone) {
            err << "runlane-cli: nothing named '" << *request.select << "' in the visible range\n";
            return CliCommands::UsageError;
        }
        const auto intervals = shown->profile()->intervalsOf(id);
        shown->axis()->selectItem(intervals.empty() ? kNone : intervals.front(), id);
    }
    QApplication::processEvents();
    if (window)
        window->rank()->finishPendingWork();
    if (view)
        view->usage()->finishPendingWork();
    QApplication::processEvents();

    QImage image;
    if (part) {
        image = drawPart(*part, *view, shown, request);
    } else if (request.view == View(Panel::Rank)) {
        RankPanel panel(shown);
        image = renderAlone(panel, request, [&panel] { panel.finishPendingWork(); });
    } else {
        dropFocus(*window);
        settleLayouts();
        image = ImageExporter::widget(*window, request.scale);
    }
    QString error;
    if (!ImageExporter::savePng(image, request.output, &error)) {
        err << "runlane-cli: cannot write " << request.output.toStdString() << ": " << error.toStdString() << "\n";
        return CliCommands::OutputError;
    }
    out << request.output.toStdString() << ": " << image.width() << "x" << image.height() << "\n";
    return CliCommands::Ok;
}

} // namespace runlane
