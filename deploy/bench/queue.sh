#!/usr/bin/env bash
# Queue benchmark: no-op jobs claimed and completed per second by our queue, with 1 and 4
# workers (each running up to 128 jobs at once, so it claims and records in batches of 64),
# next to PgQueuer (a Python queue on
# PostgreSQL, its best batch size, as many processes as we have workers) draining the same
# number of jobs on the same private cluster (fsync on). Runs RUNS rounds, alternating the
# two, and prints each figure and the ratio.
#   ./deploy/bench/queue.sh            (JOBS=20000 WORKERS=1,4 RUNS=3 by default)
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
. "$ROOT/deploy/lib/bench.sh"
bench_setup relay_bench_queue entrupy-relay relay-bench
PYTHON=$("$ROOT/deploy/lib/pytools.sh")
JOBS=${JOBS:-20000} WORKERS=${WORKERS:-1,4} RUNS=${RUNS:-3}

for run in $(seq 1 "$RUNS"); do
  ours=$(DATABASE_URL=$DB_URL "$BIN_DIR/relay-bench" queue --jobs "$JOBS" --workers "$WORKERS")
  printf '%s\n' "$ours"
  peer=$("$PYTHON" "$ROOT/deploy/bench/pgqueuer_drain.py" --dsn "$DB_URL" --jobs "$JOBS" --processes "$WORKERS")
  printf '%s\n' "$peer" | grep -v '^pgqueuer-best'
  for w in ${WORKERS//,/ }; do
    mine=$(printf '%s\n' "$ours" | awk -v w="$w" '$2 == w { print $(NF-1) }')
    best=$(printf '%s\n' "$peer" | awk -v p="P=$w" '$2 == p { print $3 }')
    awk -v r="$run" -v w="$w" -v a="$mine" -v b="$best" \
      'BEGIN { printf "round %d, %d worker(s): relay %d jobs/s, pgqueuer %d jobs/s: %.2fx\n", r, w, a, b, (b > 0 ? a / b : 0) }'
  done
done
