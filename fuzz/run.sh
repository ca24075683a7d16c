#!/usr/bin/env bash
# Builds the fuzz targets and runs each for a bounded time, two at a time.
#
#   fuzz/run.sh [SECONDS] [TARGET]...     (default: 20 seconds, every target)
#
# cargo-fuzz on the stable toolchain: `--sanitizer none` leaves out the one flag that needs a
# nightly compiler (-Zsanitizer); the coverage instrumentation libFuzzer is guided by and the
# debug assertions stay. Each target starts from its committed seeds (fuzz/seeds/TARGET) and
# keeps what it finds in fuzz/corpus/TARGET (not committed). An input that breaks an invariant
# is saved in fuzz/artifacts/TARGET/ and the script exits 1; replay one with
#   cargo fuzz run --sanitizer none TARGET fuzz/artifacts/TARGET/crash-…
set -euo pipefail
cd "$(dirname "$0")"

seconds=${1:-20}
shift || true
if ! command -v cargo-fuzz >/dev/null 2>&1; then
    echo "installing cargo-fuzz" >&2
    cargo install cargo-fuzz --version 0.13.2 --locked
fi
cargo fuzz build --sanitizer none
bin=target/x86_64-unknown-linux-gnu/release

if [ $# -gt 0 ]; then
    targets=("$@")
else
    mapfile -t targets < <(cargo fuzz list)
fi

logs=$(mktemp -d)
run_one() {
    local t=$1 seconds=$2 bin=$3 logs=$4
    mkdir -p "corpus/$t" "artifacts/$t"
    # -timeout: an input that takes longer than 10 s is a hang; -rss_limit_mb: a leak or a
    # blow-up; both are failures.
    if "$bin/$t" "corpus/$t" "seeds/$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -artifact_prefix="artifacts/$t/" -print_final_stats=1 >"$logs/$t.log" 2>&1; then
        printf '%-14s ok   %s\n' "$t" "$(grep -m1 -o 'stat::number_of_executed_units: *[0-9]*' "$logs/$t.log" | grep -o '[0-9]*$') inputs"
    else
        printf '%-14s FAIL\n' "$t"
        # -a: a log that quotes the input holds bytes grep would take for a binary file.
        grep -a -E -A12 'panicked|ERROR|SUMMARY' "$logs/$t.log" | head -40
        return 1
    fi
}
export -f run_one
status=0
printf '%s\n' "${targets[@]}" | xargs -P 2 -I{} bash -c 'run_one "$@"' _ {} "$seconds" "$bin" "$logs" || status=1
rm -rf "$logs"
exit $status
