#!/usr/bin/env bash
# Soak: the queue over hours. The simulator finalises RATE items a second for DURATION seconds
# (each sends a signed webhook); the relay reconciles them and a rule sends a callback for
# each to a local sink, so every webhook makes two jobs (reconcile, deliver). Every INTERVAL
# seconds it prints, for the interval just ended:
#   - the jobs table: rows, total size with indexes, live and dead tuples, autovacuum runs;
#   - claim latency: the relay's own claim statement timer (mean over the interval), and a
#     probe: the claim's SELECT ... FOR UPDATE SKIP LOCKED run ten times in a rolled-back
#     transaction (median, and the buffers it touched: what grows first if dead rows pile up);
#   - pickup: webhook accepted -> reconciled, p50/p99; callback created -> delivered p99;
#   - webhooks the simulator could not hand over (non-2xx or refused) and the relay's RSS.
#   ./deploy/bench/soak.sh      (RATE=100 DURATION=1800 INTERVAL=300 by default)
# Completed jobs are kept JOBS_PRUNE_COMPLETED_HOURS (default here 0: deleted at the next
# minute's prune), so that the steady state shows within the run; with the default 24 h the
# table grows for a day before it levels, and the figures to watch are the dead tuples and
# the claim, not the rows.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
RATE=${RATE:-100}
DURATION=${DURATION:-1800}
INTERVAL=${INTERVAL:-300}
SIM_PORT=${BENCH_SIM_PORT:-8096}
RELAY_PORT=${BENCH_RELAY_PORT:-8097}
SINK_PORT=${BENCH_SINK_PORT:-8098}
. "$ROOT/deploy/lib/bench.sh"
bench_setup relay_bench_soak entrupy-relay entrupy-sim relay-bench

SECRET=bench-soak-secret TOKEN=bench-soak-token
CALLBACK_SECRET=whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw
cat > "$STATE/soak-rules.yaml" <<YAML
rules:
  - name: soak-callback
    when: {transition: [result.final]}
    notify:
      - webhook: {url: "http://127.0.0.1:$SINK_PORT/hook", secret: "\${BENCH_CALLBACK_SECRET}"}
YAML
"$BIN_DIR/relay-bench" sink --port "$SINK_PORT" --out "$STATE/soak-arrivals.csv" > "$STATE/soak-sink.log" 2>&1 &
SINK_PID=$!
"$BIN_DIR/entrupy-sim" --port "$SIM_PORT" --webhook-url "http://127.0.0.1:$RELAY_PORT/webhooks/entrupy" \
  --webhook-secret "$SECRET" --api-token "$TOKEN" > "$STATE/soak-sim.log" 2>&1 &
SIM_PID=$!
DATABASE_URL=$DB_URL ENTRUPY_RELAY_ENTRUPY_WEBHOOK_SECRETS=$SECRET ENTRUPY_RELAY_ENTRUPY_API_URL="http://127.0.0.1:$SIM_PORT" \
  ENTRUPY_RELAY_ENTRUPY_API_TOKEN=$TOKEN ENTRUPY_RELAY_ENTRUPY_API_RATE=10000 ENTRUPY_RELAY_LOG_LEVEL=warning \
  ENTRUPY_RELAY_RULES_FILE="$STATE/soak-rules.yaml" BENCH_CALLBACK_SECRET=$CALLBACK_SECRET ENTRUPY_RELAY_ALLOW_PRIVATE_CALLBACKS=true \
  ENTRUPY_RELAY_JOBS_PRUNE_COMPLETED_HOURS=${JOBS_PRUNE_COMPLETED_HOURS:-0} \
  "$BIN_DIR/entrupy-relay" serve --port "$RELAY_PORT" > "$STATE/relay-soak.log" 2>&1 &
RELAY_PID=$!
trap 'kill -TERM $RELAY_PID $SIM_PID $SINK_PID 2>/dev/null || true' EXIT
wait_http "http://127.0.0.1:$RELAY_PORT/readyz"
wait_http "http://127.0.0.1:$SIM_PORT/_sim/stats"
curl -fsS -X POST "http://127.0.0.1:$SIM_PORT/_sim/config" -d '{"rate_limit_per_second": 0}' >/dev/null

# metric NAME: a counter or a histogram's _sum/_count from the relay's /metrics (0 if absent).
metric() { curl -fsS "http://127.0.0.1:$RELAY_PORT/metrics" | awk -v n="$1" '$1 == n { print $2; found = 1 } END { if (!found) print 0 }'; }
probe_claim() { # the claim's SELECT, ten times, rolled back: median ms and shared buffers touched
  local i out
  for i in $(seq 1 10); do
    out=$("${PSQL[@]}" -tA -c "BEGIN" -c "EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON)
        SELECT id FROM jobs WHERE state IN ('available', 'retryable') AND scheduled_at <= now()
          AND kind = ANY('{reconcile_webhook,reconcile_item,deliver}'::text[])
        ORDER BY scheduled_at, id LIMIT 64 FOR UPDATE SKIP LOCKED" -c "ROLLBACK" | tr -d '\n ')
    printf '%s %s\n' "$(printf '%s' "$out" | sed -E 's/.*"ExecutionTime":([0-9.]+).*/\1/')" \
      "$(printf '%s' "$out" | sed -E 's/.*"Plan":\{[^}]*"SharedHitBlocks":([0-9]+).*/\1/')"
  done | sort -n | sed -n 5p
}

echo "soak: $RATE webhooks/s for ${DURATION}s, a callback for each; completed jobs kept ${JOBS_PRUNE_COMPLETED_HOURS:-0} h"
printf '%-7s %9s %9s %9s %8s %8s %5s %11s %14s %17s %11s %9s %7s\n' minute webhooks jobs_rows jobs_size live dead avac \
  claim_ms probe_ms/bufs pickup_p50/p99_ms callback_p99 refused rss_mb
elapsed=0 last_id=0
claim_sum0=$(metric relay_job_claim_duration_seconds_sum) claim_n0=$(metric relay_job_claim_duration_seconds_count)
while [ "$elapsed" -lt "$DURATION" ]; do
  step=$(( DURATION - elapsed < INTERVAL ? DURATION - elapsed : INTERVAL ))
  "$BIN_DIR/relay-bench" drive --simulator "http://127.0.0.1:$SIM_PORT" --rate "$RATE" --seconds "$step" > /dev/null
  elapsed=$((elapsed + step))
  claim_sum=$(metric relay_job_claim_duration_seconds_sum) claim_n=$(metric relay_job_claim_duration_seconds_count)
  claim_ms=$(awk -v s="$claim_sum" -v s0="$claim_sum0" -v n="$claim_n" -v n0="$claim_n0" \
    'BEGIN { printf "%.2f", (n > n0 ? (s - s0) * 1000 / (n - n0) : 0) }')
  claim_sum0=$claim_sum claim_n0=$claim_n
  read -r probe_ms probe_bufs < <(probe_claim)
  read -r jobs_rows jobs_size live dead avac < <("${PSQL[@]}" -tA -F ' ' -c "
    SELECT (SELECT count(*) FROM jobs), pg_size_pretty(pg_total_relation_size('jobs')) , n_live_tup, n_dead_tup, autovacuum_count
    FROM pg_stat_user_tables WHERE relname = 'jobs'" | sed 's/ \([kMG]B\|bytes\)/\1/')
  read -r webhooks pickup < <("${PSQL[@]}" -tA -F ' ' -c "
    WITH w AS (SELECT w.id, extract(epoch FROM r.at - w.received_at) * 1000 AS ms
               FROM webhook_events w JOIN reconciliations r ON r.webhook_event_id = w.id WHERE w.id > $last_id)
    SELECT (SELECT count(*) FROM webhook_events),
           coalesce(round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ms)::numeric, 1) || '/' ||
                    round(percentile_cont(0.99) WITHIN GROUP (ORDER BY ms)::numeric, 1), '-') FROM w")
  callback_p99=$("${PSQL[@]}" -tA -c "
    SELECT coalesce(round(percentile_cont(0.99) WITHIN GROUP (ORDER BY extract(epoch FROM delivered_at - created_at) * 1000)::numeric, 1)::text, '-')
    FROM deliveries WHERE created_at > now() - make_interval(secs => $step) AND state = 'delivered'")
  last_id=$("${PSQL[@]}" -tAc "SELECT coalesce(max(id), 0) FROM webhook_events")
  # Attempts the relay did not answer 2xx (each retried by the simulator), since the start.
  stats=$(curl -fsS "http://127.0.0.1:$SIM_PORT/_sim/stats" | tr -d ' \n')
  sim_stat() { printf '%s' "$stats" | grep -o "\"$1\":[0-9]*" | cut -d: -f2; }
  refused=$(( $(sim_stat webhook_attempts) - $(sim_stat webhooks_sent) ))
  rss=$(( $(ps -o rss= -p "$RELAY_PID" | tr -d ' ') / 1024 ))
  printf '%-7s %9s %9s %9s %8s %8s %5s %11s %14s %17s %11s %9s %7s\n' "$((elapsed / 60))" "$webhooks" "$jobs_rows" "$jobs_size" \
    "$live" "$dead" "$avac" "$claim_ms" "$probe_ms/$probe_bufs" "$pickup" "$callback_p99" "${refused:-?}" "$rss"
done
