#!/usr/bin/env bash
# End-to-end reconcile benchmark: the simulator creates items at RATE per second (each sends a
# signed webhook to the relay); the relay stores each webhook, its worker fetches the item from
# the simulator's API (rate limit off) and stores it with its timeline. Prints p50/p99 of
# "webhook accepted" (received_at) to "item updated" (processed_at, same transaction).
#   ./deploy/bench/reconcile.sh        (RATE=200 DURATION=15 by default)
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
RATE=${RATE:-200}
SECONDS_TO_RUN=${DURATION:-15}
SIM_PORT=${BENCH_SIM_PORT:-8096}
RELAY_PORT=${BENCH_RELAY_PORT:-8097}
. "$ROOT/deploy/lib/bench.sh"
bench_setup relay_bench_reconcile entrupy-relay entrupy-sim relay-bench

SECRET=bench-e2e-secret TOKEN=bench-e2e-token
"$BIN_DIR/entrupy-sim" --port "$SIM_PORT" --webhook-url "http://127.0.0.1:$RELAY_PORT/webhooks/entrupy" \
  --webhook-secret "$SECRET" --api-token "$TOKEN" > "$STATE/sim.log" 2>&1 &
SIM_PID=$!
DATABASE_URL=$DB_URL ENTRUPY_RELAY_ENTRUPY_WEBHOOK_SECRETS=$SECRET ENTRUPY_RELAY_ENTRUPY_API_URL="http://127.0.0.1:$SIM_PORT" ENTRUPY_RELAY_ENTRUPY_API_TOKEN=$TOKEN \
  ENTRUPY_RELAY_ENTRUPY_API_RATE=10000 ENTRUPY_RELAY_LOG_LEVEL=warning ENTRUPY_RELAY_JOB_POLL_MS=1000 \
  "$BIN_DIR/entrupy-relay" serve --port "$RELAY_PORT" > "$STATE/relay-e2e.log" 2>&1 &
RELAY_PID=$!
trap 'kill -TERM $RELAY_PID $SIM_PID 2>/dev/null || true' EXIT
wait_http "http://127.0.0.1:$RELAY_PORT/readyz"
wait_http "http://127.0.0.1:$SIM_PORT/_sim/stats"
curl -fsS -X POST "http://127.0.0.1:$SIM_PORT/_sim/config" -d '{"rate_limit_per_second": 0}' >/dev/null

RELAY_CPU0=$(cpu_of "$RELAY_PID"); SIM_CPU0=$(cpu_of "$SIM_PID"); PG_CPU0=$(pg_cpu)
log "driving $RATE items/s for ${SECONDS_TO_RUN}s"
"$BIN_DIR/relay-bench" drive --simulator "http://127.0.0.1:$SIM_PORT" --rate "$RATE" --seconds "$SECONDS_TO_RUN"
expected=$((RATE * SECONDS_TO_RUN))
wait_count "$expected" 60 "SELECT count(*) FROM webhook_events WHERE state = 'processed'" >/dev/null
RSS_KB=$(ps -o rss= -p "$RELAY_PID" | tr -d ' ')
# CPU per webhook (milliseconds): steadier than latency on a shared machine, where a little
# less capacity than the rate turns a few milliseconds into seconds of queue.
per_webhook() { ms_each "$1" "$expected"; }
RELAY_CPU=$(per_webhook $(( $(cpu_of "$RELAY_PID") - RELAY_CPU0 )))
SIM_CPU=$(per_webhook $(( $(cpu_of "$SIM_PID") - SIM_CPU0 ))); PG_CPU=$(per_webhook $(( $(pg_cpu) - PG_CPU0 )))
"${PSQL[@]}" -tA -F ' ' -c "
  SELECT count(*),
         round((1000 * percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM processed_at - received_at)))::numeric, 1),
         round((1000 * percentile_cont(0.99) WITHIN GROUP (ORDER BY extract(epoch FROM processed_at - received_at)))::numeric, 1),
         round((1000 * max(extract(epoch FROM processed_at - received_at)))::numeric, 1),
         (SELECT count(*) FROM items), (SELECT count(*) FROM item_events)
  FROM webhook_events WHERE state = 'processed'" | {
  read -r processed p50 p99 max items transitions
  echo "reconcile benchmark: $RATE webhooks/s for ${SECONDS_TO_RUN}s, simulator rate limit off"
  echo "  processed           $processed of $expected webhooks; $items items, $transitions timeline entries"
  echo "  webhook -> item     p50 ${p50} ms   p99 ${p99} ms   max ${max} ms   (target p99 < 100 ms)"
  echo "  CPU per webhook     relay ${RELAY_CPU} ms, postgres ${PG_CPU} ms, simulator ${SIM_CPU} ms"
  echo "  relay RSS           $((RSS_KB / 1024)) MiB"
}
