# Shared by deploy/bench/*.sh: tools, a release build, and a fresh database on a private
# PostgreSQL cluster (port 54339, fsync on) that the benchmarks may wipe.
ROOT=${ROOT:?}
STATE=${BENCH_STATE_DIR:-$ROOT/.local/bench}
PG_PORT=${BENCH_PG_PORT:-54339}
export PG_PORT
. "$ROOT/deploy/lib/postgres.sh"
log() { printf '%s\n' "bench: $*" >&2; }

# bench_setup DB PRODUCT...: installs wrk/curl/openssl if missing, builds the products in
# release (in .build-bench/), starts the cluster, recreates DB, migrates. Sets BIN_DIR, DB_URL, PSQL.
bench_setup() {
  local db=$1; shift
  local need=()
  command -v wrk >/dev/null || need+=(wrk)
  command -v openssl >/dev/null || need+=(openssl)
  command -v curl >/dev/null || need+=(curl)
  if [ ${#need[@]} -gt 0 ]; then
    log "installing ${need[*]}"; apt-get update -qq >&2; DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >&2
  fi
  local product
  if [ -n "${BENCH_SKIP_BUILD:-}" ]; then
    # Measure the binaries already in .build-bench/release (say, while the sources are being edited).
    log "using the release build in .build-bench as it is (BENCH_SKIP_BUILD)"
  else
    log "building release ($*); a cold build takes about 6 minutes"
    for product in "$@"; do
      (cd "$ROOT" && swift build -c release --product "$product" --scratch-path "$ROOT/.build-bench" >&2)
    done
  fi
  BIN_DIR="$ROOT/.build-bench/release"
  pg_start "$STATE" "$PG_PORT"
  pg_create_db "$db" fresh
  DB_URL="$PG_URL_BASE/$db?sslmode=disable"
  PSQL=(psql -X -q -h 127.0.0.1 -p "$PG_PORT" -U relay -d "$db")
  export PGPASSWORD=$PG_PASSWORD
  # BENCH_MIGRATE_BIN: another release's binary migrates instead (upgrade-check.sh's old one).
  DATABASE_URL=$DB_URL ENTRUPY_RELAY_LOG_LEVEL=warning "${BENCH_MIGRATE_BIN:-$BIN_DIR/entrupy-relay}" migrate >/dev/null
}

# wait_count N SECONDS QUERY: waits up to SECONDS until QUERY (a count) reaches N, then prints
# it. One session asks four times a second, committing in between so that it holds no snapshot
# back from vacuum. A psql started for every poll (ten a second) took an eighth of the two cores
# while the outbox's throughput was measured.
wait_count() {
  local want=$1 seconds=$2 query=$3
  "${PSQL[@]}" -v ON_ERROR_STOP=1 -tA -c "DO \$\$ BEGIN
      FOR i IN 1..$((seconds * 4)) LOOP
        EXIT WHEN ($query) >= $want;
        COMMIT;
        PERFORM pg_sleep(0.25);
      END LOOP;
    END \$\$" -c "$query"
}

# wait_http URL: up to 10 s for a 2xx.
wait_http() {
  local _
  for _ in $(seq 1 100); do curl -fsS "$1" >/dev/null 2>&1 && return 0; sleep 0.1; done
  log "$1 did not answer"; return 1
}

# cpu_of PID: the process's user + system CPU so far, in clock ticks (TICKS a second).
cpu_of() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0; }
# pg_cpu: the same for the cluster's server processes (backends come and go: sample around the load).
pg_cpu() {
  local master; master=$(head -1 "$PG_DATA/postmaster.pid" 2>/dev/null || pg_as_owner head -1 "$PG_DATA/postmaster.pid")
  local total=0 pid
  for pid in $(pgrep -P "$master"); do total=$((total + $(cpu_of "$pid"))); done
  echo "$total"
}
TICKS=$(getconf CLK_TCK)
# ms_each TICKS N: CPU ticks spread over N items, in milliseconds each (two decimals).
ms_each() { awk -v t="$1" -v n="$2" -v k="$TICKS" 'BEGIN {printf "%.2f", t * 1000 / k / n}'; }

# settle SECONDS: waits (up to SECONDS) until every stored webhook is processed and every
# delivery delivered or dead: what the fault runs (chaos.sh, upgrade-check.sh) wait for at the end.
settle() {
  log "settling: every stored webhook processed, every delivery delivered or dead (up to $1 s)"
  local pending
  for _ in $(seq 1 "$1"); do
    pending=$("${PSQL[@]}" -tAc "SELECT (SELECT count(*) FROM webhook_events WHERE state NOT IN ('processed', 'unrecognised', 'unparseable'))
                                      + (SELECT count(*) FROM deliveries WHERE state NOT IN ('delivered', 'dead'))")
    [ "$pending" -eq 0 ] && return 0
    sleep 1
  done
}

# count_acknowledged ACKED_FILE: sets SENT, ACKED and LOST (acknowledged by the relay, not
# stored) from signed_hints.py's files and the stored webhook events.
count_acknowledged() {
  local acked_file=$1
  SENT=$(cat "$acked_file.sent" 2>/dev/null || echo "?")
  ACKED=$(sort -u "$acked_file" | wc -l)
  LOST=$(comm -23 <(sort -u "$acked_file") <("${PSQL[@]}" -tAc "SELECT event_id FROM webhook_events WHERE event_id IS NOT NULL" | sort -u) | wc -l)
}

# create_sim_items COUNT PREFIX FILE: COUNT items in the simulator (SIM_PORT), made without a
# webhook (customer item IDs PREFIX-1...), their Entrupy IDs written one a line to FILE.
create_sim_items() {
  local count=$1 prefix=$2 file=$3 n
  : > "$file"
  for n in $(seq 1 "$count"); do
    curl -fsS -X POST "http://127.0.0.1:$SIM_PORT/_sim/items" -d "{\"customer_item_id\":\"$prefix-$n\",\"webhook\":false}" \
      | sed -E 's/.*"entrupy_id":"([^"]+)".*/\1/' >> "$file"
    echo >> "$file"
  done
}
