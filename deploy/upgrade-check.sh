#!/usr/bin/env bash
# A rolling upgrade, for real: the release before (OLD_REF) serves and works under load; the
# new binary migrates the live database; the new serve and worker join beside the old ones;
# the old ones are stopped. Prints what the promise is about: acknowledged webhooks lost (0),
# stored webhooks left unprocessed (0), deliveries not settled (0), the old replicas' exit
# status after SIGTERM (0) and the errors they logged once the new schema was in (none).
#   ./deploy/upgrade-check.sh OLD_REF      (DURATION=60 RATE=40 ITEMS=100 by default)
# OLD_REF is built in its own worktree (.local/upgrade-check/old; a release build, minutes
# cold); OLD_BIN=path uses an old entrupy-relay already built. Outside .ci/run.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OLD_REF=${1:?usage: deploy/upgrade-check.sh OLD_REF (a commit or tag of the release before)}
DURATION=${DURATION:-60}
RATE=${RATE:-40}
ITEMS=${ITEMS:-100}
SIM_PORT=${BENCH_SIM_PORT:-8191} OLD_PORT=${BENCH_OLD_PORT:-8192} NEW_PORT=${BENCH_NEW_PORT:-8193} SINK_PORT=${BENCH_SINK_PORT:-8194}
export BENCH_STATE_DIR=${BENCH_STATE_DIR:-$ROOT/.local/upgrade-check}
export BENCH_PG_PORT=${BENCH_PG_PORT:-54344}
. "$ROOT/deploy/lib/bench.sh"
mkdir -p "$STATE"

# The release before, built from its own worktree unless given.
if [ -z "${OLD_BIN:-}" ]; then
  OLD_TREE="$STATE/old"
  if [ ! -d "$OLD_TREE" ]; then git -C "$ROOT" worktree add --detach "$OLD_TREE" "$OLD_REF" >&2; fi
  git -C "$OLD_TREE" checkout -q --detach "$OLD_REF"
  log "building $OLD_REF (release) in $OLD_TREE"
  (cd "$OLD_TREE" && swift build -c release --product entrupy-relay --scratch-path "$OLD_TREE/.build-bench" >&2)
  OLD_BIN="$OLD_TREE/.build-bench/release/entrupy-relay"
fi
# The new release, the simulator and the sink; a fresh database that the OLD binary migrates.
BENCH_MIGRATE_BIN=$OLD_BIN bench_setup relay_upgrade entrupy-relay entrupy-sim relay-bench
NEW_BIN="$BIN_DIR/entrupy-relay"
log "old: $OLD_REF; new: $("$NEW_BIN" --version)"

SECRET=upgrade-webhook-secret-0123456789 TOKEN=upgrade-api-token
CALLBACK_SECRET=whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw
cat > "$STATE/rules.yaml" <<YAML
rules:
  - name: upgrade-callback
    when: {transition: [result.final, flag.raised]}
    notify:
      - webhook: {url: "http://127.0.0.1:$SINK_PORT/hook", secret: "\${UPGRADE_CALLBACK_SECRET}"}
YAML
export DATABASE_URL=$DB_URL ENTRUPY_RELAY_ENTRUPY_WEBHOOK_SECRETS=$SECRET ENTRUPY_RELAY_ENTRUPY_API_URL="http://127.0.0.1:$SIM_PORT" \
  ENTRUPY_RELAY_ENTRUPY_API_TOKEN=$TOKEN ENTRUPY_RELAY_ENTRUPY_API_RATE=1000 ENTRUPY_RELAY_LOG_LEVEL=warning ENTRUPY_RELAY_JOB_POLL_MS=200 ENTRUPY_RELAY_RULES_FILE="$STATE/rules.yaml" \
  UPGRADE_CALLBACK_SECRET=$CALLBACK_SECRET ENTRUPY_RELAY_ALLOW_PRIVATE_CALLBACKS=true ENTRUPY_RELAY_SHUTDOWN_GRACE_SECONDS=10 ENTRUPY_RELAY_SYNC_INTERVAL_SECONDS=0
# Releases before 0.1.0 read the same settings without the prefix (the new one warns of them).
for name in $(compgen -e); do
  case $name in ENTRUPY_RELAY_*) export "${name#ENTRUPY_RELAY_}=${!name}" ;; esac
done

"$BIN_DIR/relay-bench" sink --port "$SINK_PORT" --out "$STATE/arrivals.csv" > "$STATE/sink.log" 2>&1 &
SINK_PID=$!
# Every change below is made without a webhook: the load's signed hints are the only ones.
"$BIN_DIR/entrupy-sim" --port "$SIM_PORT" --webhook-url "http://127.0.0.1:9/none" --webhook-secret "$SECRET" \
  --api-token "$TOKEN" > "$STATE/sim.log" 2>&1 &
SIM_PID=$!
declare -A PIDS
start() { # start NAME BINARY ARGS...
  local name=$1; shift
  "$@" > "$STATE/$name.log" 2>&1 &
  PIDS[$name]=$!
}
cleanup() { kill -TERM "${PIDS[@]}" "$SIM_PID" "$SINK_PID" "${LOAD_PID:-}" 2>/dev/null || true; }
trap cleanup EXIT
start old-serve "$OLD_BIN" serve --port "$OLD_PORT"
start old-worker "$OLD_BIN" worker
wait_http "http://127.0.0.1:$OLD_PORT/readyz"; wait_http "http://127.0.0.1:$SIM_PORT/_sim/stats"
curl -fsS -X POST "http://127.0.0.1:$SIM_PORT/_sim/config" -d '{"rate_limit_per_second": 0}' >/dev/null

create_sim_items "$ITEMS" upgrade "$STATE/items.txt"
echo "$OLD_PORT" > "$STATE/ports.txt"

# Signed hints to whichever serve replicas are listed in ports.txt; the ones answered 2xx are
# written down (what the relay acknowledged and so must keep).
python3 "$ROOT/deploy/bench/signed_hints.py" "$SECRET" "$RATE" "$DURATION" "$STATE/items.txt" "$STATE/acked.txt" "$STATE/ports.txt" upgrade &
LOAD_PID=$!

change_items() { # results and flags move on, without webhooks
  local id
  for _ in 1 2 3; do
    id=$(shuf -n1 "$STATE/items.txt")
    case $((RANDOM % 3)) in
      0) curl -fsS -m 5 -X POST "http://127.0.0.1:$SIM_PORT/_sim/items/$id/result" -d '{"result":"authentic","final":true,"webhook":false}' >/dev/null || true ;;
      1) curl -fsS -m 5 -X POST "http://127.0.0.1:$SIM_PORT/_sim/items/$id/flag" -d '{"flag":"flagged","webhook":false}' >/dev/null || true ;;
      2) curl -fsS -m 5 -X POST "http://127.0.0.1:$SIM_PORT/_sim/items/$id/flag" -d '{"flag":"resolved","webhook":false}' >/dev/null || true ;;
    esac
  done
}
phase() { local until=$1; while [ "$SECONDS" -lt "$until" ]; do change_items; sleep 1; done; }
begin=$SECONDS
phase $((begin + DURATION / 4))
log "the new binary migrates the live database"
migrated=$("$NEW_BIN" migrate)
log "  $migrated"
schema_at=$(date +%s)
phase $((begin + DURATION / 2))
log "the new serve and worker join beside the old ones"
start new-serve "$NEW_BIN" serve --port "$NEW_PORT"
start new-worker "$NEW_BIN" worker
wait_http "http://127.0.0.1:$NEW_PORT/readyz"
echo "$OLD_PORT $NEW_PORT" > "$STATE/ports.txt"
phase $((begin + 3 * DURATION / 4))
log "the old replicas are stopped (SIGTERM)"
echo "$NEW_PORT" > "$STATE/ports.txt"
sleep 1
old_died=0
for name in old-serve old-worker; do kill -0 "${PIDS[$name]}" 2>/dev/null || { old_died=$((old_died + 1)); log "$name had died"; }; done
kill -TERM "${PIDS[old-serve]}" "${PIDS[old-worker]}" 2>/dev/null || true
status_serve=0 status_worker=0
wait "${PIDS[old-serve]}" || status_serve=$?
wait "${PIDS[old-worker]}" || status_worker=$?
old_pids="${PIDS[old-serve]}|${PIDS[old-worker]}"
unset 'PIDS[old-serve]' 'PIDS[old-worker]'
phase $((begin + DURATION))
wait "$LOAD_PID" || true
settle 120
new_died=0
for name in new-serve new-worker; do kill -0 "${PIDS[$name]}" 2>/dev/null || { new_died=$((new_died + 1)); log "$name died"; }; done
count_acknowledged "$STATE/acked.txt"
old_errors=$(cat "$STATE/old-serve.log" "$STATE/old-worker.log" | grep -c -E '"level":"(error|critical)"| (error|critical) ' || true)
"${PSQL[@]}" -tA -F ' ' -c "
  SELECT (SELECT count(*) FROM webhook_events),
         (SELECT count(*) FROM webhook_events WHERE state NOT IN ('processed', 'unrecognised', 'unparseable')),
         (SELECT count(*) FROM item_events),
         (SELECT count(*) FROM deliveries WHERE state = 'delivered'), (SELECT count(*) FROM deliveries WHERE state = 'dead'),
         (SELECT count(*) FROM deliveries WHERE state NOT IN ('delivered', 'dead')),
         (SELECT count(*) FROM deliveries WHERE idempotency_key LIKE 'dlv_%' AND created_at > to_timestamp($schema_at)),
         (SELECT count(*) FROM jobs WHERE state = 'dead'),
         (SELECT count(*) FROM jobs WHERE state = 'completed' AND finished_at > to_timestamp($schema_at)
                                       AND leased_by ~ '-($old_pids)-[0-9a-f]+\$'),
         (SELECT max(version) FROM schema_migrations)
" | {
  read -r stored unprocessed transitions delivered dead unsettled since_schema dead_jobs old_after version
  echo "upgrade check: $OLD_REF -> $("$NEW_BIN" --version), ${DURATION}s at $RATE webhooks/s, $ITEMS items"
  echo "  schema               migrated to $version while the old release served and worked (${DURATION}s/4 in)"
  echo "  webhooks             $SENT sent, $ACKED acknowledged, $stored stored, lost $LOST, unprocessed $unprocessed"
  echo "  reconciled           $transitions transitions; deliveries $delivered delivered, $dead dead, $unsettled unsettled ($since_schema made after the new schema)"
  echo "  jobs                 $dead_jobs dead"
  echo "  old replicas         $old_after jobs finished on the new schema; exit on SIGTERM: serve $status_serve, worker $status_worker; died before: $old_died; error lines logged: $old_errors"
  echo "  new replicas         died: $new_died"
}
