#pragma once

// A second, independent reading of a Perfetto trace for the sample tests:
// its own varint and field walk over the bytes (not ProtoWireReader, not
// the reader under test), counting what the reader should build from the
// track events: slice begins, instants and counter values, the tracks they
// land on (thread tracks by pid and tid; counter tracks apart), the flows
// (each further use of a flow id links two slices), and the packets by
// their data field; and Runlane's own task notes (debug annotations
// "runlane.*", names inline or interned): the tasks by id with their
// slices and facts, the wakes. Uncompressed traces only, which the samples
// are.

#include <QByteArray>

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace runlane::test::perfetto {

// A task as Runlane's notes describe it.
struct NotedTask {
    int slices = 0; // slices carrying its id
    int instants = 0; // an instant at its creation (a task that never ran)
    int described = 0; // events carrying its creation, end and state
    std::int64_t created = 0;
    std::int64_t finished = 0;
    std::string state;
    std::uint64_t creator = 0;
    std::uint64_t flags = 0;
};

struct SampleCounts {
    int slices = 0;
    int instants = 0; // not counting Runlane's task and wake instants
    int counterValues = 0;
    int flows = 0;
    std::size_t threadTracks = 0;
    std::size_t otherTracks = 0; // async tracks with events
    std::size_t counterTracks = 0; // counter tracks with values
    std::map<std::uint32_t, int> packets; // by data field number
    int descriptors = 0;
    std::map<std::uint64_t, NotedTask> tasks; // by task id
    std::map<std::uint64_t, int> wakes; // by the woken task's id
};

class SampleCounter
{
public:
    static SampleCounts count(const QByteArray& bytes)
    {
        SampleCounter c;
        c.trace(bytes);
        SampleCounts out = c.m_counts;
        std::set<std::pair<std::uint64_t, std::uint64_t>> threads;
        std::set<std::uint64_t> others;
        std::set<std::uint64_t> counters;
        for (const std::uint64_t uuid : c.m_used) {
            const auto t = c.m_threads.find(uuid);
            if (t != c.m_threads.end())
                threads.insert(t->second);
            else if (c.m_counters.count(uuid))
                counters.insert(uuid);
            else
                others.insert(uuid);
        }
        out.threadTracks = threads.size();
        out.otherTracks = others.size();
        out.counterTracks = counters.size();
        for (const auto& [id, uses] : c.m_flowUses)
            out.flows += uses - 1;
        return out;
    }

private:
    struct Field {
        std::uint32_t number = 0;
        int type = 0;
        std::uint64_t value = 0;
        QByteArray bytes;
    };
    // Walks a message; false on anything it cannot read.
    template <class Each>
    static bool walk(const QByteArray& m, Each each)
    {
        qsizetype i = 0;
        auto varint = [&](std::uint64_t& v) {
            v = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                if (i >= m.size())
                    return false;
                const auto b = static_cast<unsigned char>(m[i++]);
                v |= std::uint64_t(b & 0x7f) << shift;
                if (!(b & 0x80))
                    return true;
            }
            return false;
        };
        while (i < m.size()) {
            Field f;
            std::uint64_t tag = 0;
            if (!varint(tag))
                return false;
            f.number = std::uint32_t(tag >> 3);
            f.type = int(tag & 7);
            if (f.type == 0) {
                if (!varint(f.value))
                    return false;
            } else if (f.type == 1 || f.type == 5) {
                const int n = f.type == 1 ? 8 : 4;
                if (m.size() - i < n)
                    return false;
                for (int b = 0; b < n; ++b)
                    f.value |= std::uint64_t(static_cast<unsigned char>(m[i + b])) << (8 * b);
                i += n;
            } else if (f.type == 2) {
                std::uint64_t n = 0;
                if (!varint(n) || n > std::uint64_t(m.size() - i))
                    return false;
                f.bytes = m.mid(i, qsizetype(n));
                i += qsizetype(n);
            } else {
                return false;
            }
            each(f);
        }
        return i == m.size();
    }

    void trace(const QByteArray& bytes)
    {
        walk(bytes, [&](const Field& f) {
            if (f.number == 1 && f.type == 2)
                packet(f.bytes);
        });
    }

    // The sequence (10), its reset (13, flag 1) and default track (59 >
    // 11 > 11) first, whatever the order of the fields; then the data.
    void packet(const QByteArray& p)
    {
        std::vector<Field> fields;
        walk(p, [&](const Field& f) { fields.push_back(f); });
        std::uint64_t sequence = 0;
        for (const Field& f : fields) {
            if (f.number == 10)
                sequence = f.value;
        }
        for (const Field& f : fields) {
            if (f.number == 13 && (f.value & 1)) {
                m_defaultTrack.erase(sequence);
                m_annotationNames.erase(sequence);
            }
        }
        for (const Field& f : fields) {
            if (f.number != 12)
                continue;
            walk(f.bytes, [&](const Field& interned) {
                if (interned.number != 3) // debug_annotation_names
                    return;
                std::uint64_t iid = 0;
                QByteArray name;
                walk(interned.bytes, [&](const Field& n) {
                    if (n.number == 1)
                        iid = n.value;
                    if (n.number == 2)
                        name = n.bytes;
                });
                m_annotationNames[sequence][iid] = name.toStdString();
            });
        }
        for (const Field& f : fields) {
            if (f.number != 59)
                continue;
            walk(f.bytes, [&](const Field& d) {
                if (d.number == 11)
                    walk(d.bytes, [&](const Field& e) {
                        if (e.number == 11)
                            m_defaultTrack[sequence] = e.value;
                    });
            });
        }
        for (const Field& f : fields) {
            if (f.type != 2 || f.number == 12 || f.number == 59)
                continue;
            ++m_counts.packets[f.number];
            if (f.number == 60)
                descriptor(f.bytes);
            else if (f.number == 11)
                trackEvent(f.bytes, m_defaultTrack.count(sequence) ? m_defaultTrack[sequence] : 0,
                           m_annotationNames[sequence]);
        }
    }

    void descriptor(const QByteArray& d)
    {
        ++m_counts.descriptors;
        std::uint64_t uuid = 0;
        bool thread = false;
        bool counter = false;
        std::pair<std::uint64_t, std::uint64_t> pidTid;
        walk(d, [&](const Field& f) {
            if (f.number == 1)
                uuid = f.value;
            if (f.number == 8)
                counter = true;
            if (f.number == 4) {
                thread = true;
                walk(f.bytes, [&](const Field& t) {
                    if (t.number == 1)
                        pidTid.first = t.value;
                    if (t.number == 2)
                        pidTid.second = t.value;
                });
            }
        });
        if (thread)
            m_threads[uuid] = pidTid;
        if (counter)
            m_counters.insert(uuid);
    }

    void trackEvent(const QByteArray& e, std::uint64_t defaultTrack, const std::map<std::uint64_t, std::string>& names)
    {
        std::uint64_t type = 0;
        std::uint64_t track = defaultTrack;
        std::map<std::string, std::pair<std::uint64_t, std::string>> notes; // "runlane.*": number, text
        walk(e, [&](const Field& f) {
            if (f.number == 9)
                type = f.value;
            if (f.number == 11)
                track = f.value;
            if (f.number == 47 || f.number == 48) // fixed64 flow ids, not packed
                ++m_flowUses[f.value];
            if (f.number != 4) // debug_annotations
                return;
            std::string name;
            std::pair<std::uint64_t, std::string> value;
            walk(f.bytes, [&](const Field& a) {
                if (a.number == 1)
                    name = names.count(a.value) ? names.at(a.value) : std::string("?");
                else if (a.number == 10)
                    name = a.bytes.toStdString();
                else if (a.number == 3 || a.number == 4)
                    value.first = a.value;
                else if (a.number == 6)
                    value.second = a.bytes.toStdString();
            });
            if (name.rfind("runlane.", 0) == 0)
                notes[name] = value;
        });
        if (notes.count("runlane.wake")) {
            ++m_counts.wakes[notes["runlane.wake"].first];
            return;
        }
        if (notes.count("runlane.task")) {
            NotedTask& task = m_counts.tasks[notes["runlane.task"].first];
            ++(type == 1 ? task.slices : task.instants);
            if (notes.count("runlane.created")) {
                ++task.described;
                task.created = std::int64_t(notes["runlane.created"].first);
                task.finished = std::int64_t(notes["runlane.finished"].first);
                task.state = notes["runlane.state"].second;
                task.creator = notes["runlane.creator"].first;
                task.flags = notes["runlane.flags"].first;
            }
            if (type == 3)
                return;
        }
        if (type == 1)
            ++m_counts.slices;
        else if (type == 3)
            ++m_counts.instants;
        else if (type == 4)
            ++m_counts.counterValues;
        if (type == 1 || type == 3 || type == 4)
            m_used.insert(track);
    }

    SampleCounts m_counts;
    std::map<std::uint64_t, std::pair<std::uint64_t, std::uint64_t>> m_threads;
    std::set<std::uint64_t> m_used;
    std::set<std::uint64_t> m_counters;
    std::map<std::uint64_t, int> m_flowUses;
    std::map<std::uint64_t, std::uint64_t> m_defaultTrack; // by sequence
    std::map<std::uint64_t, std::map<std::uint64_t, std::string>> m_annotationNames; // by sequence, iid
};

} // namespace runlane::test::perfetto
