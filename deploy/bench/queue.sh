#!/usr/bin/env bash
# Queue benchmark: no-op jobs claimed and completed per second, with 1 and 4 workers
# (each running up to 32 jobs at once) on a private PostgreSQL with fsync on.
#   ./deploy/bench/queue.sh            (JOBS=20000 WORKERS=1,4 by default)
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
. "$ROOT/deploy/lib/bench.sh"
bench_setup relay_bench_queue entrupy-relay relay-bench
DATABASE_URL=$DB_URL "$BIN_DIR/relay-bench" queue --jobs "${JOBS:-20000}" --workers "${WORKERS:-1,4}"
