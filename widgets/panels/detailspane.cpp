#include "detailspane.h"

#include "colorscheme.h"
#include "counttext.h"
#include "framesdetails.h"
#include "icicleview.h"
#include "messagesstate.h"
#include "messagesview.h"
#include "profiledocument.h"
#include "schedulingdelays.h"
#include "timeaxis.h"
#include "valueformat.h"

#include <QEvent>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QUrl>

#include <algorithm>
#include <numeric>
#include <utility>

namespace runlane {

namespace {

QString esc(const std::string& text)
{
    return QString::fromStdString(text).toHtmlEscaped();
}

// Secondary text in the theme's muted colour, named when the HTML is made:
// a theme change makes it anew (changeEvent).
QString muted()
{
    return ColorScheme::mutedText().name();
}

QString row(const QString& key, const QString& value)
{
    return QStringLiteral("<tr><td style='color:%3; padding-right:10px'>%1</td><td>%2</td></tr>").arg(key, value, muted());
}

// A mark's details or a measurement's args under their title. A payload is
// any JSON value (Enso's RpcEvent is a bare string): read inside an array,
// shown indented when it is an object or an array, as written otherwise
// (and when it is no JSON at all).
QString jsonBlock(const QString& title, std::string_view json)
{
    const QByteArray text = QByteArray("[") + QByteArray(json.data(), qsizetype(json.size())) + "]";
    QJsonParseError error{};
    const QJsonDocument document = QJsonDocument::fromJson(text, &error);
    QString shown = QString::fromUtf8(json.data(), qsizetype(json.size()));
    if (error.error == QJsonParseError::NoError && document.array().size() == 1) {
        const QJsonValue value = document.array().first();
        if (value.isObject())
            shown = QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Indented)).trimmed();
        else if (value.isArray())
            shown = QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Indented)).trimmed();
    }
    return QStringLiteral("<p><b>%1</b></p><pre style='white-space:pre-wrap'>%2</pre>").arg(title, shown.toHtmlEscaped());
}

} // namespace

DetailsPane::DetailsPane(ProfileDocument* document, QWidget* parent)
    : QTextBrowser(parent), m_document(document), m_axis(document->axis())
{
    setOpenLinks(false);
    // Narrow while nothing is selected: the window gives the rest to the timeline (issue 46).
    setMinimumWidth(kStripWidth);
    connect(this, &QTextBrowser::anchorClicked, this, &DetailsPane::linkClicked);
    connect(m_axis, &TimeAxis::selectedItemChanged, this, &DetailsPane::refresh);
    connect(m_document, &ProfileDocument::profileChanged, this, [this] {
        m_frames = m_document->loaded().frames ? m_document->loaded().frames : std::make_shared<const FrameSeries>();
    });
    connect(m_document, &ProfileDocument::profileChanged, this, &DetailsPane::refresh);
    for (auto changed : {&TimeAxis::visibleRangeChanged, &TimeAxis::selectionChanged}) {
        connect(m_axis, changed, this, [this] {
            if (!m_frames->empty())
                refresh();
        });
    }
    connect(m_document->messages(), &MessagesState::selectionChanged, this, &DetailsPane::refresh);
    refresh();
}

void DetailsPane::changeEvent(QEvent* event)
{
    QTextBrowser::changeEvent(event);
    if (event->type() == QEvent::PaletteChange && !m_showsNode)
        refresh();
}

void DetailsPane::refresh()
{
    m_showsNode = false;
    const Profile* p = m_document->profile();
    if (const std::uint32_t message = m_document->messages()->selected(); p && message != kNone) {
        showHtml(messageHtml(*p, message));
        setEmpty(false);
        return;
    }
    if (p && m_axis->selectedMark() < p->marks().size()) {
        showHtml(markHtml(*p, m_axis->selectedMark()));
        setEmpty(false);
        return;
    }
    const MeasurementId id = m_axis->selectedMeasurement();
    if (p && id == kNone && !m_document->leftOutSelection().isEmpty()) {
        // A load's next preview left the selected box out (ProfileDocument::refineProfile).
        showHtml(QStringLiteral("<p style='color:%1'>%2</p>")
                     .arg(muted(), tr("<b>%1</b>, selected, is not in this preview of the file%2: it is selected again "
                                      "when a version that has it arrives, the whole profile at the latest.")
                                       .arg(m_document->leftOutSelection().toHtmlEscaped(), m_document->previewKeeps())));
        setEmpty(false);
        return;
    }
    if (!p || id == kNone || id >= p->measurementCount()) {
        showHtml(QStringLiteral("<p style='color:%1'>%2</p>").arg(muted(), tr("Select a box or a task to see its details.")));
        setEmpty(m_frames->empty() || m_document->isAggregated()); // the frames' statistics need the room
        return;
    }
    const Measurement& m = p->measurement(id);
    const MeasurementMetrics& metrics = *m_document->metrics();
    const ValueUnit unit = p->unit();
    auto value = [unit](Time t) { return QString::fromStdString(ValueFormat::text(t, unit)); };
    auto at = [&](Time t) { return QString::fromStdString(ValueFormat::point(t - p->startTime(), unit)); };
    const Label& label = p->label(m.label);
    QString html = QStringLiteral("<h3 style='margin-bottom:2px'>%1</h3>").arg(esc(std::string(p->string(label.name))));
    if (label.file != kEmptyString)
        html += QStringLiteral("<div style='color:%3'>%1%2</div>")
                    .arg(esc(std::string(p->string(label.file))),
                         label.line > 0 ? QStringLiteral(":%1").arg(label.line) : QString(), muted());
    html += QStringLiteral("<table style='margin-top:6px'>");
    html += row(tr("track"), esc(std::string(p->string(p->track(m.track).name))));
    html += row(tr("state"), QString::fromLatin1(finalStateName(m.finalState()).data())
                                 + (m.isAsync() ? tr(", async task") : QString())
                                 + (m.isBornFinished() ? tr(", stillborn") : QString()));
    html += row(tr("created"), at(m.created));
    html += row(tr("finished"), m.finalState() == FinalState::Unfinished ? tr("not by the end") : at(m.finished));
    html += row(tr("wall"), value(m.finished - m.created));
    html += row(tr("exec"), value(metrics.exec(id)));
    html += row(tr("total"), value(metrics.total(id)) + tr(" (with what it created)"));
    if (const auto wakes = p->wakesOf(id); !wakes.empty()) {
        // tokio wakers: the wait from a wake to the next poll (docs/formats.md);
        // Chronos: wakes inferred from the ends of the futures it created.
        const auto selfWakes = std::count_if(wakes.begin(), wakes.end(), [](const Wake& w) { return w.isSelfWake(); });
        if (wakes.front().isInferred())
            html += row(tr("wakes"), tr("%1 (a future it created ended while it was paused)").arg(wakes.size()));
        else
            html += row(tr("wakes"), tr("%1 (%2 self-wakes)").arg(wakes.size()).arg(selfWakes));
        std::vector<Time> delays = SchedulingDelays::delaysOf(*p, id);
        if (!delays.empty()) {
            const Time sum = std::accumulate(delays.begin(), delays.end(), Time(0));
            const Time max = *std::max_element(delays.begin(), delays.end());
            html += row(tr("sched. delay"), tr("%1 over %2 polls, max %3").arg(value(sum)).arg(delays.size()).arg(value(max)));
        }
    }
    html += QStringLiteral("</table>");
    const auto intervals = p->intervalsOf(id);
    html += QStringLiteral("<p><b>%1</b><br>").arg(countText(qint64(intervals.size()), "active interval", "active intervals"));
    for (std::size_t k = 0; k < intervals.size() && k < 12; ++k) {
        const Interval& iv = p->interval(intervals[k]);
        html += QStringLiteral("[%1, %2) %3<br>").arg(at(iv.start), at(iv.end), value(iv.end - iv.start));
    }
    if (intervals.size() > 12)
        html += tr("… and %1 more").arg(intervals.size() - 12);
    html += QStringLiteral("</p>");
    if (m.creator != kNone)
        html += QStringLiteral("<p><b>%1</b> <a href='m:%2'>%3</a></p>")
                    .arg(tr("created by"))
                    .arg(m.creator)
                    .arg(esc(p->labelText(p->measurement(m.creator).label)));
    else if (m.flags & CreatorUnknown)
        html += QStringLiteral("<p><b>%1</b> %2</p>")
                    .arg(tr("created by"), tr("unknown (%1)").arg(QString::fromStdString(p->creatorUnknownReason())));
    // A second kind of link (Node's triggerAsyncId): whose work led to this
    // task, when that is not its creator.
    if (const MeasurementId trigger = p->triggeredBy(id); trigger != kNone)
        html += QStringLiteral("<p><b>%1</b> <a href='m:%2'>%3</a></p>")
                    .arg(tr("triggered by"))
                    .arg(trigger)
                    .arg(esc(p->labelText(p->measurement(trigger).label)));
    int triggered = 0;
    QString triggeredList;
    for (const Profile::Trigger& t : p->triggers()) {
        if (t.triggeredBy == id && ++triggered <= 20)
            triggeredList += QStringLiteral("<a href='m:%1'>%2</a><br>")
                                 .arg(t.measurement)
                                 .arg(esc(std::string(p->labelName(p->measurement(t.measurement).label))));
    }
    if (triggered > 0) {
        html += QStringLiteral("<p><b>%1</b><br>%2").arg(tr("triggered %1").arg(triggered), triggeredList);
        if (triggered > 20)
            html += tr("… and %1 more").arg(triggered - 20);
        html += QStringLiteral("</p>");
    }
    const std::vector<MeasurementId> created = p->createdBy(id);
    const std::size_t children = created.size();
    QString list;
    for (std::size_t k = 0; k < children && k < 20; ++k)
        list += QStringLiteral("<a href='m:%1'>%2</a><br>").arg(created[k]).arg(esc(std::string(p->labelName(p->labelOf(created[k])))));
    if (children > 0) {
        html += QStringLiteral("<p><b>%1</b><br>%2").arg(tr("created %1").arg(children), list);
        if (children > 20)
            html += tr("… and %1 more").arg(children - 20);
        html += QStringLiteral("</p>");
    }
    html += flowLinks(*p, m_axis->selectedInterval());
    // What the file says of it beyond times and names (a Perfetto slice's
    // debug annotations).
    if (const StringId args = p->argsOf(id); args != kEmptyString)
        html += jsonBlock(tr("args"), p->string(args));
    showHtml(html);
    setEmpty(false);
}

// The flows into and out of the selected interval: who caused it, what it
// caused (usually on other threads), each a link that shows that interval.
QString DetailsPane::flowLinks(const Profile& p, IntervalId selected) const
{
    if (selected == kNone || selected >= p.intervalCount())
        return {};
    constexpr std::size_t kShown = 20;
    auto link = [&p](IntervalId id, StringId flowName) {
        const Interval& iv = p.interval(id);
        QString text = QStringLiteral("<a href='i:%1'>%2</a> <span style='color:%3'>%4, %5")
                           .arg(id)
                           .arg(esc(std::string(p.labelName(p.measurement(iv.measurement).label))), muted(),
                                esc(std::string(p.string(p.track(p.trackOf(id)).name))),
                                QString::fromStdString(ValueFormat::point(iv.start - p.startTime(), p.unit())));
        if (flowName != kEmptyString)
            text += QStringLiteral(" (%1)").arg(esc(std::string(p.string(flowName))));
        return text + QStringLiteral("</span><br>");
    };
    QString html;
    const auto in = p.flowsInto(selected);
    if (!in.empty()) {
        html += QStringLiteral("<p><b>%1</b><br>").arg(tr("Caused by:"));
        for (std::size_t k = 0; k < in.size() && k < kShown; ++k)
            html += link(p.flows()[in[k]].from, p.flows()[in[k]].name);
        if (in.size() > kShown)
            html += tr("… and %1 more").arg(in.size() - kShown);
        html += QStringLiteral("</p>");
    }
    const auto out = p.flowsOutOf(selected);
    if (!out.empty()) {
        html += QStringLiteral("<p><b>%1</b><br>").arg(tr("Causes:"));
        for (std::size_t k = 0; k < out.size() && k < kShown; ++k)
            html += link(out[k].to, out[k].name);
        if (out.size() > kShown)
            html += tr("… and %1 more").arg(out.size() - kShown);
        html += QStringLiteral("</p>");
    }
    return html;
}

QString DetailsPane::markHtml(const Profile& p, std::uint32_t index) const
{
    const Mark& mark = p.marks()[index];
    QString html = QStringLiteral("<h3 style='margin-bottom:2px'>%1</h3>").arg(esc(std::string(p.string(mark.name))));
    html += QStringLiteral("<table style='margin-top:6px'>");
    html += row(tr("mark at"), QString::fromStdString(ValueFormat::point(mark.time - p.startTime(), p.unit())));
    QString process = tr("process %1").arg(mark.pid);
    for (const Track& t : p.tracks()) {
        if (t.pid == mark.pid && t.processName != kEmptyString) {
            process = esc(std::string(p.string(t.processName)));
            break;
        }
    }
    html += row(tr("process"), process);
    if (mark.scope == MarkScope::Thread && mark.track < p.trackCount())
        html += row(tr("track"), esc(std::string(p.string(p.track(mark.track).name))));
    else
        html += row(tr("scope"), mark.scope == MarkScope::Global ? tr("global") : tr("the whole process"));
    html += QStringLiteral("</table>");
    if (const std::string_view detail = p.string(mark.detail); !detail.empty())
        html += jsonBlock(tr("details"), detail);
    return html;
}

QString DetailsPane::messageHtml(const Profile& profile, std::uint32_t message) const
{
    // As the Messages view's tooltip says it, then the mark it was read from, if any.
    const ProcessMessages& messages = m_document->messages()->messages();
    QStringList lines = MessagesView::describe(profile, messages, message).toHtmlEscaped().split(QLatin1Char('\n'));
    QString html = QStringLiteral("<h3 style='margin-bottom:2px'>%1</h3><p>%2</p>").arg(lines.takeFirst(), lines.join(QStringLiteral("<br>")));
    if (const std::uint32_t mark = messages.messages()[message].mark; mark < profile.marks().size())
        html += markHtml(profile, mark);
    return html;
}

void DetailsPane::showAggregatedNode(const IcicleView* view, std::uint32_t span)
{
    if (!view->source() || span == kNone) {
        refresh();
        return;
    }
    const QString text = QString::fromStdString(view->source()->describe(span)).toHtmlEscaped();
    QStringList lines = text.split(QLatin1Char('\n'));
    const QString title = lines.takeFirst();
    showHtml(QStringLiteral("<h3>%1</h3><p>%2</p>").arg(title, lines.join(QStringLiteral("<br>"))));
    m_showsNode = true;
    setEmpty(false);
}

void DetailsPane::linkClicked(const QUrl& url)
{
    const QString target = url.toString();
    if (target.startsWith(QStringLiteral("i:")) && m_document->profile()) {
        // A flow's other end: the document selects it and every view shows it.
        m_document->revealInterval(target.mid(2).toUInt());
        return;
    }
    if (!target.startsWith(QStringLiteral("m:")) || !m_document->profile())
        return;
    const MeasurementId id = target.mid(2).toUInt();
    if (id >= m_document->profile()->measurementCount())
        return;
    const auto intervals = m_document->profile()->intervalsOf(id);
    m_axis->selectItem(intervals.empty() ? kNone : intervals.front(), id);
}

void DetailsPane::setEmpty(bool empty)
{
    if (std::exchange(m_empty, empty) != empty)
        Q_EMIT emptyChanged(empty);
}

void DetailsPane::showHtml(const QString& html)
{
    // A live recording's every snapshot refreshes the pane: the same text
    // is not laid out again.
    QString shown = html;
    if (!m_frames->empty() && !m_document->isAggregated()) {
        const auto& range = m_axis->selection();
        shown += range ? FramesDetails::html(*m_frames, range->first, range->second, true)
                       : FramesDetails::html(*m_frames, m_axis->visibleStart(), m_axis->visibleEnd(), false);
    }
    if (shown == m_html)
        return;
    m_html = shown;
    setHtml(shown);
}

} // namespace runlane
