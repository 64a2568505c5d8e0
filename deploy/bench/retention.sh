#!/usr/bin/env bash
# Retention benchmark: pruning a year of data while webhooks keep arriving.
#  1. seeds, in SQL: EVENTS webhook events (bodies of about 1.1 KB, as Entrupy's session.completed
#     with its item), ITEMS items with a result.final transition each, and ATTEMPTS delivery
#     attempts (two for each of ATTEMPTS/2 delivered callbacks), spread evenly over DAYS days;
#  2. baseline: signed webhooks at RATE a second (wrk, paced) for WINDOW seconds, and the
#     support search (`relay-bench search`) at the same time: ingest p50/p99, non-2xx, search p95;
#  3. prunes with KEEP_DAYS for webhook events, reconciliations and delivery attempts (and 30
#     days for bodies and payloads): `entrupy-relay prune`, batches of at most BATCH, at least
#     PAUSE_MS apart, within WAL_KB kilobytes of write-ahead log a second (0: no budget), while
#     the same load runs in WINDOW-second rounds until it ends (or, with MAX_ROUNDS, is stopped
#     after that many): each round's figures, the rows pruned per second;
#  4. table and index sizes before, after, and after a plain VACUUM;
#  5. PARTITIONS=1 also measures the other way: what converting webhook_events to monthly
#     partitions would cost (before pruning), and the events copied into a table partitioned by
#     month, the months past KEEP_DAYS detached and dropped while the same load runs.
#   ./deploy/bench/retention.sh   (EVENTS=10000000 ITEMS=2000000 ATTEMPTS=5000000 DAYS=400 KEEP_DAYS=35
#                                  RATE=200 WINDOW=30 by default, and the relay's own pace:
#                                  BATCH=1000 PAUSE_MS=100 WAL_KB=2048)
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
EVENTS=${EVENTS:-10000000} ITEMS=${ITEMS:-2000000} ATTEMPTS=${ATTEMPTS:-5000000} DAYS=${DAYS:-400} KEEP_DAYS=${KEEP_DAYS:-35}
RATE=${RATE:-200} WINDOW=${WINDOW:-30} BATCH=${BATCH:-1000} PAUSE_MS=${PAUSE_MS:-100} PARTITIONS=${PARTITIONS:-0} MAX_ROUNDS=${MAX_ROUNDS:-0} WAL_KB=${WAL_KB:-2048}
RELAY_PORT=${BENCH_RELAY_PORT:-8097}
. "$ROOT/deploy/lib/bench.sh"
bench_setup relay_bench_retention entrupy-relay relay-bench
export DATABASE_URL=$DB_URL ENTRUPY_RELAY_LOG_LEVEL=warning
SECRET=bench-retention-secret

sizes() { # sizes LABEL: each pruned table's heap and index size
  "${PSQL[@]}" -tA -F '|' -c "
    SELECT relname, pg_size_pretty(pg_table_size(oid)), pg_size_pretty(pg_indexes_size(oid))
    FROM pg_class WHERE relkind = 'r' AND relname IN ('webhook_events', 'deliveries', 'delivery_attempts', 'items', 'item_events') ORDER BY relname" |
    awk -F '|' -v l="$1" '{ printf "  %-22s %-18s heap %9s  indexes %9s\n", l, $1, $2, $3 }'
}

log "seeding $EVENTS webhook events, $ITEMS items, $ATTEMPTS delivery attempts over $DAYS days"
started=$(date +%s)
"${PSQL[@]}" -v ON_ERROR_STOP=1 -q <<SQL
INSERT INTO webhook_events (dedup_key, event_id, event_type, entrupy_id, customer_item_id, state, verified_by,
                            body, body_sha256, headers, client_address, request_id, received_at, processed_at)
SELECT 'seed:' || g, 'evt-' || g, 'session.completed', 'ENT' || lpad((g % $ITEMS)::text, 9, '0'), 'order-' || (g % $ITEMS),
       'processed', 'entrupy-signature',
       convert_to(format('{"event":"session.completed","id":"evt-%s","data":{"item":{"entrupy_id":"ENT%s","status":{"result":{"id":"authentic","final":true,"display":{"header":"Authentic","message":"%s"}},"flag":"none"},"properties":{"brand":{"id":"nike"},"model":{"id":"air-max-%s"}},"text_fields":{"customer_item_id":"order-%s","style_code":"DH%s","size":"10.5"},"owner":{"user":{"username":"org-user-%s"},"organization":{"name":"Example Resale"}},"images":{"item_photo":"https://images.example/%s.jpg"},"event_times":{"submitted_at":{"epoch":%s}}}}}',
                         g, g, repeat('The item was authenticated by Entrupy. ', 12), g % 300, g % $ITEMS, g, g % 5000, g, g), 'UTF8'),
       md5(g::text), '{"content-type":"application/json","user-agent":"Entrupy-Webhooks/1.0"}', '203.0.113.10', 'req-' || g, t, t
FROM generate_series(1, $EVENTS) g, LATERAL (SELECT now() - $DAYS * interval '1 day' * (1 - g::float8 / $EVENTS) AS t) x;

INSERT INTO items (entrupy_id, customer_item_id, result, result_final, flag, brand, model, category, username,
                   certificate_url, submitted_at, fetched_at, raw)
SELECT 'ENT' || lpad(n::text, 9, '0'), 'order-' || n,
       CASE WHEN n % 100 < 82 THEN 'authentic' WHEN n % 100 < 90 THEN 'unknown' ELSE 'not_supported' END, true,
       CASE WHEN n % 53 = 0 THEN 'flagged' ELSE 'none' END,
       (ARRAY['nike','adidas','louis_vuitton','off_white','jordan','yeezy','gucci','chanel','prada','dior'])[1 + (n::bigint * 7919) % 10],
       'model-' || (n % 300), (ARRAY['sneakers','luxury','apparel'])[1 + n % 3], 'org-user-' || ((n * 31) % 5000),
       'https://certificates.example/ENT' || n, t, t,
       jsonb_build_object('entrupy_id', 'ENT' || n, 'status', jsonb_build_object('result', jsonb_build_object('id', 'authentic',
         'display', jsonb_build_object('header', 'Authentic', 'message', repeat('The item was authenticated. ', 8)))),
         'owner', jsonb_build_object('user', jsonb_build_object('username', 'org-user-' || ((n * 31) % 5000))))
FROM generate_series(1, $ITEMS) n, LATERAL (SELECT now() - $DAYS * interval '1 day' * (1 - n::float8 / $ITEMS) AS t) x;

INSERT INTO item_events (entrupy_id, kind, from_value, to_value, source, occurred_at, submitted_at)
SELECT entrupy_id, 'result.final', NULL, result, 'webhook', submitted_at + interval '2 minutes', submitted_at FROM items ORDER BY submitted_at;

INSERT INTO deliveries (item_event_id, entrupy_id, rule, action_index, channel, target, payload, signing_key_id, state, attempts,
                        next_attempt_at, created_at, updated_at, delivered_at)
SELECT e.id, e.entrupy_id, 'partner', a, 'webhook', 'https://partner.example/hooks/entrupy',
       jsonb_build_object('url', 'https://partner.example/hooks/entrupy', 'headers', '[]'::jsonb,
         'body', format('{"type":"result.final","data":{"entrupy_id":"%s","result":"%s","username":"org-user-1"}}', e.entrupy_id, e.to_value)),
       'key_bench', 'delivered', 2, NULL, e.occurred_at, e.occurred_at + interval '1 minute', e.occurred_at + interval '1 minute'
FROM (SELECT * FROM item_events ORDER BY id LIMIT ($ATTEMPTS / 4)) e, generate_series(0, 1) a;

INSERT INTO delivery_attempts (delivery_id, attempt, started_at, duration_ms, outcome, status_code, response_excerpt, worker)
SELECT d.id, n, d.created_at + n * interval '20 seconds', 40, CASE WHEN n = 1 THEN 'failed' ELSE 'delivered' END,
       CASE WHEN n = 1 THEN 503 ELSE 200 END, CASE WHEN n = 1 THEN 'Service Unavailable' ELSE '{"ok":true}' END, 'bench'
FROM deliveries d, generate_series(1, 2) n ORDER BY d.id, n;

DO \$\$ BEGIN PERFORM fold_item_count_changes(); END \$\$;
SQL
"${PSQL[@]}" -q -c "VACUUM (ANALYZE) webhook_events, items, item_events, deliveries, delivery_attempts, item_counts, item_count_changes"
log "seeded and vacuumed in $(( $(date +%s) - started )) s"
sizes before

# Migration 25's partial indexes, built again here on the seeded tables: what an upgrade of
# an installation this size waits for (ingest waits with it: CREATE INDEX blocks writes).
index_s=$("${PSQL[@]}" -tA -c "DROP INDEX webhook_events_body_kept, deliveries_payload_kept, deliveries_attempts_kept" -c "\\timing on" -c "
  CREATE INDEX webhook_events_body_kept ON webhook_events (received_at) WHERE body IS NOT NULL" -c "
  CREATE INDEX deliveries_payload_kept ON deliveries (updated_at) WHERE payload IS NOT NULL AND state IN ('delivered', 'dead')" -c "
  CREATE INDEX deliveries_attempts_kept ON deliveries (updated_at) WHERE attempts_removed_at IS NULL AND state IN ('delivered', 'dead')" |
  awk '/^Time:/ { s += $2 } END { printf "%.1f", s / 1000 }')

# What converting the live webhook_events into monthly partitions would cost at this size, in
# its two steps that read the whole table: copying the dedup keys into a table of their own (a
# partitioned table's unique keys must hold the partition key) and proving every row older than
# the first month partition (a validated CHECK, so that attaching the table needs no scan).
convert_s=-
if [ "$PARTITIONS" = 1 ]; then
  first_month=$(date -u -d "$(date -u +%Y-%m-01) +2 months" +%Y-%m-%d)
  convert_s=$("${PSQL[@]}" -tA -c "\\timing on" \
    -c "CREATE TABLE bench_dedup_keys AS SELECT dedup_key, id, received_at FROM webhook_events" \
    -c "ALTER TABLE bench_dedup_keys ADD PRIMARY KEY (dedup_key)" \
    -c "ALTER TABLE webhook_events ADD CONSTRAINT bench_before_partitions CHECK (received_at < '$first_month') NOT VALID" \
    -c "ALTER TABLE webhook_events VALIDATE CONSTRAINT bench_before_partitions" |
    awk '/^Time:/ { t[++n] = $2 / 1000 } END { printf "keys copied in %.1f s, indexed in %.1f s; CHECK validated in %.1f s", t[1], t[2], t[4] }')
  "${PSQL[@]}" -q -c "ALTER TABLE webhook_events DROP CONSTRAINT bench_before_partitions" -c "DROP TABLE bench_dedup_keys"
fi

TOKEN=$("$BIN_DIR/entrupy-relay" tokens create --role support --name bench | tail -1)
python3 - "$SECRET" 400000 > "$STATE/retention-requests.tsv" <<'PY'
import hashlib, hmac, sys, uuid
secret, count = sys.argv[1].encode(), int(sys.argv[2])
run = uuid.uuid4().hex[:8]
for n in range(count):
    body = ('{"event":"session.completed","id":"evt-%s-%d","entrupy_id":"ENT-NEW-%d","text_fields":{"customer_item_id":"sku-%d"},'
            '"status":{"result":{"id":"authentic"}},"message":"%s"}' % (run, n, n, n, "The item was authenticated by Entrupy. " * 20))
    sys.stdout.write(body + "\t" + hmac.new(secret, body.encode(), hashlib.sha256).hexdigest() + "\n")
PY
# Paced wrk: CONNECTIONS connections, each waiting so that together they send RATE a second.
CONNECTIONS=8
cat > "$STATE/retention-wrk.lua" <<LUA
local threads = {}
function setup(thread) thread:set("tid", #threads); table.insert(threads, thread) end
function init(args)
  reqs = {}
  local i = 0
  for line in io.lines(args[1]) do
    if i % 1 == tid then
      local body, sig = line:match("^(.-)\t(.+)$")
      reqs[#reqs + 1] = wrk.format("POST", "/webhooks/entrupy", {["Content-Type"] = "application/json", ["Entrupy-Signature"] = "sha256=" .. sig}, body)
    end
    i = i + 1
  end
  n = math.random(#reqs)
end
function request() n = n + 1; return reqs[(n - 1) % #reqs + 1] end
-- Each connection waits this long after an answer; the answer's own time (about 5 ms) makes up the rest.
function delay() return math.floor(1000 * $CONNECTIONS / $RATE * 0.9) end
function done(summary, latency, requests)
  io.write(string.format("WRK requests=%d non2xx=%d errors=%d p50_ms=%.1f p99_ms=%.1f max_ms=%.1f\n", summary.requests, summary.errors.status,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000))
end
LUA
ENTRUPY_RELAY_ENTRUPY_WEBHOOK_SECRETS=$SECRET "$BIN_DIR/entrupy-relay" serve --no-worker --port "$RELAY_PORT" > "$STATE/relay-retention.log" 2>&1 &
RELAY_PID=$!
trap 'kill -TERM $RELAY_PID 2>/dev/null || true' EXIT
wait_http "http://127.0.0.1:$RELAY_PORT/readyz"

round() { # round LABEL: ingest at RATE and the support search for WINDOW seconds; one line of figures
  local wrk_out search_p95
  wrk_out=$(wrk -t 1 -c "$CONNECTIONS" -d "${WINDOW}s" --timeout 10s -s "$STATE/retention-wrk.lua" \
    "http://127.0.0.1:$RELAY_PORT" -- "$STATE/retention-requests.tsv" 2>&1 | grep '^WRK' &
    "$BIN_DIR/relay-bench" search --url "http://127.0.0.1:$RELAY_PORT" --token "$TOKEN" --rounds "$((WINDOW * 2))" --items "$ITEMS" \
      > "$STATE/retention-search.out" 2>&1; wait)
  search_p95=$(awk '/whole mix/ { for (i = 1; i <= NF; i++) if ($i == "p95") print $(i + 1) }' "$STATE/retention-search.out")
  printf '  %-22s %s  search p95 %s ms\n' "$1" "${wrk_out#WRK }" "${search_p95:-?}"
}

# The seed's dirty pages written out now, not during the baseline round.
"${PSQL[@]}" -q -c "CHECKPOINT"
echo "retention benchmark: $EVENTS webhook events, $ITEMS items, $ATTEMPTS attempts over $DAYS days; keep $KEEP_DAYS days"
echo "  migration 25's indexes on these tables: ${index_s} s"
echo "  converting webhook_events to partitions (PARTITIONS=1): $convert_s"
round "baseline (no pruning)"
log "pruning: batches of $BATCH, ${PAUSE_MS} ms apart, WAL budget $WAL_KB KB/s"
# The pass's own time, from its start to its exit (the load's rounds run on past it).
changed() { # rows deleted or updated so far in the tables the pruner changes (PostgreSQL's statistics)
  "${PSQL[@]}" -tAc "SELECT pg_stat_force_next_flush(); SELECT sum(n_tup_del + n_tup_upd) FROM pg_stat_user_tables
    WHERE relname IN ('webhook_events', 'reconciliations', 'deliveries', 'delivery_attempts', 'sdk_users')" | tail -1
}
changed_before=$(changed)
started=$(date +%s.%N)
ENTRUPY_RELAY_RETENTION_WEBHOOK_EVENTS_DAYS=$KEEP_DAYS ENTRUPY_RELAY_RETENTION_RECONCILIATIONS_DAYS=$KEEP_DAYS \
  ENTRUPY_RELAY_RETENTION_DELIVERY_ATTEMPTS_DAYS=$KEEP_DAYS ENTRUPY_RELAY_RETENTION_BATCH_SIZE=$BATCH ENTRUPY_RELAY_RETENTION_PAUSE_MS=$PAUSE_MS \
  ENTRUPY_RELAY_RETENTION_MAX_WAL_KB_PER_SECOND=$WAL_KB \
  "$BIN_DIR/entrupy-relay" prune --json > "$STATE/prune.json" 2> "$STATE/prune.log" &
PRUNE_PID=$!
n=0
while kill -0 "$PRUNE_PID" 2>/dev/null; do
  n=$((n + 1))
  if [ "$MAX_ROUNDS" -gt 0 ] && [ "$n" -gt "$MAX_ROUNDS" ]; then
    # Stopped after MAX_ROUNDS rounds: the batch under way rolls back.
    kill -TERM "$PRUNE_PID"; log "pruning stopped after $MAX_ROUNDS rounds"; break
  fi
  round "during pruning, $n"
done
wait "$PRUNE_PID" 2>/dev/null || true
prune_s=$(awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
if [ -s "$STATE/prune.json" ]; then
  python3 -c "import json,sys; [print('   ', l['kind'], l['rows']) for l in json.load(open(sys.argv[1]))]" "$STATE/prune.json"
fi
# Rows deleted or updated (a payload or body removed, a delivery's attempts marked), the load's
# own few updates (duplicates) included.
pruned=$(( $(changed) - changed_before ))
echo "  pruned                 $pruned rows in ${prune_s} s: $(awk -v r="$pruned" -v s="$prune_s" 'BEGIN { printf "%.0f", r / s }') rows/s"
round "after pruning"
sizes after
"${PSQL[@]}" -q -c "VACUUM webhook_events, deliveries, delivery_attempts, item_events"
sizes "after VACUUM"

if [ "$PARTITIONS" = 1 ]; then
  log "partitioned copy: webhook events by month"
  "${PSQL[@]}" -v ON_ERROR_STOP=1 -q <<SQL
CREATE TABLE events_by_month (LIKE webhook_events INCLUDING DEFAULTS) PARTITION BY RANGE (received_at);
DO \$\$ DECLARE m date; BEGIN
  FOR m IN SELECT generate_series(date_trunc('month', now() - interval '$DAYS days'), date_trunc('month', now()), interval '1 month')::date LOOP
    EXECUTE format('CREATE TABLE events_by_month_%s PARTITION OF events_by_month FOR VALUES FROM (%L) TO (%L)',
                   to_char(m, 'YYYYMM'), m, (m + interval '1 month')::date);
  END LOOP; END \$\$;
CREATE INDEX ON events_by_month (received_at);
INSERT INTO events_by_month SELECT * FROM webhook_events;
SQL
  # The months the pruning removed, put back in the copy so that it holds the whole history.
  "${PSQL[@]}" -q -v ON_ERROR_STOP=1 -c "INSERT INTO events_by_month (id, dedup_key, state, verified_by, body, body_sha256, received_at)
      SELECT -g, 'seed-old:' || g, 'processed', 'entrupy-signature', convert_to(repeat('x', 1100), 'UTF8'), 'x',
             now() - $DAYS * interval '1 day' * (1 - g::float8 / $EVENTS)
      FROM generate_series(1, ($EVENTS::bigint * ($DAYS - $KEEP_DAYS) / $DAYS)) g"
  part_started=$(date +%s.%N)
  ( "${PSQL[@]}" -tA -c "SELECT inhrelid::regclass FROM pg_inherits WHERE inhparent = 'events_by_month'::regclass" |
    while read -r part; do
      upper=$("${PSQL[@]}" -tAc "SELECT (regexp_match(pg_get_expr(relpartbound, oid), 'TO \(''([^'']+)''\)'))[1] FROM pg_class WHERE oid = '$part'::regclass")
      if "${PSQL[@]}" -tAc "SELECT '$upper'::timestamptz <= now() - interval '$KEEP_DAYS days'" | grep -q t; then
        "${PSQL[@]}" -q -c "ALTER TABLE events_by_month DETACH PARTITION $part" -c "DROP TABLE $part"
      fi
    done ) &
  DROP_PID=$!
  round "while dropping months"
  wait "$DROP_PID"
  echo "  partitions             months older than $KEEP_DAYS days detached and dropped in $(awk -v a="$part_started" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s"
fi
