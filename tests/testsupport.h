#pragma once

// Small helpers shared by the tests: where the test data is, and loading a
// profile from text written inline in a test.

#include "profilebuilder.h"
#include "profileloader.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <QFile>
#include <QIODevice>

#include <algorithm>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

// JSON test input written as plain tokens: JSON([{"ph": "X"}]). The
// preprocessor turns it into the text, escaping quotes for us; moc cannot
// read raw string literals reliably, so tests use this instead.
#define JSON(...) QByteArray(#__VA_ARGS__)

namespace runlane::test {

inline QString qstr(std::string_view text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

// A thread track of process `pid` for a builder's calls.
inline TrackId addThread(ProfileBuilder& b, std::int64_t pid = 1, std::int64_t tid = 1)
{
    TrackInfo info;
    info.pid = pid;
    info.tid = tid;
    return b.addTrack(info);
}

// Labels of the intervals at one depth of track `t`, in order.
inline QStringList namesAt(const Profile& p, TrackId t, int depth)
{
    QStringList names;
    for (const Interval& iv : p.depthSlice(t, depth))
        names << qstr(p.labelName(p.measurement(iv.measurement).label));
    return names;
}

// The first measurement with this label name, kNone if there is none.
inline MeasurementId byName(const Profile& p, std::string_view name)
{
    for (MeasurementId id = 0; id < p.measurementCount(); ++id) {
        if (p.labelName(p.measurement(id).label) == name)
            return id;
    }
    return kNone;
}

// Ids as a test's rows write them: -1 for kNone.
inline QList<int> ids(const std::vector<std::uint32_t>& values)
{
    QList<int> out;
    for (const std::uint32_t v : values)
        out << (v == kNone ? -1 : int(v));
    return out;
}

// The first label with this name, kNone if there is none.
inline LabelId labelNamed(const Profile& p, std::string_view name)
{
    for (LabelId l = 0; l < p.labelCount(); ++l) {
        if (p.labelName(l) == name)
            return l;
    }
    return kNone;
}

// Writes `data` to `name` in `dir`; returns its path.
inline QString writeTemp(QTemporaryDir& dir, const QByteArray& data, const QString& name = QStringLiteral("trace.json"))
{
    const QString path = dir.filePath(name);
    QFile file(path);
    if (file.open(QIODevice::WriteOnly))
        file.write(data);
    return path;
}

// A file's bytes; empty if it cannot be read.
inline QByteArray readAll(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

inline QString dataPath(const QString& relative)
{
    return QStringLiteral(RUNLANE_TEST_DATA "/") + relative;
}

// A pipe that hands out at most `step` bytes a read: a ChunkedFileReader's
// chunks then end every `step` bytes, so that lines span chunks where a test
// wants them to; below a GzipDevice, every boundary of the compressed
// stream falls between two reads.
class TrickleDevice : public QIODevice
{
public:
    TrickleDevice(QByteArray data, qint64 step) : m_data(std::move(data)), m_step(step)
    {
        // Unbuffered: QIODevice's own buffer would gather several reads.
        open(QIODevice::ReadOnly | QIODevice::Unbuffered);
    }
    bool isSequential() const override { return true; }

protected:
    qint64 readData(char* out, qint64 max) override
    {
        const qint64 n = std::min({max, m_step, qint64(m_data.size()) - m_pos});
        std::memcpy(out, m_data.constData() + m_pos, std::size_t(n));
        m_pos += n;
        return n;
    }
    qint64 writeData(const char*, qint64) override { return -1; }

private:
    QByteArray m_data;
    qint64 m_step;
    qint64 m_pos = 0;
};

// Writes `text` to a temporary file and loads it.
inline LoadResult loadText(const QByteArray& text, const LoadControl& control = {})
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("profile.json"));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text) != text.size())
        return {};
    file.close();
    return ProfileLoader::load(path, control);
}

// A load that gives `previews` one every 4096 events read (a cadence of
// 0 ms: ProfileBuilder::kPreviewPollStride), and a last one once all is read.
inline LoadControl previewing(std::vector<std::shared_ptr<const Profile>>& previews)
{
    LoadControl control;
    control.preview = [&previews](std::shared_ptr<const Profile> p) { previews.push_back(std::move(p)); };
    control.previewFirstMs = 0;
    control.previewEveryMs = 0;
    return control;
}

// An async task as the lanes show it: "track label created-finished state
// [own intervals]", in ns (the previews' tests compare them with the
// final load's).
inline QString taskText(const Profile& p, MeasurementId id)
{
    const Measurement m = p.measurement(id);
    QStringList spans;
    for (const IntervalId i : p.intervalsOf(id))
        spans << QStringLiteral("%1-%2").arg(p.interval(i).start).arg(p.interval(i).end);
    spans.sort();
    return QStringLiteral("%1 %2 %3-%4 %5%6 [%7]")
        .arg(qstr(p.string(p.track(m.track).name)), qstr(p.labelName(m.label)))
        .arg(m.created)
        .arg(m.finished)
        .arg(qstr(finalStateName(m.finalState())), m.isBornFinished() ? QStringLiteral(" born finished") : QString(),
             spans.join(QLatin1Char(' ')));
}

// Every async task of a profile as taskText, by its track's name and
// when it was created.
inline std::map<std::pair<std::string, Time>, QString> asyncTasks(const Profile& p)
{
    std::map<std::pair<std::string, Time>, QString> tasks;
    for (MeasurementId id = 0; id < p.measurementCount(); ++id) {
        const Measurement m = p.measurement(id);
        if (m.isAsync())
            tasks[{std::string(p.string(p.track(m.track).name)), m.created}] = taskText(p, id);
    }
    return tasks;
}

inline std::vector<QString> taskTexts(const std::map<std::pair<std::string, Time>, QString>& tasks)
{
    std::vector<QString> texts;
    for (const auto& [key, text] : tasks)
        texts.push_back(text);
    return texts;
}

// `count` calls of "work", `each` long, one after the other from 0 on one
// thread; `partial` says what part of its file the profile is (a preview,
// a load stopped and kept: the progressive loading's tests).
inline std::shared_ptr<const Profile> sequentialCalls(int count, Time each, std::optional<PartialLoad> partial = std::nullopt)
{
    ProfileBuilder b("Chrome trace", "big.json");
    TrackInfo info;
    info.pid = 1;
    info.tid = 1;
    const TrackId t = b.addTrack(info);
    const LabelId label = b.label("work");
    for (int i = 0; i < count; ++i)
        b.addCall(t, label, Time(i) * each, Time(i + 1) * each, std::uint32_t(i));
    if (partial)
        b.setPartial(*partial);
    return b.build();
}

} // namespace runlane::test
