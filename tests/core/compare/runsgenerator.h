#pragma once

// Generated runs of one workload, for the comparison tests: a Chronos
// future log per run in which each label (proc f0, f1, ... in work.nim)
// runs `calls` futures one after another. Each label's time per call is
// its base time × (1 + noise) for the run (run-to-run noise, a normal
// draw with the given relative sigma) × (1 + jitter) per call, × the
// factor planted for that label. Seeded: the same seed, the same runs.

#include "profile.h"
#include "profileloader.h"
#include "seededrandom.h"

#include <QByteArray>
#include <QFile>
#include <QTemporaryDir>

#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <string>

namespace runlane::test {

class RunsGenerator : private SeededRandom
{
public:
    int labels = 20;
    int calls = 20;
    double noise = 0.03; // run to run, per label
    double jitter = 0.01; // call to call
    std::map<std::string, double> factors; // planted: "f7" -> 1.2

    explicit RunsGenerator(std::uint64_t seed)
        : SeededRandom(seed * 0x9e3779b97f4a7c15ULL + 1)
    {
    }

    // The base time per call of label i: 50 µs to 1 ms, so that every label
    // is above the default floor (0.1 % of the busy time).
    static double baseTime(int i) { return 50'000.0 + 47'500.0 * i; }

    QByteArray chronosLog()
    {
        std::string events;
        std::int64_t t = 1000;
        std::int64_t id = 1;
        for (int l = 0; l < labels; ++l) {
            const std::string name = "f" + std::to_string(l);
            const auto planted = factors.find(name);
            const double runFactor = (1 + noise * normal()) * (planted == factors.end() ? 1.0 : planted->second);
            for (int c = 0; c < calls; ++c) {
                const auto duration = std::int64_t(std::llround(baseTime(l) * runFactor * (1 + jitter * normal())));
                const std::string sid = std::to_string(id++);
                events += (events.empty() ? "" : ",\n") + std::string("{\"t\":") + std::to_string(t) + ",\"id\":" + sid
                    + ",\"state\":\"Pending\",\"proc\":\"" + name + "\",\"file\":\"work.nim\",\"line\":" + std::to_string(10 + l)
                    + "},\n{\"t\":" + std::to_string(t) + ",\"id\":" + sid + ",\"state\":\"Running\"},\n{\"t\":"
                    + std::to_string(t + duration) + ",\"id\":" + sid + ",\"state\":\"Completed\"}";
                t += duration + 1000;
            }
        }
        return QByteArray::fromStdString("{\"chronosFutureEvents\": 1, \"loop\": \"main\", \"events\": [\n" + events + "]}\n");
    }

    // Loaded as a user's file is: written, then read by ProfileLoader.
    std::shared_ptr<const Profile> profile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("run.json"));
        QFile file(path);
        const QByteArray text = chronosLog();
        if (!file.open(QIODevice::WriteOnly) || file.write(text) != text.size())
            return nullptr;
        file.close();
        return ProfileLoader::load(path).profile;
    }
};

} // namespace runlane::test
