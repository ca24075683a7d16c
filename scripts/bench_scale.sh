#!/usr/bin/env bash
# Scale benchmark: the same measurements on corpora of different sizes, to show which costs
# grow with the archive. For each corpus it indexes into a fresh database and prints games
# per second, CPU seconds (and per game, the program's own and the system's apart: the
# system's includes the cost of the memory the page cache takes for the files written, which
# grows with their size on some machines), database bytes per game and peak resident memory;
# then it times
# the opening answers (start position, after 2 and 10 plies, a rare late position, and the
# start position filtered by a player: `cargo bench --bench query`, medians of 21 runs), and
# streams `export tree --max-ply 10` to /dev/null, printing its time and peak memory.
#
# usage: scripts/bench_scale.sh CORPUS_DIR...
#   CORPUS_DIR  corpora made by gen_corpus.py, smallest first, e.g. 100,000 and 1,000,000 games:
#                 python3 ../shared/bench/gen_corpus.py /data/c100k --games 100000 --seed 1
#                 python3 ../shared/bench/gen_corpus.py /data/c1m --games 1000000 --seed 2
#               (about 25 minutes for a million; two generators with other seeds writing into
#               two folders of one corpus halve that on two cores)
# Before each index run the corpus's files are dropped from the page cache (posix_fadvise
# DONTNEED, which needs no privilege), so that every size reads its records from disk: a
# 100,000-game corpus would otherwise be read partly from memory and a million-game one from
# disk, and the difference would be the machine's, not the program's.
# environment:
#   JOBS        index workers (default 2)
#   WARM        set to 1 to leave the page cache as it is
#   KEEP        a folder to keep the databases in (default: a temporary folder, removed)
#   PLAYER      the player of the filtered query (default 佐々木正人)
set -euo pipefail

[ $# -ge 1 ] || { echo "usage: scripts/bench_scale.sh CORPUS_DIR..." >&2; exit 2; }
here=$(cd "$(dirname "$0")/.." && pwd)
jobs=${JOBS:-2}
player=${PLAYER:-佐々木正人}

(cd "$here" && cargo build --release --quiet && cargo bench --bench query --no-run --quiet 2>/dev/null)
bin=$here/target/release/kifudex
if [ -n "${KEEP:-}" ]; then
    out=$KEEP
    mkdir -p "$out"
else
    out=$(mktemp -d)
    trap 'rm -rf "$out"' EXIT
fi

summary=$out/summary.txt
: >"$summary"
for corpus in "$@"; do
    name=$(basename "$corpus")
    db=$out/$name.sqlite
    rm -f "$db" "$db"-wal "$db"-shm
    echo "== $corpus" >&2
    if [ "${WARM:-0}" != 1 ]; then
        find "$corpus" -type f -print0 | python3 -c '
import os, sys
for path in filter(None, sys.stdin.buffer.read().split(b"\0")):
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        continue  # gone or unreadable: the index run reports it
    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    os.close(fd)
'
    fi
    # Exit status 1 only means that some input was rejected.
    /usr/bin/time -f '%M %U %S' -o "$out/$name.time" "$bin" index "$corpus" --db "$db" --jobs "$jobs" \
        --quiet --json >"$out/$name.json" || [ $? -eq 1 ]
    python3 - "$out/$name.json" "$db" "$out/$name.time" "$name" >>"$summary" <<'PY'
import json, os, sys
s = json.load(open(sys.argv[1]))
size = os.path.getsize(sys.argv[2])
rss, user, system = open(sys.argv[3]).read().split()[-3:]
games = s["games_added"] + s["games_duplicate"]
user, system = float(user), float(system)
print("%s index: %d games (%d added) in %.2f s = %.0f games/s; cpu %.2f s = %.1f us/game (user %.1f, system %.1f);"
      " %.0f bytes/game; peak RSS %.1f MB"
      % (sys.argv[4], games, s["games_added"], s["seconds"], games / s["seconds"], user + system,
         1e6 * (user + system) / games, 1e6 * user / games, 1e6 * system / games,
         size / max(1, s["games_added"]), int(rss) / 1024))
PY
    (cd "$here" && cargo bench --quiet --bench query -- "$db" --rounds 21 --player "$player") \
        | sed "s/^/$name query: /" >>"$summary"
    /usr/bin/time -f '%e %M' -o "$out/$name.tree" "$bin" export tree --max-ply 10 --db "$db" | wc -l \
        >"$out/$name.rows"
    read -r seconds rss <"$out/$name.tree"
    echo "$name export tree --max-ply 10: $(cat "$out/$name.rows") lines in $seconds s; peak RSS $((rss / 1024)) MB" \
        >>"$summary"
    tail -n 8 "$summary" >&2
done
echo
cat "$summary"
