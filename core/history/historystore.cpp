#include "historystore.h"

#include "historydatabase.h"
#include "qstringutf8.h"
#include "sqlitestatement.h"

#include <QDateTime>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <set>

namespace runlane {

namespace {

std::string str(const QVariant& value)
{
    return value.toString().toStdString();
}

// The value columns, in CompareMetrics::all() order.
const char* const kValueColumns[CompareMetrics::kCount] = {"calls", "exec_time", "total_time", "wall_time", "p50",
                                                           "p90",   "p99",       "max_time",   "wait_time"};

QString column(CompareMetric metric)
{
    return QString::fromLatin1(kValueColumns[std::size_t(metric)]);
}

QString valueColumns()
{
    QString list;
    for (const char* name : kValueColumns)
        list += (list.isEmpty() ? QString() : QStringLiteral(", ")) + QString::fromLatin1(name);
    return list;
}

const QString kRunColumns = QStringLiteral(
    "id, run_set, recorded_at, commit_sha, branch, host, workload, tool_version, source_name, source_size, source_path,"
    " format, unit, busy, tags");

// "k=v" lines: a tag's key has no '=' and neither has a newline.
std::string tagsText(const HistoryRun& run)
{
    std::string text;
    for (const auto& [key, value] : run.tags)
        text += (text.empty() ? "" : "\n") + key + "=" + value;
    return text;
}

HistoryRun runOf(const QSqlQuery& q)
{
    HistoryRun run;
    run.id = q.value(0).toLongLong();
    run.runSet = q.value(1).toLongLong();
    run.recordedAt = str(q.value(2));
    run.commit = str(q.value(3));
    run.branch = str(q.value(4));
    run.host = str(q.value(5));
    run.workload = str(q.value(6));
    run.toolVersion = str(q.value(7));
    run.sourceName = str(q.value(8));
    run.sourceSize = q.value(9).toLongLong();
    run.sourcePath = str(q.value(10));
    run.format = str(q.value(11));
    run.unit = str(q.value(12));
    run.busy = q.value(13).toDouble();
    const std::string tags = str(q.value(14));
    for (std::size_t pos = 0; pos < tags.size();) {
        const std::size_t end = std::min(tags.find('\n', pos), tags.size());
        const std::string tag = tags.substr(pos, end - pos);
        const std::size_t eq = tag.find('=');
        run.tags.emplace_back(tag.substr(0, eq), eq == std::string::npos ? std::string() : tag.substr(eq + 1));
        pos = end + 1;
    }
    return run;
}

} // namespace

HistoryStore::HistoryStore(HistoryDatabase& db)
    : m_db(db)
{
}

const std::string& HistoryStore::error() const
{
    return m_db.error();
}

bool HistoryStore::select(QSqlQuery& q, const QString& sql, const QVariantList& values, const char* what)
{
    q.setForwardOnly(true); // read once, front to back: no copy of the rows
    q.prepare(sql);
    for (const QVariant& value : values)
        q.addBindValue(value);
    return m_db.exec(q, what);
}

bool HistoryStore::addLabels(const std::set<LabelKey>& keys)
{
    // In one order (the keys'), before any value row: two PostgreSQL
    // transactions adding the same new labels then wait for each other in
    // the same order, never each for the other (a deadlock, one aborted).
    LabelQueries queries{QSqlQuery(m_db.connection()), QSqlQuery(m_db.connection())};
    queries.select.prepare(QStringLiteral("SELECT id FROM labels WHERE name = ? AND file = ? AND line = ?"));
    queries.insert.prepare(
        QStringLiteral("INSERT INTO labels (name, file, line) VALUES (?, ?, ?) ON CONFLICT DO NOTHING"));
    for (const LabelKey& key : keys) {
        std::int64_t id = 0;
        if (!labelId(key, queries, id))
            return false;
    }
    return true;
}

bool HistoryStore::labelId(const LabelKey& key, LabelQueries& queries, std::int64_t& id)
{
    if (const auto it = m_labelIds.find(key); it != m_labelIds.end()) {
        id = it->second;
        return true;
    }
    // Known already (the usual case once a workload has a history): one
    // lookup. New: inserted first; ON CONFLICT because another recorder
    // may add the same label at the same time (PostgreSQL waits for its
    // transaction, then skips the row).
    for (const bool inserted : {false, true}) {
        queries.select.addBindValue(qs(key.name));
        queries.select.addBindValue(qs(key.file));
        queries.select.addBindValue(key.line);
        if (!m_db.exec(queries.select, "finding a label"))
            return false;
        if (queries.select.next()) {
            id = queries.select.value(0).toLongLong();
            queries.select.finish();
            m_labelIds.emplace(key, id);
            return true;
        }
        queries.select.finish();
        if (inserted)
            break;
        queries.insert.addBindValue(qs(key.name));
        queries.insert.addBindValue(qs(key.file));
        queries.insert.addBindValue(key.line);
        if (!m_db.exec(queries.insert, "adding a label"))
            return false;
    }
    return false;
}

void HistoryStore::forgetLabels()
{
    m_labelIds.clear();
    m_workloadLabels.clear();
    m_knownFor.reset();
}

bool HistoryStore::readKnownLabels(const std::string& workload)
{
    // Every label the workload has recorded, in one query: a run usually
    // has the labels of the ones before, and one lookup per label cost as
    // much as writing its values.
    QSqlQuery q(m_db.connection());
    if (!select(q,
                QStringLiteral("SELECT l.id, l.name, l.file, l.line FROM workload_labels w JOIN labels l ON l.id = w.label_id"
                               " WHERE w.workload = ?"),
                {qs(workload)}, "reading the workload's labels"))
        return false;
    m_workloadLabels.clear();
    while (q.next()) {
        const std::int64_t id = q.value(0).toLongLong();
        m_labelIds.emplace(LabelKey{str(q.value(1)), str(q.value(2)), q.value(3).toInt()}, id);
        m_workloadLabels.insert(id);
    }
    m_knownFor = workload;
    return true;
}

bool HistoryStore::knowLabelsOf(const std::string& workload)
{
    return m_knownFor == workload || readKnownLabels(workload);
}

bool HistoryStore::addWorkloadLabels(const std::string& workload, const std::vector<ValueRow>& values)
{
    if (!knowLabelsOf(workload))
        return false;
    // In label order (the caller's), as addLabels: two PostgreSQL
    // transactions adding the same ones wait in turn, never for each other.
    std::optional<QSqlQuery> insert; // prepared for the first new one
    for (const ValueRow& row : values) {
        if (m_workloadLabels.contains(row.label))
            continue;
        if (!insert) {
            insert.emplace(m_db.connection());
            insert->prepare(QStringLiteral(
                "INSERT INTO workload_labels (workload, label_id) VALUES (?, ?) ON CONFLICT DO NOTHING"));
        }
        insert->addBindValue(qs(workload));
        insert->addBindValue(qlonglong(row.label));
        if (!m_db.exec(*insert, "adding a label to the workload"))
            return false;
        m_workloadLabels.insert(row.label);
    }
    return true;
}

bool HistoryStore::insertRun(HistoryRun& run, std::vector<ValueRow>& values, std::size_t& rows, long long abortAfter)
{
    if (run.recordedAt.empty())
        run.recordedAt = QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs).toStdString();
    QSqlQuery insert(m_db.connection());
    insert.prepare(QStringLiteral(
        "INSERT INTO runs (run_set, recorded_at, commit_sha, branch, host, workload, tool_version, source_name,"
        " source_size, source_path, format, unit, busy, tags) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        " RETURNING id"));
    insert.addBindValue(qlonglong(run.runSet));
    for (const std::string* text : {&run.recordedAt, &run.commit, &run.branch, &run.host, &run.workload,
                                    &run.toolVersion, &run.sourceName})
        insert.addBindValue(qs(*text));
    insert.addBindValue(qlonglong(run.sourceSize));
    insert.addBindValue(qs(run.sourcePath));
    insert.addBindValue(qs(run.format));
    insert.addBindValue(qs(run.unit));
    insert.addBindValue(run.busy);
    insert.addBindValue(qs(tagsText(run)));
    if (!m_db.exec(insert, "adding a run") || !insert.next())
        return false;
    run.id = insert.value(0).toLongLong();
    insert.finish();
    if (run.runSet == 0) {
        // The first run of its set names the set.
        run.runSet = run.id;
        QSqlQuery set(m_db.connection());
        set.prepare(QStringLiteral("UPDATE runs SET run_set = ? WHERE id = ?"));
        set.addBindValue(qlonglong(run.id));
        set.addBindValue(qlonglong(run.id));
        if (!m_db.exec(set, "naming the run set"))
            return false;
    }

    // In label order: the primary key (run, label) then grows at its end,
    // where the database appends, rather than splitting pages in its middle.
    std::sort(values.begin(), values.end(), [](const ValueRow& a, const ValueRow& b) { return a.label < b.label; });
    if (!addWorkloadLabels(run.workload, values))
        return false;
    return m_db.kind() == HistoryDatabase::Kind::SQLite ? insertValuesSqlite(run.id, values, rows, abortAfter)
                                                        : insertValuesQt(run.id, values, rows, abortAfter);
}

// Through SQLite's own statements (SqliteStatement), kRowsPerInsert rows
// per statement: what a statement costs besides its rows (the program's
// start and end, the journal of the statement) was a third of the time
// with one row each (5,001 rows: 7.1 ms one by one, 5.0 ms 32 at a time).
bool HistoryStore::insertValuesSqlite(std::int64_t run, const std::vector<ValueRow>& values, std::size_t& rows,
                                      long long abortAfter)
{
    constexpr std::size_t kRowsPerInsert = 32;
    constexpr int kColumns = 3 + int(CompareMetrics::kCount);
    const std::string insert =
        "INSERT INTO run_values (run_id, label_id, async, " + valueColumns().toStdString() + ") VALUES ";
    std::string row = "(?";
    for (int c = 1; c < kColumns; ++c)
        row += ", ?";
    row += ")";
    std::string many = insert + row;
    for (std::size_t k = 1; k < kRowsPerInsert; ++k)
        many += ", " + row;
    SqliteStatement one(m_db.connection(), insert + row);
    SqliteStatement batch(m_db.connection(), many);
    if (!one.ok() || !batch.ok())
        return m_db.fail("adding a label's values: " + (one.ok() ? batch.error() : one.error()));
    for (std::size_t next = 0; next < values.size();) {
        const bool full = values.size() - next >= kRowsPerInsert;
        SqliteStatement& statement = full ? batch : one;
        const std::size_t count = full ? kRowsPerInsert : 1;
        for (std::size_t k = 0; k < count; ++k) {
            const ValueRow& value = values[next + k];
            const int at = int(k) * kColumns;
            statement.bind(at + 1, run);
            statement.bind(at + 2, value.label);
            statement.bind(at + 3, std::int64_t(value.async ? 1 : 0));
            for (std::size_t m = 0; m < value.values->size(); ++m)
                statement.bind(at + 4 + int(m), (*value.values)[m]);
        }
        if (!statement.step())
            return m_db.fail("adding a label's values: " + statement.error());
        next += count;
        rows += count;
        if (abortAfter >= 0 && (long long)rows >= abortAfter)
            std::abort(); // the test hook: killed halfway through the transaction
    }
    return true;
}

// Through Qt (PostgreSQL), the run and async written into the statement
// rather than bound: Qt's binding of a value costs as much as storing it.
bool HistoryStore::insertValuesQt(std::int64_t run, const std::vector<ValueRow>& values, std::size_t& rows,
                                  long long abortAfter)
{
    const QString columns = QStringLiteral("INSERT INTO run_values (run_id, label_id, async, ") + valueColumns();
    QSqlQuery statements[2] = {QSqlQuery(m_db.connection()), QSqlQuery(m_db.connection())};
    for (int async = 0; async < 2; ++async)
        statements[async].prepare(columns + QStringLiteral(") VALUES (%1, ?, %2, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
                                                .arg(qlonglong(run)).arg(async));
    for (const ValueRow& row : values) {
        QSqlQuery& statement = statements[row.async ? 1 : 0];
        statement.addBindValue(qlonglong(row.label));
        for (const double value : *row.values)
            statement.addBindValue(value);
        if (!m_db.exec(statement, "adding a label's values"))
            return false;
        if (abortAfter >= 0 && (long long)(++rows) >= abortAfter)
            std::abort(); // the test hook: killed halfway through the transaction
    }
    return true;
}

bool HistoryStore::record(const RunSet& set, std::vector<HistoryRun>& runs)
{
    if (!runs.empty() && !knowLabelsOf(runs.front().workload))
        return false;
    const char* hook = std::getenv(kAbortHook);
    const long long abortAfter = hook ? std::atoll(hook) : -1;
    std::size_t rows = 0;
    std::set<LabelKey> keys; // the new ones
    for (const RunSet::Label& label : set.labels()) {
        if (!m_labelIds.contains(label.key))
            keys.insert(label.key);
    }
    if (!m_db.begin())
        return false;
    if (!addLabels(keys)) {
        m_db.rollback();
        forgetLabels();
        return false;
    }
    for (std::size_t i = 0; i < set.runs().size() && i < runs.size(); ++i) {
        const RunSet::Run& from = set.runs()[i];
        HistoryRun& run = runs[i];
        run.format = from.format;
        run.busy = from.busy;
        run.runSet = i == 0 ? 0 : runs.front().runSet;
        std::vector<ValueRow> values;
        for (const RunSet::Label& label : set.labels()) {
            const CompareMetrics::Values& v = label.runs[i];
            // A label absent from this run (of a set of several) has zeros.
            if (v[std::size_t(CompareMetric::Calls)] == 0)
                continue;
            values.push_back(ValueRow{m_labelIds.at(label.key), label.async, &v}); // addLabels made them all
        }
        if (!insertRun(run, values, rows, abortAfter)) {
            m_db.rollback();
            forgetLabels(); // the labels added in it are gone too
            return false;
        }
    }
    if (m_db.commit())
        return true;
    forgetLabels();
    return false;
}

bool HistoryStore::record(HistoryRun& run, const Values& values)
{
    if (!knowLabelsOf(run.workload))
        return false;
    std::size_t rows = 0;
    std::set<LabelKey> keys; // the new ones
    for (const auto& [label, v] : values) {
        if (!m_labelIds.contains(label.key))
            keys.insert(label.key);
    }
    if (!m_db.begin())
        return false;
    bool ok = addLabels(keys);
    if (ok) {
        std::vector<ValueRow> rowsOfRun;
        rowsOfRun.reserve(values.size());
        for (const auto& [label, v] : values)
            rowsOfRun.push_back(ValueRow{m_labelIds.at(label.key), label.async, &v}); // addLabels made them all
        ok = insertRun(run, rowsOfRun, rows, -1) && m_db.commit();
    }
    if (!ok) {
        m_db.rollback();
        forgetLabels();
    }
    return ok;
}

bool HistoryStore::runs(const std::string& workload, std::size_t last, std::vector<HistoryRun>& out)
{
    out.clear();
    // The last N: newest first from the index, turned round below.
    QString sql = QStringLiteral("SELECT ") + kRunColumns + QStringLiteral(" FROM runs");
    if (!workload.empty())
        sql += QStringLiteral(" WHERE workload = ?");
    sql += QStringLiteral(" ORDER BY id DESC");
    if (last > 0)
        sql += QStringLiteral(" LIMIT %1").arg(qulonglong(last));
    QSqlQuery q(m_db.connection());
    if (!select(q, sql, workload.empty() ? QVariantList() : QVariantList{qs(workload)}, "listing the runs"))
        return false;
    while (q.next())
        out.push_back(runOf(q));
    std::reverse(out.begin(), out.end());
    return true;
}

bool HistoryStore::run(std::int64_t id, std::optional<HistoryRun>& out)
{
    out.reset();
    QSqlQuery q(m_db.connection());
    if (!select(q, QStringLiteral("SELECT ") + kRunColumns + QStringLiteral(" FROM runs WHERE id = ?"), {qlonglong(id)},
                "reading a run"))
        return false;
    if (q.next())
        out = runOf(q);
    return true;
}

bool HistoryStore::series(const std::string& workload, const std::string& label, CompareMetric metric,
                          std::size_t last, std::vector<Point>& out)
{
    out.clear();
    // SQLite's plan: the workload's runs (runs_by_workload), newest first,
    // and each one's row of the label by the primary key (run, label);
    // PostgreSQL's goes through its index by label.
    QString sql = QStringLiteral("SELECT ");
    for (const QString& c : kRunColumns.split(QStringLiteral(", ")))
        sql += QStringLiteral("r.") + c.trimmed() + QStringLiteral(", ");
    sql += QStringLiteral("l.file, l.line, v.") + column(metric)
        + QStringLiteral(" FROM labels l JOIN run_values v ON v.label_id = l.id JOIN runs r ON r.id = v.run_id"
                         " WHERE l.name = ? AND r.workload = ? ORDER BY r.id DESC, l.file, l.line");
    QSqlQuery q(m_db.connection());
    if (!select(q, sql, {qs(label), qs(workload)}, "reading the label's history"))
        return false;
    std::size_t runsSeen = 0;
    std::int64_t lastRun = -1;
    while (q.next()) {
        Point p;
        p.run = runOf(q);
        if (p.run.id != lastRun) {
            if (last > 0 && runsSeen == last)
                break;
            ++runsSeen;
            lastRun = p.run.id;
        }
        p.key = LabelKey{label, str(q.value(15)), q.value(16).toInt()};
        p.value = q.value(17).toDouble();
        out.push_back(std::move(p));
    }
    std::reverse(out.begin(), out.end());
    return true;
}

bool HistoryStore::workloads(std::vector<std::string>& out)
{
    out.clear();
    QSqlQuery q(m_db.connection());
    if (!select(q, QStringLiteral("SELECT DISTINCT workload FROM runs ORDER BY workload"), {}, "listing the workloads"))
        return false;
    while (q.next())
        out.push_back(str(q.value(0)));
    return true;
}

bool HistoryStore::labelNames(const std::string& workload, std::vector<std::string>& out)
{
    out.clear();
    QSqlQuery q(m_db.connection());
    if (!select(q,
                QStringLiteral("SELECT DISTINCT l.name FROM workload_labels w JOIN labels l ON l.id = w.label_id"
                               " WHERE w.workload = ? ORDER BY l.name"),
                {qs(workload)}, "listing the labels"))
        return false;
    while (q.next())
        out.push_back(str(q.value(0)));
    return true;
}

bool HistoryStore::labelNamesByWeight(const std::string& workload, CompareMetric metric, std::vector<std::string>& out)
{
    out.clear();
    // The sum, not an alias, in ORDER BY: PostgreSQL takes an output
    // column's name there only on its own, not inside an expression.
    const QString weight = QStringLiteral("SUM(v.") + column(metric) + QStringLiteral(")");
    QSqlQuery q(m_db.connection());
    if (!select(q,
                QStringLiteral("SELECT l.name FROM workload_labels w JOIN labels l ON l.id = w.label_id"
                               " LEFT JOIN run_values v ON v.label_id = l.id"
                               " AND v.run_id = (SELECT MAX(id) FROM runs WHERE workload = ?)"
                               " WHERE w.workload = ? GROUP BY l.name ORDER BY ")
                    + weight + QStringLiteral(" IS NULL, ") + weight + QStringLiteral(" DESC, l.name"),
                {qs(workload), qs(workload)}, "listing the labels"))
        return false;
    while (q.next())
        out.push_back(str(q.value(0)));
    return true;
}

bool HistoryStore::values(std::int64_t run, Values& out)
{
    out.clear();
    QSqlQuery q(m_db.connection());
    if (!select(q,
                QStringLiteral("SELECT v.label_id, l.name, l.file, l.line, v.async, ") + valueColumns()
                    + QStringLiteral(" FROM run_values v JOIN labels l ON l.id = v.label_id WHERE v.run_id = ?"
                                     " ORDER BY v.label_id"),
                {qlonglong(run)}, "reading a run's values"))
        return false;
    while (q.next()) {
        RunSet::Label label;
        label.key = LabelKey{str(q.value(1)), str(q.value(2)), q.value(3).toInt()};
        label.async = q.value(4).toInt() != 0;
        CompareMetrics::Values v{};
        for (std::size_t m = 0; m < v.size(); ++m)
            v[m] = q.value(int(5 + m)).toDouble();
        out.emplace_back(std::move(label), v);
    }
    return true;
}

} // namespace runlane
