#!/usr/bin/env bash
# Filtered-query latency: whole `kifudex query` and `export games` commands with game filters
# (a player, a part of many players' names, an event, a date range, a filter with a
# position), each run ROUNDS times on an existing database; prints the median and the
# slowest wall-clock time of each, process start included, and the median CPU time.
#
# usage: scripts/bench_filters.sh DB [ROUNDS]
#   DB      a database `kifudex index` built, e.g. from the seed-1 corpus of 100,000 games:
#           python3 ../shared/bench/gen_corpus.py /tmp/c100k --games 100000 --seed 1
#           target/release/kifudex index /tmp/c100k --db /tmp/c100k.sqlite
#   ROUNDS  runs of each command, default 11
# environment:
#   BIN     the kifudex binary (default target/release/kifudex, built if missing)
#   PLAYER  a full player name (default 佐々木正人, common in the seed-1 corpora)
#   PART    a part of many names (default 佐々木)
#   EVENT   a part of an event name (default 将棋倶楽部24)
set -euo pipefail

db=${1:?usage: scripts/bench_filters.sh DB [ROUNDS]}
rounds=${2:-11}
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${BIN:-$here/target/release/kifudex}
[ -x "$bin" ] || (cd "$here" && cargo build --release --quiet)
player=${PLAYER:-佐々木正人}
part=${PART:-佐々木}
event=${EVENT:-将棋倶楽部24}

# Runs "$@" ROUNDS times (exit status 1, "no game", is not a failure) and prints the median
# and the slowest wall-clock time, and the median CPU time (user + system), in milliseconds.
# The CPU time depends less on what else the machine runs.
measure() {
    python3 - "$rounds" "$@" <<'PY'
import resource, statistics, subprocess, sys, time
rounds, label, cmd = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
wall, cpu = [], []
for _ in range(rounds):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    code = subprocess.run(cmd, stdout=subprocess.DEVNULL).returncode
    wall.append((time.perf_counter() - t0) * 1000)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu.append((after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000)
    if code not in (0, 1):
        sys.exit(f"{label}: exit status {code}")
print("%-44s %9.1f %9.1f %9.1f" % (label, statistics.median(wall), max(wall), statistics.median(cpu)))
PY
}

printf '%-44s %9s %9s %9s\n' command median_ms slowest_ms cpu_ms
measure "query --player $player" "$bin" query --db "$db" --player "$player"
measure "query --player $part" "$bin" query --db "$db" --player "$part"
measure "query --black $part --white $part" "$bin" query --db "$db" --black "$part" --white "$part"
measure "query --event $event" "$bin" query --db "$db" --event "$event"
measure "query --since 2015 --until 2019-06" "$bin" query --db "$db" --since 2015 --until 2019-06
measure "query --moves '7g7f 3c3d' --player $part" "$bin" query --db "$db" --moves "7g7f 3c3d" --player "$part"
measure "query (no filter)" "$bin" query --db "$db"
measure "export games --player $player" "$bin" export games --db "$db" --player "$player"
