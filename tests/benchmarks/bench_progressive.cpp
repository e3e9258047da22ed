// bench_progressive: what progressive loading (LoadControl::preview) gives
// and costs on a generated Chrome trace. Prints one line per figure; see
// docs/performance.md, "Progressive loading".
//
//   bench_progressive [--events 1000000] [--repeat 3] [--keep trace.json]
//   bench_progressive --file trace.json [--repeat 3]
//   options: --first-ms 250 --every-ms 1000 (the viewer's cadence)
//            --budget 150000 (of the preview built alone: to choose it)
//            --news yes (every report of the last load's build, with its time:
//            what the banner said)
//
// Each load runs in a child process of its own (childrun.h), plain and
// with previews alternating: wall and CPU (user + system, every thread) of
// each, the time to the first preview from the load's start, the gaps
// between previews and their number; from the last preview (everything
// read) to the end, the longest build step and the longest wait for news
// (a preview, a build step or a part of one) from the first preview to the
// end, with what it followed, and each build step's time (median), so that
// the longest are found without a timer in the code. Then the cost of one preview alone:
// a ProfileBuilder holding the loaded profile's calls emits a preview of
// them (PreviewCollector at its budget) several times.

#include "benchsupport.h"
#include "childrun.h"
#include "profilebuilder.h"
#include "profileloader.h"
#include "tracegenerator.h"

#include <QDir>
#include <QFileInfo>
#include <QTemporaryDir>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <string>
#include <vector>

using namespace runlane;
using Clock = std::chrono::steady_clock;

namespace {

struct Options {
    std::uint64_t events = 1'000'000;
    int firstMs = 150;
    int everyMs = 1000;
    std::size_t budget = PreviewSettings().budget; // of the preview built alone
    bool news = false; // print the last load's build reports
};

// What a progressive load told its caller, in milliseconds from its start:
// each preview's arrival, each build step's start (LoadControl::building),
// and the load's end.
struct News {
    std::vector<double> previews;
    std::vector<double> steps;
    std::vector<int> stepNumbers; // beside steps: the build's step number
    std::vector<std::string> stepNames;
    double end = 0;
};

// Loads `file` with previews; writes its News to `times`, a line each:
// "p MS", "s MS STEP NAME", "e MS".
long long progressiveLoad(const std::string& file, const Options& options, const std::string& times)
{
    std::ofstream out(times);
    const auto start = Clock::now();
    auto now = [start] { return std::chrono::duration<double, std::milli>(Clock::now() - start).count(); };
    LoadControl control;
    control.previewFirstMs = options.firstMs;
    control.previewEveryMs = options.everyMs;
    control.preview = [&](std::shared_ptr<const Profile>) { out << "p " << now() << '\n'; };
    control.building = [&](int step, int, const char* what) { out << "s " << now() << ' ' << step << ' ' << what << '\n'; };
    const LoadResult r = ProfileLoader::load(QString::fromStdString(file), control);
    out << "e " << now() << '\n';
    return r.ok() ? (long long)r.profile->intervalCount() : -1;
}

News readNews(const std::string& path)
{
    News news;
    std::ifstream in(path);
    char kind = 0;
    for (double ms; in >> kind >> ms;) {
        if (kind == 'p') {
            news.previews.push_back(ms);
        } else if (kind == 's') {
            int step = 0;
            std::string name;
            in >> step;
            std::getline(in >> std::ws, name);
            news.steps.push_back(ms);
            news.stepNumbers.push_back(step);
            news.stepNames.push_back(name);
        } else {
            news.end = ms;
        }
    }
    return news;
}

// The cost of one preview: a builder holding every call of `profile`
// emits a preview of what its collector keeps, `count` times.
std::vector<double> previewBuilds(const Profile& profile, std::size_t budget, int count, std::size_t& kept,
                                  Time& threshold)
{
    ProfileBuilder builder(std::string(profile.formatName()), profile.sourcePath());
    std::vector<double> builds;
    Clock::time_point polled;
    PreviewSettings settings;
    settings.firstMs = 0;
    settings.everyMs = 0;
    settings.budget = budget;
    settings.emit = [&](std::shared_ptr<const Profile> preview) {
        builds.push_back(std::chrono::duration<double, std::milli>(Clock::now() - polled).count());
        kept = preview->intervalCount();
        threshold = preview->partial()->shortestKept;
    };
    builder.setPreviewSettings(std::move(settings));
    builder.startPreviews();
    for (TrackId t = 0; t < profile.trackCount(); ++t) {
        TrackInfo info = profile.track(t);
        info.displayName = builder.intern(profile.track(t).name == kEmptyString ? std::string_view() : profile.string(profile.track(t).name));
        info.processName = info.threadName = info.laneGroup = kEmptyString;
        builder.addTrack(info);
    }
    std::vector<LabelId> labels(profile.labelCount(), kNone);
    std::uint32_t order = 0;
    for (const Interval& iv : profile.intervals()) {
        const Measurement& m = profile.measurement(iv.measurement);
        if (labels[m.label] == kNone)
            labels[m.label] = builder.label(profile.labelName(m.label));
        builder.addCall(m.track, labels[m.label], iv.start, iv.end, order++);
    }
    for (int k = 1; k <= count; ++k) {
        polled = Clock::now();
        builder.pollPreview(std::uint64_t(k) * ProfileBuilder::kPreviewPollStride);
    }
    return builds;
}

std::string spread(std::vector<double> values, const char* unit)
{
    if (values.empty())
        return "none";
    std::sort(values.begin(), values.end());
    char text[96];
    std::snprintf(text, sizeof text, "%.0f / %.0f / %.0f %s (min / median / max)", values.front(),
                  values[values.size() / 2], values.back(), unit);
    return text;
}

int usage()
{
    std::fprintf(stderr, "Usage: bench_progressive [--events N | --file FILE] [--keep FILE] [--repeat K] "
                         "[--first-ms MS] [--every-ms MS] [--budget CALLS] [--news yes]\n");
    return 2;
}

} // namespace

int main(int argc, char** argv)
{
    Options options;
    bench::FileOptions common;
    common.repeat = 3;
    const bool parsed = bench::parseOptions(argc, argv, common, [&](const std::string& name, const char* value) {
        if (name == "--events")
            options.events = std::strtoull(value, nullptr, 10);
        else if (name == "--first-ms")
            options.firstMs = std::atoi(value);
        else if (name == "--every-ms")
            options.everyMs = std::atoi(value);
        else if (name == "--budget")
            options.budget = std::strtoull(value, nullptr, 10);
        else if (name == "--news")
            options.news = std::string(value) == "yes";
        else
            return false;
        return true;
    });
    if (!parsed || options.events == 0)
        return usage();
    QTemporaryDir dir;
    std::string file = common.file;
    if (file.empty()) {
        file = common.keep.empty() ? QDir(dir.path()).filePath(QStringLiteral("trace.json")).toStdString() : common.keep;
        if (!bench::TraceGenerator::writeFile(file.c_str(), options.events)) {
            std::fprintf(stderr, "bench_progressive: cannot write %s\n", file.c_str());
            return 1;
        }
    }
    const std::string times = QDir(dir.path()).filePath(QStringLiteral("times.txt")).toStdString();
    std::printf("file:                 %s, %.1f MiB\n", file.c_str(),
                double(QFileInfo(QString::fromStdString(file)).size()) / (1 << 20));
    std::printf("cadence:              first after %d ms, then every %d ms\n", options.firstMs, options.everyMs);

    bench::Timing plain;
    bench::Timing progressive;
    std::vector<double> firsts;
    std::vector<double> gaps;
    std::vector<double> counts;
    std::vector<double> lastToEnd; // from the last preview (all read) to the end
    std::vector<double> silences;  // the longest wait for news after the first preview
    double longestSilence = -1;
    std::string longestSilenceAfter; // the news the longest of them followed
    std::vector<std::pair<double, std::string>> overASecond; // every such wait, in every load, and what it followed
    std::vector<double> longestSteps;
    std::map<int, std::pair<std::string, std::vector<double>>> stepTimes; // by step number
    News last; // the last load's, for --news
    for (int k = 0; k < common.repeat; ++k) {
        // Which goes first alternates: the second of a pair runs on what
        // the first left (page cache, freed memory).
        auto plainLoad = [&] {
            return bench::inChild([&] {
                const LoadResult r = ProfileLoader::load(QString::fromStdString(file));
                return r.ok() ? (long long)r.profile->intervalCount() : -1LL;
            }, plain);
        };
        auto previewLoad = [&] { return bench::inChild([&] { return progressiveLoad(file, options, times); }, progressive); };
        const bool a = k % 2 == 0 ? plainLoad() : previewLoad();
        const bool b = k % 2 == 0 ? previewLoad() : plainLoad();
        if (!a || !b) {
            std::fprintf(stderr, "bench_progressive: a load failed\n");
            return 1;
        }
        const News news = readNews(times);
        last = news;
        const std::vector<double>& arrivals = news.previews;
        counts.push_back(double(arrivals.size()));
        if (arrivals.empty())
            continue;
        firsts.push_back(arrivals.front());
        for (std::size_t i = 1; i < arrivals.size(); ++i)
            gaps.push_back(arrivals[i] - arrivals[i - 1]);
        lastToEnd.push_back(news.end - arrivals.back());
        // Every piece of news with what it was, so that the longest wait
        // can be named by what it followed.
        std::vector<std::pair<double, std::string>> all;
        for (double at : arrivals)
            all.emplace_back(at, "a preview");
        for (std::size_t i = 0; i < news.steps.size(); ++i)
            all.emplace_back(news.steps[i], "step " + std::to_string(news.stepNumbers[i]) + ", " + news.stepNames[i]);
        all.emplace_back(news.end, "the end");
        std::stable_sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        double silence = 0;
        std::string after;
        for (std::size_t i = 1; i < all.size(); ++i) {
            if (all[i].first - all[i - 1].first > 1000)
                overASecond.emplace_back(all[i].first - all[i - 1].first, all[i - 1].second);
            if (all[i].first - all[i - 1].first > silence) {
                silence = all[i].first - all[i - 1].first;
                after = all[i - 1].second;
            }
        }
        if (silence > longestSilence) {
            longestSilence = silence;
            longestSilenceAfter = after;
        }
        silences.push_back(silence);
        // A long step is reported again as it goes (its name, ": ", how
        // far): its time is the sum of its reports', its name the first.
        std::map<int, double> stepTook;
        for (std::size_t i = 0; i < news.steps.size(); ++i) {
            const double took = (i + 1 < news.steps.size() ? news.steps[i + 1] : news.end) - news.steps[i];
            stepTook[news.stepNumbers[i]] += took;
            auto& [name, times] = stepTimes[news.stepNumbers[i]];
            if (name.empty())
                name = news.stepNames[i];
        }
        double longest = 0;
        for (const auto& [step, took] : stepTook) {
            longest = std::max(longest, took);
            stepTimes[step].second.push_back(took);
        }
        longestSteps.push_back(longest);
    }
    if (plain.intervals != progressive.intervals) {
        std::fprintf(stderr, "bench_progressive: %zu intervals plain, %zu with previews\n", plain.intervals,
                     progressive.intervals);
        return 1;
    }
    const double plainWall = bench::median(plain.wall);
    const double plainCpu = bench::median(plain.cpu);
    const double wall = bench::median(progressive.wall);
    const double cpu = bench::median(progressive.cpu);
    std::printf("intervals:            %zu\n", plain.intervals);
    std::printf("plain load:           %.3f s wall, %.3f s CPU (median of %d)\n", plainWall, plainCpu, common.repeat);
    std::printf("with previews:        %.3f s wall, %.3f s CPU\n", wall, cpu);
    std::printf("extra cost:           %+.1f %% wall, %+.1f %% CPU\n", (wall / plainWall - 1) * 100,
                (cpu / plainCpu - 1) * 100);
    std::printf("previews per load:    %.0f (median)\n", bench::median(counts));
    std::printf("first preview:        %s after the load began\n", spread(firsts, "ms").c_str());
    std::printf("gaps between them:    %s\n", spread(gaps, "ms").c_str());
    std::printf("last preview to end:  %s (the build, once all was read)\n", spread(lastToEnd, "ms").c_str());
    std::printf("longest build step:   %s\n", spread(longestSteps, "ms").c_str());
    std::printf("longest without news: %s (previews, build steps, the end)\n", spread(silences, "ms").c_str());
    if (!silences.empty())
        std::printf("  the longest after:  %s\n", longestSilenceAfter.c_str());
    std::printf("waits over a second:  %zu in %d loads\n", overASecond.size(), common.repeat);
    for (const auto& [took, after] : overASecond)
        std::printf("  %6.0f ms after:    %s\n", took, after.c_str());
    for (const auto& [step, named] : stepTimes)
        std::printf("  build step %2d:       %8.0f ms median  %s\n", step, bench::median(named.second), named.first.c_str());
    if (options.news) {
        std::printf("the last load's build reports (ms from its start):\n");
        for (std::size_t i = 0; i < last.steps.size(); ++i)
            std::printf("  %8.0f  step %2d: %s\n", last.steps[i], last.stepNumbers[i], last.stepNames[i].c_str());
        std::printf("  %8.0f  the end\n", last.end);
    }

    // One preview's cost, at the collector's budget.
    const LoadResult whole = ProfileLoader::load(QString::fromStdString(file));
    if (!whole.ok())
        return 1;
    std::size_t kept = 0;
    Time threshold = 0;
    const std::vector<double> builds = previewBuilds(*whole.profile, options.budget, 7, kept, threshold);
    std::vector<double> sorted = builds;
    std::sort(sorted.begin(), sorted.end());
    std::printf("preview build:        %.1f ms median, %.1f ms max (%zu calls kept of %zu, shortest %lld ns)\n",
                sorted[sorted.size() / 2], sorted.back(), kept, whole.profile->intervalCount(),
                static_cast<long long>(threshold));
    return 0;
}
