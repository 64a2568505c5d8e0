#!/usr/bin/env bash
# Delivery search benchmark: seeds DELIVERIES deliveries (1,000,000 by default) straight into a
# fresh database (200,000 items, 12 rules, 170 targets, 80 % callbacks, 93 % delivered, half a
# year of creation times; a fifth of the callback targets searched have no delivery), vacuums,
# times the build of migration 30's indexes, then times
# GET /v1/deliveries through a release build of the relay, one request at a time over one
# kept connection, ROUNDS times for each kind of search. Prints p50/p95/max per kind.
#   ./deploy/bench/deliveries.sh        (DELIVERIES=1000000 ROUNDS=200 by default)
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
DELIVERIES=${DELIVERIES:-1000000}
ROUNDS=${ROUNDS:-200}
RELAY_PORT=${BENCH_RELAY_PORT:-8097}
. "$ROOT/deploy/lib/bench.sh"
bench_setup relay_bench_deliveries entrupy-relay

export DATABASE_URL=$DB_URL ENTRUPY_RELAY_LOG_LEVEL=warning
ITEMS=$((DELIVERIES / 5))
log "seeding $ITEMS items, $DELIVERIES transitions and $DELIVERIES deliveries"
started=$(date +%s)
"${PSQL[@]}" -v ON_ERROR_STOP=1 -c "
  INSERT INTO items (entrupy_id, customer_item_id, result, result_final, flag, fetched_at, raw)
  SELECT 'ENT' || lpad(n::text, 9, '0'), 'order-' || n, 'authentic', true, 'none', now(), '{}'
  FROM generate_series(1, $ITEMS) AS n" -c "
  INSERT INTO item_events (entrupy_id, kind, from_value, to_value, source, occurred_at)
  SELECT 'ENT' || lpad((1 + n % $ITEMS)::text, 9, '0'), 'result.final', 'needs_review', 'authentic', 'webhook',
         now() - (($DELIVERIES - n) * 15552000.0 / $DELIVERIES) * interval '1 second'
  FROM generate_series(1, $DELIVERIES) AS n ORDER BY n" -c "
  INSERT INTO deliveries (item_event_id, entrupy_id, rule, action_index, channel, target, payload, state, attempts,
                          created_at, updated_at, delivered_at, idempotency_key)
  SELECT e.id, e.entrupy_id, 'rule-' || (e.id * 7 % 12), 0,
         CASE WHEN e.id % 5 = 0 THEN 'email' ELSE 'webhook' END,
         CASE WHEN e.id % 5 = 0 THEN 'team-' || (e.id % 20) || '@example.com'
              ELSE 'https://partner-' || (e.id * 13 % 150) || '.example.com/***' END,
         '{\"body\": \"{}\"}'::jsonb,
         CASE WHEN e.id % 100 < 93 THEN 'delivered' WHEN e.id % 100 < 97 THEN 'dead' WHEN e.id % 100 < 99 THEN 'failed' ELSE 'pending' END,
         1, e.occurred_at, e.occurred_at, e.occurred_at, 'dlv_bench_' || e.id
  FROM item_events e ORDER BY e.id" -c "VACUUM (ANALYZE) items, item_events, deliveries"
log "seeded and vacuumed in $(( $(date +%s) - started )) s; deliveries take $("${PSQL[@]}" -tAc "SELECT pg_size_pretty(pg_total_relation_size('deliveries'))")"

# Migration 30's indexes, built again on the seeded table: what an upgrade blocks writes for.
index_ms=$("${PSQL[@]}" -v ON_ERROR_STOP=1 -tA -c "DROP INDEX deliveries_rule, deliveries_target, deliveries_created_id, deliveries_target_unsettled, deliveries_rule_unsettled" -c "
  DO \$\$ DECLARE t timestamptz := clock_timestamp(); BEGIN
    CREATE INDEX deliveries_rule ON deliveries (rule, created_at, id);
    CREATE INDEX deliveries_target ON deliveries (target, created_at, id);
    CREATE INDEX deliveries_created_id ON deliveries (created_at, id);
    CREATE INDEX deliveries_target_unsettled ON deliveries (target, created_at, id) WHERE state IN ('pending', 'failed', 'dead');
    CREATE INDEX deliveries_rule_unsettled ON deliveries (rule, created_at, id) WHERE state IN ('pending', 'failed', 'dead');
    RAISE NOTICE '%', round(extract(epoch FROM clock_timestamp() - t) * 1000);
  END \$\$" 2>&1 | sed -nE 's/.*NOTICE: *([0-9]+).*/\1/p')
printf '  migration 30 (five indexes) on %s deliveries: %s ms\n' "$DELIVERIES" "$index_ms"

TOKEN=$("$BIN_DIR/entrupy-relay" tokens create --role support --name bench | tail -1)
ENTRUPY_RELAY_ENTRUPY_WEBHOOK_SECRETS=bench-deliveries-secret "$BIN_DIR/entrupy-relay" serve --no-worker --port "$RELAY_PORT" \
  > "$STATE/relay-deliveries.log" 2>&1 &
RELAY_PID=$!
trap 'kill -TERM $RELAY_PID 2>/dev/null || true' EXIT
wait_http "http://127.0.0.1:$RELAY_PORT/readyz"

python3 - "$RELAY_PORT" "$TOKEN" "$ROUNDS" "$DELIVERIES" "$ITEMS" <<'PY'
import datetime, http.client, json, random, sys, time, urllib.parse
port, token, rounds, deliveries, items = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
random.seed(20261127)
connection = http.client.HTTPConnection("127.0.0.1", port)
now = datetime.datetime.now(datetime.timezone.utc)
def day(days_ago):
    return (now - datetime.timedelta(days=days_ago)).strftime("%Y-%m-%dT%H:%M:%SZ")
kinds = [
    ("webhook_id (a partner quotes it)", lambda: {"webhook_id": f"dlv_bench_{random.randint(1, deliveries)}"}),
    ("item", lambda: {"item": f"ENT{random.randint(1, items):09d}"}),
    ("rule", lambda: {"rule": f"rule-{random.randint(0, 11)}"}),
    ("target", lambda: {"target": f"https://partner-{random.randint(0, 149)}.example.com/***"}),
    ("channel=email", lambda: {"channel": "email"}),
    ("state=dead", lambda: {"state": "dead"}),
    ("one day, 3 months ago", lambda: (lambda d: {"since": day(d), "until": day(d - 1)})(random.randint(60, 120))),
    ("rule+target+dead+7 days", lambda: {"rule": f"rule-{random.randint(0, 11)}", "target": f"https://partner-{random.randint(0, 149)}.example.com/***",
                                         "state": "dead", "since": day(7)}),
    ("target+failed, page 2", None),
]
results = []
for name, make in kinds:
    times, found = [], 0
    for _ in range(rounds):
        if make is None:
            query = {"target": f"https://partner-{random.randint(0, 149)}.example.com/***", "state": "failed", "limit": "20"}
            connection.request("GET", "/v1/deliveries?" + urllib.parse.urlencode(query), headers={"Authorization": f"Bearer {token}"})
            first = json.loads(connection.getresponse().read())
            if first.get("next_cursor"):
                query["cursor"] = first["next_cursor"]
        else:
            query = make()
        path = "/v1/deliveries?" + urllib.parse.urlencode(query)
        started = time.perf_counter()
        connection.request("GET", path, headers={"Authorization": f"Bearer {token}"})
        response = connection.getresponse()
        body = response.read()
        times.append((time.perf_counter() - started) * 1000)
        if response.status != 200:
            sys.exit(f"{path}: {response.status} {body[:300]!r}")
        found += len(json.loads(body)["deliveries"])
    times.sort()
    p = lambda q: times[min(len(times) - 1, int(q * len(times)))]
    results.append(p(0.95))
    print(f"  {name:34s} p50 {p(0.5):6.2f} ms   p95 {p(0.95):6.2f} ms   max {times[-1]:6.2f} ms   ({found / rounds:.1f} rows a page)")
print(f"  every kind                         worst p95 {max(results):6.2f} ms   (goal < 20 ms)")
PY
