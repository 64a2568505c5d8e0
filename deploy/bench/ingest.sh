#!/usr/bin/env bash
# Ingest benchmark: how many signed, distinct webhooks per second the relay makes durable,
# against the ceiling of PostgreSQL itself doing the same inserts one transaction at a time.
#
#   ./deploy/bench/ingest.sh            (DURATION=15 CONCURRENCY=32 by default)
#
# It builds a release binary (in .build-bench/), starts a private PostgreSQL (port 54339,
# fsync on), runs pgbench with the rows one webhook produces (an event and its job, in one
# transaction per webhook) at the same concurrency, then loads the relay with wrk using
# pre-signed distinct bodies, and prints accepted req/s, p50/p99, the pgbench TPS and the ratio.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
DURATION=${DURATION:-15}
CONCURRENCY=${CONCURRENCY:-32}
RELAY_PORT=${BENCH_RELAY_PORT:-8097}
. "$ROOT/deploy/lib/bench.sh"

bench_setup relay_bench entrupy-relay
BIN="$BIN_DIR/entrupy-relay"
PGBENCH_BIN="$PG_BIN/pgbench"; [ -x "$PGBENCH_BIN" ] || PGBENCH_BIN=$(command -v pgbench)
SECRET="bench-secret-$(head -c 8 /dev/urandom | od -An -tx1 | tr -d ' \n')"
export DATABASE_URL=$DB_URL ENTRUPY_RELAY_ENTRUPY_WEBHOOK_SECRETS=$SECRET ENTRUPY_RELAY_LOG_LEVEL=warning

# 1. The ceiling: PostgreSQL alone, the same two rows per webhook, one transaction each.
cat > "$STATE/pgbench.sql" <<'SQL'
WITH e AS (
  INSERT INTO webhook_events (dedup_key, event_id, event_type, entrupy_id, customer_item_id, state, verified_by,
                              body, body_sha256, headers, client_address, request_id)
  VALUES ('pgbench:' || gen_random_uuid(), 'evt-' || gen_random_uuid(), 'session.completed', 'ENT-' || gen_random_uuid(),
          'sku-' || gen_random_uuid(), 'queued', 'entrupy-signature',
          convert_to('{"event":"session.completed","id":"evt","entrupy_id":"ENT-1","customer_item_id":"sku-1"}', 'UTF8'),
          md5(random()::text), '{"content-type":"application/json"}', '127.0.0.1', 'bench')
  RETURNING id)
INSERT INTO jobs (kind, args) SELECT 'reconcile_webhook', jsonb_build_object('webhook_event_id', id) FROM e;
SQL
log "pgbench: $CONCURRENCY clients, ${DURATION}s"
"$PGBENCH_BIN" -h 127.0.0.1 -p "$PG_PORT" -U relay -n -M prepared -c "$CONCURRENCY" -j 2 -T "$DURATION" \
  -f "$STATE/pgbench.sql" relay_bench > "$STATE/pgbench.out" 2>&1
PGBENCH_TPS=$(sed -nE 's/^tps = ([0-9.]+).*/\1/p' "$STATE/pgbench.out" | head -1)
# The ceiling's rows carry distinct identifiers, as webhooks do: TRUNCATE keeps the column
# statistics autovacuum gathered from them, and when every row named the same item those said
# an item has every event; the relay's connections then planned webhook_store's duplicate check
# as a sequential scan and kept that plan while the table grew (every batch read every earlier
# event: 151 million rows in one 15 s run, 22 s of PostgreSQL CPU, about 1,000 req/s, in the
# runs where autovacuum had analysed the ceiling's rows). TRUNCATE alone, no VACUUM or ANALYZE:
# those would record the tables as empty (reltuples 0), which the planner trusts too.
"${PSQL[@]}" -c "TRUNCATE webhook_events, jobs CASCADE"

# 2. Pre-signed, distinct webhooks: more than the relay can take in the run.
COUNT=${BENCH_REQUESTS:-$((DURATION * 40000))}
log "signing $COUNT distinct webhooks"
python3 - "$SECRET" "$COUNT" > "$STATE/requests.tsv" <<'PY'
import hashlib, hmac, sys, uuid
secret, count = sys.argv[1].encode(), int(sys.argv[2])
run = uuid.uuid4().hex[:8]
out = sys.stdout
for n in range(count):
    body = ('{"event":"session.completed","id":"evt-%s-%d","entrupy_id":"ENT-%d","text_fields":{"customer_item_id":"sku-%d"},'
            '"status":{"result":{"id":"authentic"}}}' % (run, n, n, n))
    sig = hmac.new(secret, body.encode(), hashlib.sha256).hexdigest()
    out.write(body + "\t" + sig + "\n")
PY
cat > "$STATE/wrk.lua" <<'LUA'
-- Each wrk thread walks its own stride of the pre-signed requests, so no body repeats.
local threads = {}
function setup(thread)
  thread:set("tid", #threads)
  table.insert(threads, thread)
end
function init(args)
  reqs = {}
  local stride, i = 0, 0
  nthreads = tonumber(args[2])
  for line in io.lines(args[1]) do
    if i % nthreads == tid then
      local body, sig = line:match("^(.-)\t(.+)$")
      reqs[#reqs + 1] = wrk.format("POST", "/webhooks/entrupy",
        {["Content-Type"] = "application/json", ["Entrupy-Signature"] = "sha256=" .. sig}, body)
    end
    i = i + 1
  end
  n = 0
end
function request()
  n = n + 1
  return reqs[(n - 1) % #reqs + 1]
end
function done(summary, latency, requests)
  local non2xx = summary.errors.status
  io.write(string.format("WRK requests=%d duration_us=%d non2xx=%d socket_errors=%d p50_us=%d p90_us=%d p99_us=%d max_us=%d\n",
    summary.requests, summary.duration, non2xx, summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max))
end
LUA

# 3. The relay under load.
"$BIN" serve --no-worker --host 127.0.0.1 --port "$RELAY_PORT" > "$STATE/relay.log" 2>&1 &
RELAY_PID=$!
trap 'kill -TERM $RELAY_PID 2>/dev/null || true' EXIT
wait_http "http://127.0.0.1:$RELAY_PORT/readyz"
# CPU ticks (cpu_of, pg_cpu in lib/bench.sh) around the load.
RELAY_CPU0=$(cpu_of "$RELAY_PID"); PG_CPU0=$(pg_cpu)
THREADS=${WRK_THREADS:-1}
log "wrk: $THREADS thread(s), $CONCURRENCY connections, ${DURATION}s"
wrk -t "$THREADS" -c "$CONCURRENCY" -d "${DURATION}s" --timeout 10s -s "$STATE/wrk.lua" \
  "http://127.0.0.1:$RELAY_PORT" -- "$STATE/requests.tsv" "$THREADS" > "$STATE/wrk.out" 2>&1
RSS_KB=$(ps -o rss= -p "$RELAY_PID" | tr -d ' ')
RELAY_CPU=$(( $(cpu_of "$RELAY_PID") - RELAY_CPU0 )); PG_CPU=$(( $(pg_cpu) - PG_CPU0 ))
BATCH=$(curl -fsS "http://127.0.0.1:$RELAY_PORT/metrics" | awk '/^relay_ingest_batch_size_sum/ {s=$2} /^relay_ingest_batch_size_count/ {c=$2} END {if (c > 0) printf "%.1f", s / c; else print "?"}')
kill -TERM "$RELAY_PID"; wait "$RELAY_PID" || true; trap - EXIT
STORED=$("${PSQL[@]}" -tAc "SELECT count(*) FROM webhook_events")
JOBS=$("${PSQL[@]}" -tAc "SELECT count(*) FROM jobs")
DUPS=$("${PSQL[@]}" -tAc "SELECT coalesce(sum(duplicates), 0) FROM webhook_events")
unset PGPASSWORD

line=$(grep '^WRK ' "$STATE/wrk.out") || { cat "$STATE/wrk.out" >&2; exit 1; }
val() { printf '%s' "$line" | sed -nE "s/.* $1=([0-9]+).*/\1/p"; }
REQS=$(val requests); DUR=$(val duration_us); NON2XX=$(val non2xx); SOCKERR=$(val socket_errors)
ACCEPTED=$((REQS - NON2XX))
python3 - "$ACCEPTED" "$DUR" "$(val p50_us)" "$(val p90_us)" "$(val p99_us)" "$(val max_us)" "$PGBENCH_TPS" "$NON2XX" "$SOCKERR" "$STORED" "$JOBS" "$DUPS" "$RSS_KB" "$CONCURRENCY" "$DURATION" "$RELAY_CPU" "$PG_CPU" "$TICKS" "$BATCH" <<'PY'
import sys
acc, dur, p50, p90, p99, mx, tps, non2xx, sockerr, stored, jobs, dups, rss, conc, secs, rcpu, pcpu, ticks, batch = sys.argv[1:]
rps = int(acc) / (int(dur) / 1e6)
tps = float(tps)
print(f"ingest benchmark: concurrency {conc}, {secs}s, signed distinct webhooks (HMAC-SHA256), fsync on")
print(f"  relay accepted      {rps:10.0f} req/s   ({acc} answered 2xx, {non2xx} non-2xx, {sockerr} socket errors)")
print(f"  relay latency       p50 {int(p50)/1000:.2f} ms   p90 {int(p90)/1000:.2f} ms   p99 {int(p99)/1000:.2f} ms   max {int(mx)/1000:.2f} ms")
print(f"  stored              {stored} events, {jobs} jobs, {dups} duplicates counted; relay RSS {int(rss)/1024:.0f} MiB")
print(f"  cpu during load     relay {int(rcpu)/int(ticks):.1f} s, postgres {int(pcpu)/int(ticks):.1f} s of {2*int(secs)} core-seconds; mean commit batch {batch} events")
print(f"  pgbench ceiling     {tps:10.0f} TPS   (event + job, one transaction each)")
print(f"  ratio relay/pgbench {rps / tps:10.2f}   (target >= 1.0 with p99 < 25 ms)")
PY
