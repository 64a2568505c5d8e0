#!/usr/bin/env bash
# Never miss a change, measured (issue 11): two `serve` replicas and a `worker` on one
# database, the simulator as a hostile Entrupy (30% of webhooks dropped, 10% duplicated,
# reordered within 2 s, items invisible for their first 5 s, 5% of API calls answered 503,
# 10 requests/s per token), and ITEMS items over DURATION seconds with results arriving and
# changing and flags raised, cleared and resolved on final items. Then it prints:
#   - the time from the last change until the relay equals GET /_sim/items for every item
#     (goal: within one SYNC_INTERVAL_SECONDS, 0 divergent);
#   - API calls per change and the peak API rate the simulator saw (goal: never above 10);
#   - transitions recorded twice (goal 0) and deliveries per transition and rule (goal 1).
# The simulator sends its webhooks to the first replica; every process reconciles.
#
# It speaks API_VERSION (2 by default; the simulator then serves only v2, its v1 routes retired).
# With HISTORY=N the simulator first holds N final items submitted over the last 90 days, which
# the relay takes in with one full sync pass at full speed (its calls and time are printed: the
# whole window's cost); the run's passes then walk the tiers of SYNC_TIERS, and at the end
# OLD_CHANGES items 2-6 days old change without a webhook: the time until the relay has them is
# the time to find a change on an old item (found by the week's tier).
#   ./deploy/bench/converge.sh      (ITEMS=2000 DURATION=300 SYNC_INTERVAL_SECONDS=60 by default)
#   HISTORY=200000 SYNC_INTERVAL_SECONDS=120 ./deploy/bench/converge.sh
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
ITEMS=${ITEMS:-2000}
DURATION=${DURATION:-300}
SYNC=${SYNC_INTERVAL_SECONDS:-60}
LIMIT=${API_LIMIT:-10}
SEED=${SEED:-11}
API_VERSION=${API_VERSION:-2}
HISTORY=${HISTORY:-0}
# The week's tier every 5 minutes (1 hour by default), so a run sees it walked: SYNC_INTERVAL_SECONDS is compressed likewise.
TIERS=${SYNC_TIERS:-1d@0,7d@5m,all@1d}
OLD=${OLD_CHANGES:-20}
SIM_PORT=${BENCH_SIM_PORT:-8096}
PORTS=(${BENCH_RELAY_PORT:-8097} ${BENCH_RELAY_PORT2:-8098})
SINK_PORT=${BENCH_SINK_PORT:-8099}
. "$ROOT/deploy/lib/bench.sh"
bench_setup relay_converge entrupy-relay entrupy-sim relay-bench

SECRET=converge-webhook-secret-0123456789 TOKEN=converge-api-token
CALLBACK_SECRET=whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw
cat > "$STATE/converge-rules.yaml" <<YAML
rules:
  - name: every-transition
    when: {transition: [item.created, result.final, result.changed, flag.raised, flag.cleared, flag.resolved]}
    notify:
      - webhook: {url: "http://127.0.0.1:$SINK_PORT/hook", secret: "\${CONVERGE_CALLBACK_SECRET}"}
YAML
export DATABASE_URL=$DB_URL ENTRUPY_RELAY_ENTRUPY_WEBHOOK_SECRETS=$SECRET ENTRUPY_RELAY_ENTRUPY_API_URL="http://127.0.0.1:$SIM_PORT" \
  ENTRUPY_RELAY_ENTRUPY_API_TOKEN=$TOKEN ENTRUPY_RELAY_ENTRUPY_API_RATE=$LIMIT ENTRUPY_RELAY_SYNC_INTERVAL_SECONDS=$SYNC ENTRUPY_RELAY_SYNC_LOOKBACK_DAYS=90 \
  ENTRUPY_RELAY_ENTRUPY_API_VERSION=$API_VERSION ENTRUPY_RELAY_SYNC_TIERS=$TIERS \
  ENTRUPY_RELAY_LOG_LEVEL=notice ENTRUPY_RELAY_JOB_POLL_MS=500 ENTRUPY_RELAY_RULES_FILE="$STATE/converge-rules.yaml" \
  CONVERGE_CALLBACK_SECRET=$CALLBACK_SECRET ENTRUPY_RELAY_ALLOW_PRIVATE_CALLBACKS=true ENTRUPY_RELAY_NOT_FOUND_WINDOW_SECONDS=600

"$BIN_DIR/relay-bench" sink --port "$SINK_PORT" --out "$STATE/converge-arrivals.csv" > "$STATE/converge-sink.log" 2>&1 &
SINK_PID=$!
"$BIN_DIR/entrupy-sim" --port "$SIM_PORT" --webhook-url "http://127.0.0.1:${PORTS[0]}/webhooks/entrupy" \
  --webhook-secret "$SECRET" --api-token "$TOKEN" --seed "$SEED" > "$STATE/converge-sim.log" 2>&1 &
SIM_PID=$!
trap 'kill -TERM $SIM_PID $SINK_PID 2>/dev/null || true' EXIT
wait_http "http://127.0.0.1:$SIM_PORT/_sim/stats"
SIM_MODE=$([ "$API_VERSION" = 2 ] && echo 2 || echo 1.4)
curl -fsS -X POST "http://127.0.0.1:$SIM_PORT/_sim/config" -d "{\"api_version\": \"$SIM_MODE\", \"rate_limit_per_second\": 0}" >/dev/null
seed_line=""
SEEDED=0
if [ "$HISTORY" -gt 0 ]; then
  log "the simulator makes $HISTORY items of history over 90 days; one full sync pass takes them in at full speed"
  # 89.9 days: the lookback is counted from the pass's start, so an item of exactly 90 days would fall out of it.
  curl -fsS -X POST "http://127.0.0.1:$SIM_PORT/_sim/history" -d "{\"count\": $HISTORY, \"days\": 89.9}" >/dev/null
  started=$(date +%s.%N)
  ENTRUPY_RELAY_LOG_LEVEL=warning ENTRUPY_RELAY_ENTRUPY_API_RATE=10000 ENTRUPY_RELAY_SYNC_BUDGET_SHARE=1 "$BIN_DIR/entrupy-relay" sync run > "$STATE/converge-seed.log" 2>&1
  seconds=$(python3 -c "import time; print(round(time.time() - $started, 1))")
  calls=$(curl -fsS "http://127.0.0.1:$SIM_PORT/_sim/stats" | python3 -c "import json, sys; r = json.load(sys.stdin)['api_requests_by_route']; print(sum(v for k, v in r.items() if 'search' in k))")
  held=$("${PSQL[@]}" -tAc "SELECT count(*) FROM items")
  seed_line=$(printf 'whole window: %s items in %s search calls, %ss at full speed (%s min at %s requests/s, the sync share of %s/s)' \
    "$held" "$calls" "$seconds" "$(python3 -c "print(round($calls / ($LIMIT * 0.3) / 60, 1))")" "$(python3 -c "print($LIMIT * 0.3)")" "$LIMIT")
  log "$seed_line"
  curl -fsS -X POST "http://127.0.0.1:$SIM_PORT/_sim/stats/reset" >/dev/null
  # The history's own transitions (recorded, notifying nobody) are left out of the counts below.
  SEEDED=$("${PSQL[@]}" -tAc "SELECT coalesce(max(id), 0) FROM item_events")
fi
"$BIN_DIR/entrupy-relay" serve --port "${PORTS[0]}" > "$STATE/converge-serve0.log" 2>&1 &
SERVE0=$!
"$BIN_DIR/entrupy-relay" serve --port "${PORTS[1]}" > "$STATE/converge-serve1.log" 2>&1 &
SERVE1=$!
"$BIN_DIR/entrupy-relay" worker > "$STATE/converge-worker.log" 2>&1 &
WORKER=$!
trap 'kill -TERM $SERVE0 $SERVE1 $WORKER $SIM_PID $SINK_PID 2>/dev/null || true' EXIT
wait_http "http://127.0.0.1:${PORTS[0]}/readyz"; wait_http "http://127.0.0.1:${PORTS[1]}/readyz"
curl -fsS -X POST "http://127.0.0.1:$SIM_PORT/_sim/config" -d "{\"rate_limit_per_second\": $LIMIT,
  \"webhook_drop_rate\": 0.3, \"webhook_duplicate_rate\": 0.1, \"webhook_reorder_ms\": 2000,
  \"visibility_delay_ms\": 5000, \"api_error_rate\": 0.05}" >/dev/null

log "driving $ITEMS items over ${DURATION}s (seed $SEED; sync every ${SYNC}s)"
python3 "$ROOT/deploy/bench/converge_drive.py" drive "http://127.0.0.1:$SIM_PORT" "$ITEMS" "$DURATION" "$SEED" "$STATE/converge-drive.json"
read -r changes last_change errors < <(python3 -c "import json; d = json.load(open('$STATE/converge-drive.json')); print(d['changes'], d['last_change_at'], d['errors'])")

log "waiting until the relay equals the simulator (up to $((SYNC * 2 + 120)) s after the last change)"
converged="" divergent=""
deadline=$(python3 -c "print($last_change + $SYNC * 2 + 120)")
while :; do
  read -r divergent missing < <(python3 "$ROOT/deploy/bench/converge_drive.py" compare "http://127.0.0.1:$SIM_PORT" "${PSQL[@]}")
  now=$(date +%s.%N)
  if [ "$divergent" -eq 0 ]; then converged=$(python3 -c "print(round($now - $last_change, 1))"); break; fi
  if python3 -c "import sys; sys.exit(0 if $now > $deadline else 1)"; then break; fi
  sleep 2
done
# Let the outbox drain before counting deliveries.
for _ in $(seq 1 120); do
  [ "$("${PSQL[@]}" -tAc "SELECT count(*) FROM deliveries WHERE state NOT IN ('delivered', 'dead')")" -eq 0 ] && break
  sleep 1
done

stats=$(curl -fsS "http://127.0.0.1:$SIM_PORT/_sim/stats")
read -r api_calls peak limited errors503 dropped < <(python3 -c "
import json, sys; s = json.loads(sys.argv[1]); r = s.get('api_requests_by_route', {})
print(sum(v for k, v in r.items() if 'health' not in k), s['peak_api_rate'], s['rate_limited'], s['api_errors_503'], s['webhooks_dropped'])" "$stats")
# "Recorded twice": one fetch's transitions are one commit (same item, same occurred_at); two
# consecutive commits of an item with the same transitions would be the same change stored twice.
read -r twice transitions not_once matched < <("${PSQL[@]}" -tA -F ' ' -c "
  WITH commits AS (
    SELECT entrupy_id, occurred_at,
           string_agg(kind || ':' || coalesce(from_value, '-') || '>' || coalesce(to_value, '-'), ',' ORDER BY kind) AS what
    FROM item_events WHERE id > $SEEDED GROUP BY entrupy_id, occurred_at),
  ordered AS (SELECT what, lag(what) OVER (PARTITION BY entrupy_id ORDER BY occurred_at) AS previous FROM commits)
  SELECT (SELECT count(*) FROM ordered WHERE what = previous),
         (SELECT count(*) FROM item_events WHERE id > $SEEDED),
         (SELECT count(*) FROM item_events e WHERE e.id > $SEEDED AND (SELECT count(*) FROM deliveries d WHERE d.item_event_id = e.id) <> 1),
         (SELECT count(*) FROM deliveries)")
sources=$("${PSQL[@]}" -tA -F '=' -c "SELECT source, count(*) FROM item_events WHERE id > $SEEDED GROUP BY 1 ORDER BY 1" | tr '\n' ' ')
printf '\nconverge: %s items, %s changes in %ss (%s driver errors); webhooks dropped %s, API 503s %s, 429s %s\n' \
  "$ITEMS" "$changes" "$DURATION" "$errors" "$dropped" "$errors503" "$limited"
if [ -n "$converged" ]; then
  printf '  relay equal to the simulator %ss after the last change (sync interval %ss), 0 divergent\n' "$converged" "$SYNC"
else
  printf '  NOT converged: %s items still divergent (%s missing) %ss after the last change\n' "$divergent" "$missing" "$((SYNC * 2 + 120))"
fi
printf '  API calls %s = %s per change; peak %s requests in one second (limit %s)\n' \
  "$api_calls" "$(python3 -c "print(round($api_calls / max($changes, 1), 2))")" "$peak" "$LIMIT"
printf '  transitions %s (by source: %s), recorded twice %s; deliveries %s, transitions without exactly one %s\n' \
  "$transitions" "$sources" "$twice" "$matched" "$not_once"
# The sync passes of the run, by tier: calls (pages) and seconds each.
python3 - "$STATE"/converge-serve0.log "$STATE"/converge-serve1.log "$STATE"/converge-worker.log <<'PY'
import json, sys
passes = {}
for path in sys.argv[1:]:
    for line in open(path, errors="replace"):
        if '"sync pass complete"' not in line and "walked the recent window again" not in line:
            continue
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        meta = entry.get("metadata", entry)
        recent = "walked the recent window again" in line
        passes.setdefault(meta.get("tier", "?") + (" (again, within a wider pass)" if recent else ""), []).append((int(meta.get("pages", 0)), float(meta.get("seconds", 0)), int(meta.get("items_checked", 0))))
for tier, runs in sorted(passes.items()):
    pages = [p for p, _, _ in runs]
    seconds = [s for _, s, _ in runs]
    print("  sync passes of tier %s: %d, %d-%d calls each (%d-%d items), %.0f-%.0f s each"
          % (tier, len(runs), min(pages), max(pages), min(r[2] for r in runs), max(r[2] for r in runs), min(seconds), max(seconds)))
PY
[ -n "$seed_line" ] && printf '  %s\n' "$seed_line"
if [ "$HISTORY" -gt 0 ] && [ "$OLD" -gt 0 ]; then
  # Items n of the history were submitted (HISTORY - n) / HISTORY × 89.9 days ago: take OLD of them 2 to 6 days old.
  ids=$(python3 -c "
h, k = $HISTORY, $OLD
low, high = int(h * (1 - 6 / 89.9)), int(h * (1 - 2 / 89.9))
print(' '.join(\"'history-%d'\" % (low + (high - low) * i // k) for i in range(k)))")
  mapfile -t old_ids < <("${PSQL[@]}" -tAc "SELECT entrupy_id FROM items WHERE customer_item_id IN (${ids// /,})")
  changed_at=$(date +%s.%N)
  for id in "${old_ids[@]}"; do
    curl -fsS -X POST "http://127.0.0.1:$SIM_PORT/_sim/items/$id/result" -d '{"result": "invalid", "final": true, "result_reason": "changed after review", "webhook": false}' >/dev/null
  done
  quoted=$(printf "'%s'," "${old_ids[@]}")
  found=""
  for _ in $(seq 1 1800); do
    if [ "$("${PSQL[@]}" -tAc "SELECT count(*) FROM items WHERE entrupy_id IN (${quoted%,}) AND result = 'invalid'")" -eq "${#old_ids[@]}" ]; then
      found=$(python3 -c "import time; print(round(time.time() - $changed_at, 1))"); break
    fi
    sleep 1
  done
  printf '  %s items 2-6 days old changed without a webhook: all found by the sync %ss later (week tier every %s)\n' \
    "${#old_ids[@]}" "${found:-NOT within 1800 }" "$(echo "$TIERS" | tr ',' '\n' | grep '^7d@' | cut -d@ -f2)"
fi

