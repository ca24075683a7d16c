#!/usr/bin/env bash
# Side-by-side ingest benchmark: `kifudex index` and the peer pipeline (cshogi + sqlite3)
# on one corpus, alternating, each into a fresh database. For each run it prints the
# games per second (index creation included), the CPU seconds used (user + system, all
# threads and worker processes: a figure that depends little on what else the machine runs),
# the database bytes per game and the peak resident memory of the whole process tree.
# Before each run the corpus is read once, so that both programs take their records from the
# system's page cache: the first run of a session does not pay for the disk alone.
#
# usage: scripts/bench.sh CORPUS_DIR [ROUNDS]
#   CORPUS_DIR  a corpus made by gen_corpus.py, e.g.
#               python3 ../shared/bench/gen_corpus.py /tmp/c100k --games 100000 --seed 1
#   ROUNDS      rounds of (kifudex, peer), default 2
# environment:
#   PEER        the peer script (default ../shared/bench/peer_ingest.py); needs `pip install cshogi`
#   JOBS        workers for both programs (default 2)
set -euo pipefail

corpus=${1:?usage: scripts/bench.sh CORPUS_DIR [ROUNDS]}
rounds=${2:-2}
here=$(cd "$(dirname "$0")/.." && pwd)
peer=${PEER:-$here/../shared/bench/peer_ingest.py}
jobs=${JOBS:-2}

(cd "$here" && cargo build --release --quiet)
bin=$here/target/release/kifudex
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Reads every file of the corpus, so that the next run finds them in the page cache.
warm() { find "$corpus" -type f -print0 | xargs -0 cat >/dev/null; }

printf '%-8s %5s %8s %9s %10s %8s %11s %12s\n' program round games seconds games/s cpu_s bytes/game peak_rss_mb
for round in $(seq "$rounds"); do
    rm -f "$tmp"/k.sqlite*
    warm
    # exit status 1 only means that some input was rejected
    /usr/bin/time -f '%M %U %S' -o "$tmp/k.mem" "$bin" index "$corpus" --db "$tmp/k.sqlite" --jobs "$jobs" \
        --quiet --json >"$tmp/k.json" || [ $? -eq 1 ]
    python3 - "$tmp/k.json" "$tmp/k.sqlite" "$tmp/k.mem" "$round" <<'PY'
import json, os, sys
s = json.load(open(sys.argv[1]))
games = s["games_added"] + s["games_duplicate"]
size = os.path.getsize(sys.argv[2])
rss, user, system = open(sys.argv[3]).read().split()[-3:]
print("%-8s %5s %8d %9.2f %10.0f %8.2f %11.0f %12.1f" % ("kifudex", sys.argv[4], games, s["seconds"],
      games / s["seconds"], float(user) + float(system), size / max(1, s["games_added"]), int(rss) / 1024))
PY
    rm -f "$tmp"/p.sqlite*
    warm
    /usr/bin/time -f '%M %U %S' -o "$tmp/p.mem" python3 "$peer" "$corpus" "$tmp/p.sqlite" --jobs "$jobs" \
        >"$tmp/p.out" 2>/dev/null
    python3 - "$tmp/p.out" "$tmp/p.mem" "$round" <<'PY'
import sys
f = dict(kv.split("=") for kv in open(sys.argv[1]).read().split())
games = int(f["games"])
rss, user, system = open(sys.argv[2]).read().split()[-3:]
print("%-8s %5s %8d %9.2f %10.0f %8.2f %11.0f %12.1f" % ("peer", sys.argv[3], games, float(f["seconds"]),
      float(f["games_per_s"]), float(user) + float(system), int(f["db_bytes"]) / max(1, games), int(rss) / 1024))
PY
done
