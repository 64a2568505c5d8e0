#!/usr/bin/env bash
# Search benchmark: seeds ITEMS items (1,000,000 by default) straight into a fresh database,
# with realistic spreads (82 % authentic, ~2 % flagged, 10 brands, 5,000 users, two years
# of submissions), vacuums, then times GET /v1/items through a release build of the relay
# for a mix of support searches, one request at a time. Prints p50/p95/p99 per kind.
#   ./deploy/bench/search.sh        (ITEMS=1000000 ROUNDS=200 by default)
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
ITEMS=${ITEMS:-1000000}
ROUNDS=${ROUNDS:-200}
RELAY_PORT=${BENCH_RELAY_PORT:-8098}
. "$ROOT/deploy/lib/bench.sh"
bench_setup relay_bench_search entrupy-relay relay-bench

export DATABASE_URL=$DB_URL ENTRUPY_RELAY_LOG_LEVEL=warning
"$BIN_DIR/entrupy-relay" migrate >/dev/null
log "seeding $ITEMS items"
started=$(date +%s)
"${PSQL[@]}" -q -c "
  INSERT INTO items (entrupy_id, customer_item_id, result, result_final, flag, brand, model, category, username,
                     certificate_url, submitted_at, fetched_at, raw)
  SELECT 'ENT' || lpad(n::text, 9, '0'), 'order-' || n,
         CASE WHEN n % 100 < 82 THEN 'authentic' WHEN n % 100 < 90 THEN 'unknown' WHEN n % 100 < 95 THEN 'not_supported'
              WHEN n % 100 < 98 THEN 'needs_review' ELSE 'invalid' END,
         n % 100 NOT BETWEEN 95 AND 97,
         CASE WHEN n % 53 = 0 THEN 'flagged' WHEN n % 41 = 0 THEN 'resolved' ELSE 'none' END,
         (ARRAY['nike','adidas','louis_vuitton','off_white','jordan','yeezy','gucci','chanel','prada','dior'])[1 + (n::bigint * 7919) % 10],
         'model-' || (n % 300), (ARRAY['sneakers','luxury','apparel'])[1 + n % 3], 'Org-user-' || ((n * 31) % 5000),
         'https://certificates.example/ENT' || n, now() - n * interval '63 seconds', now(),
         jsonb_build_object('entrupy_id', 'ENT' || n, 'status', jsonb_build_object('result', jsonb_build_object('id', 'authentic',
           'display', jsonb_build_object('header', 'Authentic', 'message', repeat('The item was authenticated. ', 8)))),
           'properties', jsonb_build_object('brand', jsonb_build_object('id', 'nike'), 'model', jsonb_build_object('id', 'model')))
  FROM generate_series(1, $ITEMS) AS n"
# A final result for each item of the last 31 days (about 42,000), for the overview's latency chart.
"${PSQL[@]}" -q -c "
  INSERT INTO item_events (entrupy_id, kind, from_value, to_value, source, occurred_at, submitted_at)
  SELECT entrupy_id, 'result.final', 'needs_review', result, 'webhook', submitted_at + (1 + (hashtext(entrupy_id) & 1023)) * interval '1 second',
         submitted_at
  FROM items WHERE submitted_at > now() - interval '31 days'"
# The seed's count changes go into the rollup as a worker's fold would (this relay runs without one).
"${PSQL[@]}" -q -c "SELECT fold_item_count_changes()" -c "VACUUM (ANALYZE) items, item_counts, item_count_changes"
log "seeded and vacuumed in $(( $(date +%s) - started )) s; $("${PSQL[@]}" -tAc "SELECT pg_size_pretty(pg_total_relation_size('items'))") on disk"
TOKEN=$("$BIN_DIR/entrupy-relay" tokens create --role support --name bench | tail -1)

ENTRUPY_RELAY_ENTRUPY_WEBHOOK_SECRETS=bench-search-secret "$BIN_DIR/entrupy-relay" serve --no-worker --port "$RELAY_PORT" > "$STATE/relay-search.log" 2>&1 &
RELAY_PID=$!
trap 'kill -TERM $RELAY_PID 2>/dev/null || true' EXIT
wait_http "http://127.0.0.1:$RELAY_PORT/readyz"
"$BIN_DIR/relay-bench" search --url "http://127.0.0.1:$RELAY_PORT" --token "$TOKEN" --rounds "$ROUNDS" --items "$ITEMS"

# The console's overview page (rollup, final-result times, deliveries, queue), signed in as support.
JAR="$STATE/overview.cookies"
rm -f "$JAR"
CSRF=$(curl -fsS -c "$JAR" "http://127.0.0.1:$RELAY_PORT/console/login" | sed -nE 's/.*name="csrf" value="([^"]+)".*/\1/p' | head -1)
curl -fsS -o /dev/null -b "$JAR" -c "$JAR" --data-urlencode "token=$TOKEN" --data-urlencode "csrf=$CSRF" "http://127.0.0.1:$RELAY_PORT/console/login"
for _ in $(seq 1 25); do
  curl -fsS -o /dev/null -b "$JAR" -w '%{time_total}\n' "http://127.0.0.1:$RELAY_PORT/console/overview"
done | tail -20 | sort -n | awk '{ t[NR] = $1 * 1000 } END { printf "  overview page          p50 %6.2f ms   p95 %6.2f ms   max %6.2f ms   (target < 200 ms)\n", t[int(NR/2)+1], t[int(NR*0.95)], t[NR] }'

