#include "framesdetails.h"

#include "colorscheme.h"

namespace runlane {

QString FramesDetails::html(const FrameSeries& frames, Time from, Time to, bool selection)
{
    const FrameSeries::Summary s = frames.summary(from, to);
    const QString muted = ColorScheme::mutedText().name();
    auto row = [&](const QString& key, const QString& value) {
        return QStringLiteral("<tr><td style='color:%3; padding-right:10px'>%1</td><td>%2</td></tr>").arg(key, value, muted);
    };
    auto number = [](double v) { return QString::number(v, 'f', 3); };
    QString html = QStringLiteral("<h4 style='margin-bottom:2px'>%1</h4>")
                       .arg(selection ? tr("Frames in the selection") : tr("Frames in view"));
    html += QStringLiteral("<table>");
    html += row(tr("frames"), QStringLiteral("%1 (%2)").arg(s.frames).arg(QString::fromLatin1(FrameSeries::sourceName(frames.source()))));
    if (s.frames > 0) {
        html += row(tr("fps"), tr("%1 min, %2 average, %3 max").arg(number(s.minFps), number(s.averageFps), number(s.maxFps)));
        html += row(tr("frame time"), tr("p50 %1, p90 %2, p99 %3 ms").arg(number(s.p50), number(s.p90), number(s.p99)));
        html += row(tr("janky"), tr("%1 over 16.7 ms, %2 over 33.3 ms").arg(s.janky).arg(s.severeJanky));
        html += row(tr("quality"), tr("%1 good, %2 medium, %3 bad").arg(s.good).arg(s.medium).arg(s.bad));
    }
    return html + QStringLiteral("</table>");
}

} // namespace runlane
