#!/usr/bin/env bash
# Notification benchmark, three figures:
#  1. end to end: the simulator finalises RATE items per second (each sends a signed webhook);
#     the relay reconciles them, a rule fires a callback to a local sink; p50/p99 of
#     "webhook accepted" (received_at) to "callback received" (the sink's clock), over
#     DURATION seconds after WARMUP seconds at the same rate (reported apart: a cold start);
#  2. callbacks per second: N deliveries put in the outbox at once, sent to the same sink;
#  3. emails per second: N/3 deliveries sent to a local aiosmtpd (over kept SMTP connections).
#   ./deploy/bench/notify.sh       (RATE=200 WARMUP=3 DURATION=15 COUNT=12000 by default)
# TRACING=1: the relay exports OpenTelemetry traces (every span sampled) to a local OTLP/HTTP
# receiver that decodes them (deploy/test-servers/otlp_receiver.py, on the same two cores).
# COUNT is large enough for the outbox figures to be compared between builds: with 3,000 the
# callbacks took 1.5 s and one build measured anywhere from 1,747 to 2,608 a second.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
RATE=${RATE:-200}
SECONDS_TO_RUN=${DURATION:-15}
WARMUP=${WARMUP:-3}
COUNT=${COUNT:-12000}
SIM_PORT=${BENCH_SIM_PORT:-8096}
RELAY_PORT=${BENCH_RELAY_PORT:-8097}
SINK_PORT=${BENCH_SINK_PORT:-8098}
SMTP_PORT=${BENCH_SMTP_PORT:-8099}
. "$ROOT/deploy/lib/bench.sh"
bench_setup relay_bench_notify entrupy-relay entrupy-sim relay-bench
PYTHON=$("$ROOT/deploy/lib/pytools.sh")

SECRET=bench-notify-secret TOKEN=bench-notify-token
CALLBACK_SECRET=whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw
KEY_ID="key_$(printf '%s' "${CALLBACK_SECRET#whsec_}" | base64 -d | sha256sum | cut -c1-16)"
rm -rf "$STATE/arrivals.csv"
cat > "$STATE/rules.yaml" <<YAML
rules:
  - name: bench-callback
    when: {transition: [result.final]}
    notify:
      - webhook: {url: "http://127.0.0.1:$SINK_PORT/hook", secret: "\${BENCH_CALLBACK_SECRET}"}
YAML

"$BIN_DIR/relay-bench" sink --port "$SINK_PORT" --out "$STATE/arrivals.csv" > "$STATE/sink.log" 2>&1 &
SINK_PID=$!
# The sink discards what it accepts: storing each message (two files and a rename) capped it
# at about 300 a second on these machines, a figure of its disk rather than of the relay
# (the same relay build sent 960-1,047 a second to it with --discard). The relay still counts
# a message delivered only once the server has answered 250 to its data.
"$PYTHON" "$ROOT/deploy/test-servers/smtp_sink.py" --port "$SMTP_PORT" --discard > "$STATE/smtp.log" 2>&1 &
SMTP_PID=$!
"$BIN_DIR/entrupy-sim" --port "$SIM_PORT" --webhook-url "http://127.0.0.1:$RELAY_PORT/webhooks/entrupy" \
  --webhook-secret "$SECRET" --api-token "$TOKEN" > "$STATE/sim.log" 2>&1 &
SIM_PID=$!
OTEL_ENV=() OTLP_PID=
if [ -n "${TRACING:-}" ]; then
  OTLP_PORT=${BENCH_OTLP_PORT:-8095}
  rm -f "$STATE/spans.jsonl"
  "$PYTHON" "$ROOT/deploy/test-servers/otlp_receiver.py" --port "$OTLP_PORT" --out "$STATE/spans.jsonl" > "$STATE/otlp.log" 2>&1 &
  OTLP_PID=$!
  OTEL_ENV=(OTEL_EXPORTER_OTLP_ENDPOINT="http://127.0.0.1:$OTLP_PORT")
fi
env "${OTEL_ENV[@]}" DATABASE_URL=$DB_URL ENTRUPY_RELAY_ENTRUPY_WEBHOOK_SECRETS=$SECRET ENTRUPY_RELAY_ENTRUPY_API_URL="http://127.0.0.1:$SIM_PORT" ENTRUPY_RELAY_ENTRUPY_API_TOKEN=$TOKEN \
  ENTRUPY_RELAY_ENTRUPY_API_RATE=10000 ENTRUPY_RELAY_LOG_LEVEL=warning ENTRUPY_RELAY_JOB_POLL_MS=1000 \
  ENTRUPY_RELAY_RULES_FILE="$STATE/rules.yaml" BENCH_CALLBACK_SECRET=$CALLBACK_SECRET ENTRUPY_RELAY_ALLOW_PRIVATE_CALLBACKS=true \
  ENTRUPY_RELAY_DELIVERY_TARGET_CONCURRENCY=${DELIVERY_TARGET_CONCURRENCY:-16} ENTRUPY_RELAY_WORKER_CONCURRENCY=${WORKER_CONCURRENCY:-32} \
  ENTRUPY_RELAY_SMTP_URL="smtp://127.0.0.1:$SMTP_PORT?tls=none" ENTRUPY_RELAY_SMTP_FROM="bench@example.com" \
  "$BIN_DIR/entrupy-relay" serve --port "$RELAY_PORT" > "$STATE/relay-notify.log" 2>&1 &
RELAY_PID=$!
trap 'kill -TERM $RELAY_PID $SIM_PID $SMTP_PID $SINK_PID $OTLP_PID 2>/dev/null || true' EXIT
wait_http "http://127.0.0.1:$RELAY_PORT/readyz"
wait_http "http://127.0.0.1:$SIM_PORT/_sim/stats"
curl -fsS -X POST "http://127.0.0.1:$SIM_PORT/_sim/config" -d '{"rate_limit_per_second": 0}' >/dev/null

wait_delivered() { # wait_delivered N CHANNEL (the rates come from the rows' timestamps, not from when this returns)
  local n; n=$(wait_count "$1" 120 "SELECT count(*) FROM deliveries WHERE state = 'delivered' AND channel = '$2'")
  [ "$n" -ge "$1" ] || log "only $n of $1 $2 deliveries delivered"
}

# The first seconds after a start are slower in every process (the relay's, the simulator's,
# PostgreSQL's new backends: caches, first preparations, first connections): they are driven
# and reported on their own, then the steady figure is measured from a fresh drive.
expected=0 first_measured=0
if [ "$WARMUP" -gt 0 ]; then
  log "1/3: warming up: $RATE items/s for ${WARMUP}s"
  "$BIN_DIR/relay-bench" drive --simulator "http://127.0.0.1:$SIM_PORT" --rate "$RATE" --seconds "$WARMUP"
  expected=$((RATE * WARMUP))
  wait_delivered "$expected" webhook
  last_warm=$("${PSQL[@]}" -tAc "SELECT coalesce(max(id), 0) FROM webhook_events")
  # Statistics for the tables the warm-up filled, as autovacuum keeps them in service (about once
  # a minute on its defaults, but a run is shorter than its first visit): a plan PostgreSQL keeps
  # for a connection's prepared statement was otherwise made for empty tables and kept (a load
  # of a claimed batch read every delivery, 947 buffers a call), and one build measured against
  # another compared which plans each had happened to keep.
  "${PSQL[@]}" -c "ANALYZE"
  first_measured=$((last_warm + 1))
fi
log "1/3: driving $RATE items/s for ${SECONDS_TO_RUN}s"
# CPU ticks around the measured drive: what one webhook costs each process, whatever the latency.
CPU0=("$(cpu_of "$RELAY_PID")" "$(cpu_of "$SIM_PID")" "$(pg_cpu)" "$(cpu_of "$SINK_PID")")
"$BIN_DIR/relay-bench" drive --simulator "http://127.0.0.1:$SIM_PORT" --rate "$RATE" --seconds "$SECONDS_TO_RUN"
expected=$((expected + RATE * SECONDS_TO_RUN))
wait_delivered "$expected" webhook
per_webhook() { ms_each "$1" $((RATE * SECONDS_TO_RUN)); }
CPU_LINE="relay $(per_webhook $(( $(cpu_of "$RELAY_PID") - CPU0[0] ))), simulator $(per_webhook $(( $(cpu_of "$SIM_PID") - CPU0[1] )))"
CPU_LINE+=", postgres $(per_webhook $(( $(pg_cpu) - CPU0[2] ))), callback sink $(per_webhook $(( $(cpu_of "$SINK_PID") - CPU0[3] ))) ms"

seed() { # seed CHANNEL N: N deliveries of one rendered payload, queued at once, one item each
  # (one item's deliveries to one target go in order, one after another: a different figure)
  local channel=$1 n=$2 url="http://127.0.0.1:$SINK_PORT/throughput"
  "${PSQL[@]}" -v ON_ERROR_STOP=1 -c "
    INSERT INTO items (entrupy_id, fetched_at, raw) SELECT 'bench-$channel-' || g, now(), '{}' FROM generate_series(0, $n - 1) g;
    WITH event AS (INSERT INTO item_events (entrupy_id, kind, source)
                   SELECT 'bench-$channel-' || g, 'result.final', 'manual' FROM generate_series(0, $n - 1) g RETURNING id, entrupy_id),
    created AS (
      INSERT INTO deliveries (item_event_id, entrupy_id, rule, action_index, channel, target, payload, signing_key_id)
      SELECT event.id, event.entrupy_id, 'bench', 0, '$channel',
             CASE WHEN '$channel' = 'webhook' THEN '$url' ELSE 'ops@example.com' END,
             CASE WHEN '$channel' = 'webhook'
                  THEN jsonb_build_object('url', '$url', 'headers', '[]'::jsonb, 'body', '{\"type\":\"result.final\",\"data\":{}}')
                  ELSE jsonb_build_object('to', jsonb_build_array('ops@example.com'), 'subject', 'bench ' || event.entrupy_id, 'text', 'Item is authentic.')
             END,
             '$KEY_ID'
      FROM event RETURNING id)
    INSERT INTO jobs (kind, args, unique_key, max_attempts)
    SELECT 'deliver', jsonb_build_object('delivery_id', id), 'delivery:' || id, 10 FROM created;
    -- The seeded rows in the statistics before any worker plans for them (see the warm-up).
    ANALYZE items, item_events, deliveries, jobs;
    -- Wake the workers as the relay's own enqueue does (the jobs table has no trigger for it):
    -- without it they find these jobs at their next poll, up to JOB_POLL_MS counted as sending.
    SELECT pg_notify('relay_jobs', '');" >/dev/null
}
rate_of() { # rate_of CHANNEL: delivered per second from the first creation to the last delivery
  "${PSQL[@]}" -tAc "SELECT count(*), round((count(*) / extract(epoch FROM max(delivered_at) - min(created_at)))::numeric, 0)
                     FROM deliveries WHERE entrupy_id LIKE 'bench-$1-%' AND state = 'delivered'"
}

log "2/3: $COUNT callbacks at once"
seed webhook "$COUNT"
wait_delivered $((expected + COUNT)) webhook
log "3/3: $((COUNT / 3)) emails at once"
seed email $((COUNT / 3))
wait_delivered $((COUNT / 3)) email
RSS_KB=$(ps -o rss= -p "$RELAY_PID" | tr -d ' ')
# The relay's own stage timings (API calls, commits, job durations), for finding where time goes.
curl -fsS "http://127.0.0.1:$RELAY_PORT/metrics" > "$STATE/relay-notify.metrics" || true

kill -TERM "$SINK_PID"; wait "$SINK_PID" 2>/dev/null || true
TRACING_LINE=off
[ -n "${TRACING:-}" ] && TRACING_LINE="on ($(wc -l < "$STATE/spans.jsonl" 2>/dev/null || echo 0) spans received)"
"${PSQL[@]}" -c "CREATE TEMP TABLE arrivals (webhook_id text, received_ms bigint)" \
  -c "\\copy arrivals FROM '$STATE/arrivals.csv' WITH (FORMAT csv)" -tA -F ' ' -c "
  WITH e2e AS (
    SELECT w.id >= $first_measured AS measured, a.received_ms - 1000 * extract(epoch FROM w.received_at) AS ms
    FROM arrivals a JOIN deliveries d ON d.idempotency_key = a.webhook_id
    JOIN item_events e ON e.id = d.item_event_id JOIN webhook_events w ON w.id = e.webhook_event_id)
  SELECT measured, count(*), round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ms)::numeric, 1),
         round(percentile_cont(0.99) WITHIN GROUP (ORDER BY ms)::numeric, 1), round(max(ms)::numeric, 1)
  FROM e2e GROUP BY measured ORDER BY measured" | tail -2 | {
  cold=(- - - -)
  [ "$WARMUP" -gt 0 ] && read -r _ cold[0] cold[1] cold[2] cold[3]
  read -r _ count p50 p99 max
  read -r hooks hook_rate < <(rate_of webhook | tr '|' ' ')
  read -r mails mail_rate < <(rate_of email | tr '|' ' ')
  echo "notify benchmark: $RATE webhooks/s for ${SECONDS_TO_RUN}s; tracing $TRACING_LINE; per-target cap ${DELIVERY_TARGET_CONCURRENCY:-16}, worker concurrency ${WORKER_CONCURRENCY:-32}"
  echo "  end to end          $count callbacks; webhook accepted -> callback received p50 ${p50} ms  p99 ${p99} ms  max ${max} ms (target p99 < 250 ms)"
  echo "  cpu per webhook     $CPU_LINE (the simulator makes the items too: the drive is one request)"
  echo "  first ${WARMUP}s after start ${cold[0]} callbacks; p50 ${cold[1]} ms  p99 ${cold[2]} ms  max ${cold[3]} ms (the warm-up, not in the figure above)"
  echo "  callbacks           $hooks delivered at $hook_rate/s to a local HTTP endpoint"
  echo "  emails              $mails delivered at $mail_rate/s to a local aiosmtpd that discards them (kept connections, up to the per-target cap)"
  echo "  relay RSS           $((RSS_KB / 1024)) MiB"
}
