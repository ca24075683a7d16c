#!/usr/bin/env bash
# Export throughput and size: `export positions` as CSV and as Parquet into a file, each
# format ROUNDS times on an existing database; prints for each the rows, the median
# wall-clock and CPU time, rows per second (by the median wall-clock time), the file's bytes
# and bytes per position (row), and the largest peak memory of its runs.
#
# usage: scripts/bench_export.sh DB [ROUNDS] [TABLE]
#   DB      a database `kifudex index` built, e.g. from the seed-1 corpus of 100,000 games:
#           python3 ../shared/bench/gen_corpus.py /tmp/c100k --games 100000 --seed 1
#           target/release/kifudex index /tmp/c100k --db /tmp/c100k.sqlite
#   ROUNDS  runs of each format, default 3
#   TABLE   the export, default positions
# environment:
#   BIN     the kifudex binary (default target/release/kifudex, built if missing)
#   OUT     the directory for the files (default a temporary one, removed at the end)
set -euo pipefail

db=${1:?usage: scripts/bench_export.sh DB [ROUNDS] [TABLE]}
rounds=${2:-3}
table=${3:-positions}
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${BIN:-$here/target/release/kifudex}
[ -x "$bin" ] || (cd "$here" && cargo build --release --quiet)
out=${OUT:-$(mktemp -d)}
[ -n "${OUT:-}" ] || trap 'rm -rf "$out"' EXIT

python3 - "$bin" "$db" "$rounds" "$table" "$out" <<'PY'
import os, resource, statistics, subprocess, sys, time
bin, db, rounds, table, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
MEASURE = """
import resource, subprocess, sys
code = subprocess.run(sys.argv[1:]).returncode
if code > 1:  # 1: some stored game could not be played back, and was named on stderr
    sys.exit(code)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print(r.ru_utime + r.ru_stime, r.ru_maxrss)
"""
# Rows counted once, from the CSV file (a header row, and no field of these exports holds a
# line break).
print(f"{'format':8} {'rows':>11} {'wall s':>8} {'cpu s':>8} {'rows/s':>11} {'bytes':>13} {'bytes/row':>9} {'peak MB':>8}")
for fmt in ["csv", "parquet"]:
    path = os.path.join(out, f"{table}.{fmt}")
    wall, cpu, peak = [], [], 0
    for _ in range(rounds):
        # Each run under its own small parent, whose children's peak memory is this run's.
        t0 = time.perf_counter()
        report = subprocess.run([sys.executable, "-c", MEASURE, bin, "export", table, "--format", fmt,
                                 "--out", path, "--db", db], check=True, stdout=subprocess.PIPE, text=True)
        wall.append(time.perf_counter() - t0)
        run_cpu, run_peak = report.stdout.split()
        cpu.append(float(run_cpu))
        peak = max(peak, int(run_peak))
    if fmt == "csv":
        with open(path, "rb") as f:
            rows = sum(1 for _ in f) - 1
    size = os.path.getsize(path)
    w, c = statistics.median(wall), statistics.median(cpu)
    print(f"{fmt:8} {rows:>11,} {w:>8.2f} {c:>8.2f} {rows / w:>11,.0f} {size:>13,} {size / rows:>9.1f} {peak / 1024:>8.0f}")
PY
