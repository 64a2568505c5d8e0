#!/usr/bin/env bash
# Runs one libFuzzer target against the parsers of outside input, with AddressSanitizer.
#   ./deploy/fuzz.sh TARGET SECONDS     e.g. ./deploy/fuzz.sh json 180
#   ./deploy/fuzz.sh list               the targets
# Builds relay-fuzz in .build-fuzz/ (a cold build takes several minutes; not part of .ci/run),
# starts from the committed seeds in fuzz/seeds/TARGET, keeps what it learns in
# .build-fuzz/corpus/TARGET, and writes any crashing input to fuzz/crashes/TARGET/ (turn each
# into a unit test). Prints executions, coverage and findings at the end.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TARGETS="json webhook item rules query cursor smtp-reply address retry-after"
target=${1:-}
if [ "$target" = list ] || [ -z "$target" ]; then echo "$TARGETS"; [ -n "$target" ]; exit $?; fi
case " $TARGETS " in *" $target "*) ;; *) echo "fuzz.sh: unknown target '$target' (one of: $TARGETS)" >&2; exit 2 ;; esac
seconds=${2:-60}
[[ "$seconds" =~ ^[0-9]+$ ]] && [ "$seconds" -ge 1 ] || { echo "fuzz.sh: SECONDS must be a whole number" >&2; exit 2; }

cd "$ROOT"
echo "fuzz.sh: building relay-fuzz with libFuzzer and AddressSanitizer (.build-fuzz/)" >&2
swift build --scratch-path .build-fuzz -c debug --product relay-fuzz \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING -Xswiftc -parse-as-library >&2 2> >(grep -v 'Cannot export local symbol' >&2)
bin="$ROOT/.build-fuzz/debug/relay-fuzz"
corpus="$ROOT/.build-fuzz/corpus/$target"
crashes="$ROOT/fuzz/crashes/$target"
mkdir -p "$corpus" "$crashes"
log="$ROOT/.build-fuzz/fuzz-$target.log"
echo "fuzz.sh: fuzzing $target for ${seconds}s (log $log)" >&2
set +e
RELAY_FUZZ_TARGET=$target ASAN_OPTIONS=detect_leaks=1 "$bin" -max_total_time="$seconds" -max_len=65536 -timeout=10 \
  -rss_limit_mb=4096 -print_final_stats=1 -artifact_prefix="$crashes/" "$corpus" "$ROOT/fuzz/seeds/$target" > "$log" 2>&1
status=$?
set -e
runs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+)/\1/p' "$log" | tail -1)
cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -1)
found=$(find "$crashes" -type f | wc -l | tr -d ' ')
echo "fuzz.sh: $target: ${runs:-?} executions in ${seconds}s, ${cov:-cov: ?}, corpus $(find "$corpus" -type f | wc -l | tr -d ' ') inputs, crashing inputs: $found (exit $status)"
[ "$status" -eq 0 ] || { tail -40 "$log" >&2; exit "$status"; }
