# Shared by deploy/local.sh and deploy/bench/*.sh: a private PostgreSQL cluster on 127.0.0.1.
# Installs PostgreSQL with apt-get when its binaries are missing; runs the server as the
# `postgres` user when we are root (initdb and postgres refuse root).

pg_log() { printf '%s\n' "local.sh: $*" >&2; }

pg_find_bindir() {
  local dir
  for dir in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ] && { echo "$dir"; return 0; }
  done
  if command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then
    dirname "$(command -v initdb)"; return 0
  fi
  return 1
}

pg_ensure_installed() {
  if PG_BIN=$(pg_find_bindir) && command -v psql >/dev/null 2>&1; then return 0; fi
  if [ "$(id -u)" -ne 0 ]; then
    pg_log "PostgreSQL is not installed; run as root, or: sudo apt-get install -y postgresql"; exit 1
  fi
  pg_log "installing PostgreSQL with apt-get"
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql postgresql-client >&2
  PG_BIN=$(pg_find_bindir) || { pg_log "PostgreSQL binaries still not found after install"; exit 1; }
}

# Runs a PostgreSQL server binary as the account that owns the cluster.
pg_as_owner() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

# Picks the cluster folder: $1 when the server's account can reach it, else one under /tmp.
pg_choose_dir() {
  local wanted=$1
  mkdir -p "$wanted"
  if [ "$(id -u)" -eq 0 ]; then
    id postgres >/dev/null 2>&1 || useradd --system --home-dir /var/lib/postgresql --shell /bin/bash postgres
    chown postgres: "$wanted"
    if runuser -u postgres -- test -w "$wanted"; then echo "$wanted"; return; fi
    local fallback="/tmp/entrupy-relay-pg-$(printf '%s' "$wanted" | sha256sum | cut -c1-12)"
    mkdir -p "$fallback"; chown postgres: "$fallback"; chmod 700 "$fallback"
    pg_log "postgres cannot reach $wanted; using $fallback"
    echo "$fallback"
  else
    echo "$wanted"
  fi
}

# pg_start STATE_DIR PORT [CONF_LINE...]: creates (once) and starts the cluster; extra lines go
# into postgresql.conf when it is created. Sets PG_URL_BASE and PG_PASSWORD.
pg_start() {
  local state=$1 port=$2; shift 2
  local extra_conf=""
  [ $# -gt 0 ] && extra_conf=$(printf '%s\n' "$@")
  pg_ensure_installed
  mkdir -p "$state"
  local base; base=$(pg_choose_dir "$state/pg")
  PG_DATA="$base/data"; PG_SOCKETS="$base/sockets"; PG_LOGFILE="$base/postgres.log"
  local pwfile="$state/pg-password"
  if [ ! -s "$pwfile" ]; then
    umask 077; head -c 18 /dev/urandom | base64 | tr -d '/+=' > "$pwfile"
  fi
  PG_PASSWORD=$(cat "$pwfile")
  if [ ! -f "$PG_DATA/PG_VERSION" ]; then
    pg_log "creating a PostgreSQL cluster in $PG_DATA (port $port)"
    local tmp_pw; tmp_pw=$(mktemp); printf '%s\n' "$PG_PASSWORD" > "$tmp_pw"
    [ "$(id -u)" -eq 0 ] && chown postgres: "$tmp_pw"
    pg_as_owner "$PG_BIN/initdb" --no-sync -D "$PG_DATA" -U relay --pwfile="$tmp_pw" \
      --auth-host=scram-sha-256 --auth-local=scram-sha-256 -E UTF8 --locale=C.UTF-8 >/dev/null
    rm -f "$tmp_pw"
    pg_as_owner mkdir -p "$PG_SOCKETS"
    pg_as_owner tee -a "$PG_DATA/postgresql.conf" >/dev/null <<CONF
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$PG_SOCKETS'
# The test suite runs about 70 suites at once, each relay with its own pools (300 ran out).
max_connections = 500
shared_buffers = 256MB
log_min_messages = warning
$extra_conf
CONF
  fi
  if pg_as_owner "$PG_BIN/pg_ctl" -D "$PG_DATA" status >/dev/null 2>&1; then
    pg_log "PostgreSQL already running on 127.0.0.1:$port"
  else
    # The port asked for now wins over the one written when the cluster was created.
    pg_as_owner "$PG_BIN/pg_ctl" -D "$PG_DATA" -l "$PG_LOGFILE" -o "-p $port" -w -t 60 start >/dev/null \
      || { pg_log "PostgreSQL did not start; see $PG_LOGFILE"; tail -20 "$PG_LOGFILE" >&2; exit 1; }
    pg_log "PostgreSQL started on 127.0.0.1:$port"
  fi
  PG_URL_BASE="postgres://relay:$PG_PASSWORD@127.0.0.1:$port"
}

# pg_create_db NAME [fresh]: creates the database; with "fresh", drops it first.
pg_create_db() {
  local name=$1 fresh=${2:-}
  export PGPASSWORD=$PG_PASSWORD
  local psql=(psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$PG_PORT" -U relay -d postgres)
  if [ "$fresh" = fresh ]; then "${psql[@]}" -c "DROP DATABASE IF EXISTS \"$name\" WITH (FORCE)" >/dev/null; fi
  if [ -z "$("${psql[@]}" -tAc "SELECT 1 FROM pg_database WHERE datname = '$name'")" ]; then
    "${psql[@]}" -c "CREATE DATABASE \"$name\"" >/dev/null
  fi
  unset PGPASSWORD
}

# pg_enable_tls STATE_DIR: TLS on the running cluster (plaintext connections still work), with
# a certificate for "localhost" only, signed by a CA of its own (STATE_DIR/tls/ca.crt): what
# the tests of libpq's sslmode values connect to. Needs pg_start first.
pg_enable_tls() {
  local tls="$1/tls"
  if ! command -v openssl >/dev/null; then
    pg_log "installing openssl"; apt-get update -qq >&2; DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openssl >&2
  fi
  if [ ! -s "$tls/server.crt" ]; then
    mkdir -p "$tls"
    openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj "/CN=entrupy-relay test CA" \
      -keyout "$tls/ca.key" -out "$tls/ca.crt" 2>/dev/null
    openssl req -newkey rsa:2048 -nodes -subj "/CN=localhost" -keyout "$tls/server.key" -out "$tls/server.csr" 2>/dev/null
    printf 'subjectAltName=DNS:localhost\n' > "$tls/server.ext"
    openssl x509 -req -in "$tls/server.csr" -CA "$tls/ca.crt" -CAkey "$tls/ca.key" -CAcreateserial -days 3650 \
      -extfile "$tls/server.ext" -out "$tls/server.crt" 2>/dev/null
  fi
  chmod 644 "$tls/ca.crt"
  local owner=(); [ "$(id -u)" -eq 0 ] && owner=(-o postgres -g postgres)
  install "${owner[@]}" -m 600 "$tls/server.crt" "$PG_DATA/server.crt"
  install "${owner[@]}" -m 600 "$tls/server.key" "$PG_DATA/server.key"
  PGPASSWORD=$PG_PASSWORD psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$PG_PORT" -U relay -d postgres \
    -c "ALTER SYSTEM SET ssl = on" -c "SELECT pg_reload_conf()" >/dev/null
}

pg_stop() {
  local state=$1
  PG_BIN=$(pg_find_bindir) || return 0
  local base
  for base in "$state/pg" /tmp/entrupy-relay-pg-$(printf '%s' "$state/pg" | sha256sum | cut -c1-12); do
    if [ -f "$base/data/postmaster.pid" ]; then
      pg_as_owner "$PG_BIN/pg_ctl" -D "$base/data" -m fast -w stop >/dev/null && pg_log "PostgreSQL stopped"
    fi
  done
}
