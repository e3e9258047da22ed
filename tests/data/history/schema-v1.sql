-- The rows of schema-v1.sqlite: a history written by the first schema
-- (no source path, no tags, no run sets). tst_historystore opens a
-- database at schema version 1, runs these statements, then opens it again
-- with the current schema and checks what the migration made of them: the
-- .sqlite file is the same database made once and kept (README.md).
INSERT INTO runs (recorded_at, commit_sha, branch, host, workload, tool_version, source_name, source_size, format, unit, busy)
  VALUES ('2026-11-01T10:00:00.000Z', '1111111111111111111111111111111111111111', 'main', 'ci-1', 'server', '0.1.0', 'run1.json', 4096, 'Chronos future log', 'ns', 300000);
INSERT INTO runs (recorded_at, commit_sha, branch, host, workload, tool_version, source_name, source_size, format, unit, busy)
  VALUES ('2026-11-02T10:00:00.000Z', '2222222222222222222222222222222222222222', 'main', 'ci-1', 'server', '0.1.0', 'run2.json', 4100, 'Chronos future log', 'ns', 310000);
INSERT INTO labels (name, file, line) VALUES ('accept', 'server.nim', 12);
INSERT INTO labels (name, file, line) VALUES ('parse', 'server.nim', 40);
INSERT INTO run_values (run_id, label_id, async, calls, exec_time, total_time, wall_time, p50, p90, p99, max_time, wait_time)
  VALUES (1, 1, 1, 10, 100000, 120000, 150000, 9000, 12000, 15000, 16000, 30000);
INSERT INTO run_values (run_id, label_id, async, calls, exec_time, total_time, wall_time, p50, p90, p99, max_time, wait_time)
  VALUES (1, 2, 0, 20, 200000, 200000, 200000, 10000, 11000, 12000, 13000, 0);
INSERT INTO run_values (run_id, label_id, async, calls, exec_time, total_time, wall_time, p50, p90, p99, max_time, wait_time)
  VALUES (2, 1, 1, 10, 110000, 130000, 160000, 9500, 12500, 15500, 16500, 30000);
INSERT INTO run_values (run_id, label_id, async, calls, exec_time, total_time, wall_time, p50, p90, p99, max_time, wait_time)
  VALUES (2, 2, 0, 20, 200000, 200000, 200000, 10000, 11000, 12000, 13000, 0);
