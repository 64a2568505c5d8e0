#!/usr/bin/env bash
# The fault suite's long run: two `serve` replicas and a `worker` on one database, the
# simulator as Entrupy, a callback sink, and a load of signed webhooks, while processes are
# killed with SIGKILL and PostgreSQL is stopped with -m immediate, again and again. At the end
# it lets everything settle and prints what was injected and what the relay promised:
# acknowledged webhooks lost (0), transitions recorded twice (0), deliveries not settled (0),
# attempts missing from the record (0), and processes that died on their own (0).
#   ./deploy/bench/chaos.sh        (DURATION=120 RATE=50 ITEMS=200 by default)
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
DURATION=${DURATION:-120}
RATE=${RATE:-50}
ITEMS=${ITEMS:-200}
SIM_PORT=${BENCH_SIM_PORT:-8096}
PORTS=(${BENCH_RELAY_PORT:-8097} ${BENCH_RELAY_PORT2:-8098})
SINK_PORT=${BENCH_SINK_PORT:-8099}
. "$ROOT/deploy/lib/bench.sh"
bench_setup relay_chaos entrupy-relay entrupy-sim relay-bench
PG_DATA_DIR=$PG_DATA

SECRET=chaos-webhook-secret-0123456789 TOKEN=chaos-api-token
CALLBACK_SECRET=whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw
cat > "$STATE/chaos-rules.yaml" <<YAML
rules:
  - name: chaos-callback
    when: {transition: [result.final, result.changed, flag.raised, flag.cleared, flag.resolved]}
    notify:
      - webhook: {url: "http://127.0.0.1:$SINK_PORT/hook", secret: "\${CHAOS_CALLBACK_SECRET}"}
YAML
export DATABASE_URL=$DB_URL ENTRUPY_RELAY_ENTRUPY_WEBHOOK_SECRETS=$SECRET ENTRUPY_RELAY_ENTRUPY_API_URL="http://127.0.0.1:$SIM_PORT" \
  ENTRUPY_RELAY_ENTRUPY_API_TOKEN=$TOKEN ENTRUPY_RELAY_ENTRUPY_API_RATE=1000 ENTRUPY_RELAY_LOG_LEVEL=error ENTRUPY_RELAY_JOB_POLL_MS=200 \
  ENTRUPY_RELAY_JOB_LEASE_SECONDS=3 ENTRUPY_RELAY_RULES_FILE="$STATE/chaos-rules.yaml" CHAOS_CALLBACK_SECRET=$CALLBACK_SECRET \
  ENTRUPY_RELAY_ALLOW_PRIVATE_CALLBACKS=true ENTRUPY_RELAY_DELIVERY_RETRY_SCHEDULE=1s,1s,2s,2s,5s,5s,10s,10s,20s ENTRUPY_RELAY_SHUTDOWN_GRACE_SECONDS=10

"$BIN_DIR/relay-bench" sink --port "$SINK_PORT" --out "$STATE/chaos-arrivals.csv" > "$STATE/chaos-sink.log" 2>&1 &
SINK_PID=$!
"$BIN_DIR/entrupy-sim" --port "$SIM_PORT" --webhook-url "http://127.0.0.1:${PORTS[0]}/webhooks/entrupy" \
  --webhook-secret "$SECRET" --api-token "$TOKEN" > "$STATE/chaos-sim.log" 2>&1 &
SIM_PID=$!
declare -A PIDS
start() { # start NAME: serve0, serve1 or worker
  case "$1" in
    serve0) "$BIN_DIR/entrupy-relay" serve --port "${PORTS[0]}" >> "$STATE/chaos-$1.log" 2>&1 & ;;
    serve1) "$BIN_DIR/entrupy-relay" serve --port "${PORTS[1]}" >> "$STATE/chaos-$1.log" 2>&1 & ;;
    worker) "$BIN_DIR/entrupy-relay" worker >> "$STATE/chaos-$1.log" 2>&1 & ;;
  esac
  PIDS[$1]=$!
}
cleanup() { kill -TERM "${PIDS[@]}" "$SIM_PID" "$SINK_PID" "${LOAD_PID:-}" 2>/dev/null || true; }
trap cleanup EXIT
for name in serve0 serve1 worker; do start "$name"; done
wait_http "http://127.0.0.1:${PORTS[0]}/readyz"; wait_http "http://127.0.0.1:${PORTS[1]}/readyz"
wait_http "http://127.0.0.1:$SIM_PORT/_sim/stats"
curl -fsS -X POST "http://127.0.0.1:$SIM_PORT/_sim/config" -d '{"rate_limit_per_second": 0}' >/dev/null

log "creating $ITEMS items in the simulator"
create_sim_items "$ITEMS" chaos "$STATE/chaos-items.txt"

# The load: signed hints for those items, from both replicas' ports, each event ID once; the
# ones answered 2xx are written down (what the relay acknowledged and so must keep).
echo "${PORTS[*]}" > "$STATE/chaos-ports.txt"
python3 "$ROOT/deploy/bench/signed_hints.py" "$SECRET" "$RATE" "$DURATION" "$STATE/chaos-items.txt" "$STATE/chaos-acked.txt" \
  "$STATE/chaos-ports.txt" chaos &
LOAD_PID=$!

# The chaos: every few seconds a SIGKILL of a random process (restarted at once), and every
# fourth time PostgreSQL stopped with -m immediate for two seconds. Results change meanwhile.
kills=0 pg_crashes=0 changes=0 died=0
end=$((SECONDS + DURATION))
round=0
while [ "$SECONDS" -lt "$end" ]; do
  sleep $((2 + RANDOM % 3))
  round=$((round + 1))
  for name in serve0 serve1 worker; do   # a process that died by itself is counted, then restarted
    if ! kill -0 "${PIDS[$name]}" 2>/dev/null; then died=$((died + 1)); log "$name died on its own"; start "$name"; fi
  done
  if [ $((round % 4)) -eq 0 ]; then
    pg_as_owner "$PG_BIN/pg_ctl" -D "$PG_DATA_DIR" -m immediate -w stop >/dev/null
    pg_crashes=$((pg_crashes + 1)); sleep 2
    pg_as_owner "$PG_BIN/pg_ctl" -D "$PG_DATA_DIR" -l "$PG_LOGFILE" -w -t 60 start >/dev/null
  else
    names=(serve0 serve1 worker); victim=${names[$((RANDOM % 3))]}
    kill -KILL "${PIDS[$victim]}" 2>/dev/null || true; wait "${PIDS[$victim]}" 2>/dev/null || true
    kills=$((kills + 1)); start "$victim"
  fi
  for _ in 1 2 3; do   # move some items on: results and flags change, webhooks or not
    id=$(shuf -n1 "$STATE/chaos-items.txt")
    case $((RANDOM % 3)) in
      0) curl -fsS -m 5 -X POST "http://127.0.0.1:$SIM_PORT/_sim/items/$id/result" -d '{"result":"authentic","final":true}' >/dev/null || true ;;
      1) curl -fsS -m 5 -X POST "http://127.0.0.1:$SIM_PORT/_sim/items/$id/flag" -d '{"flag":"flagged"}' >/dev/null || true ;;
      2) curl -fsS -m 5 -X POST "http://127.0.0.1:$SIM_PORT/_sim/items/$id/flag" -d '{"flag":"resolved"}' >/dev/null || true ;;
    esac
    changes=$((changes + 1))
  done
done
wait "$LOAD_PID" || true
settle 180
for name in serve0 serve1 worker; do kill -0 "${PIDS[$name]}" 2>/dev/null || { died=$((died + 1)); log "$name died on its own"; }; done
count_acknowledged "$STATE/chaos-acked.txt"
"${PSQL[@]}" -tA -F ' ' -c "
  SELECT (SELECT count(*) FROM webhook_events),
         (SELECT count(*) FROM webhook_events WHERE state NOT IN ('processed', 'unrecognised', 'unparseable')),
         (SELECT count(*) FROM (SELECT entrupy_id, kind, to_value FROM item_events WHERE kind = 'item.created'
                                GROUP BY 1, 2, 3 HAVING count(*) > 1) AS repeated),
         (SELECT count(*) FROM item_events),
         (SELECT count(*) FROM deliveries WHERE state = 'delivered'), (SELECT count(*) FROM deliveries WHERE state = 'dead'),
         (SELECT count(*) FROM deliveries WHERE state NOT IN ('delivered', 'dead')),
         (SELECT count(*) FROM deliveries d WHERE d.attempts <> (SELECT count(*) FROM delivery_attempts a WHERE a.delivery_id = d.id)),
         (SELECT count(*) FROM (SELECT item_event_id, rule, action_index FROM deliveries GROUP BY 1, 2, 3 HAVING count(*) > 1) AS twice)
" | {
  read -r stored unprocessed created_twice transitions delivered dead unsettled attempts_missing deliveries_twice
  echo "chaos run: ${DURATION}s, ${RATE} webhooks/s over 2 serve replicas and 1 worker, $ITEMS items"
  echo "  faults injected       $kills SIGKILLs of serve/worker, $pg_crashes PostgreSQL immediate stops (2 s each), $changes item changes"
  echo "  webhooks              $SENT sent, $ACKED acknowledged (2xx), $stored stored, lost $LOST (acknowledged, not stored)"
  echo "  reconciled            $unprocessed stored webhooks not processed; $transitions transitions, items created twice $created_twice"
  echo "  deliveries            $delivered delivered, $dead dead, $unsettled unsettled, twice for one transition $deliveries_twice"
  echo "  attempts              $attempts_missing deliveries whose attempt rows differ from their attempt count"
  echo "  processes             $died died on their own (every death here was a SIGKILL of ours)"
}
