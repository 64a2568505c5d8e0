#!/usr/bin/env bash
# A throw-away PostgreSQL cluster for tests that stop and start the server (the suite's shared
# one must stay up). Uses the same set-up as deploy/local.sh (deploy/lib/postgres.sh).
#   pg_cluster.sh start DIR PORT       create once, start; prints the database URL of "relay"
#   pg_cluster.sh crash DIR            stop with -m immediate (no checkpoint, like a power cut)
#   pg_cluster.sh halt DIR             stop with -m fast, keeping the cluster (start it again later)
#   pg_cluster.sh stop DIR             stop with -m fast and delete the cluster
#   pg_cluster.sh bindir -             the folder of the server's binaries (pg_dump, pg_restore, ...)
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
command=${1:?start|crash|halt|stop}; dir=${2:?DIR}
export PG_PORT=${3:-0}
. "$ROOT/deploy/lib/postgres.sh"
data_dir() { for base in "$dir/pg" /tmp/entrupy-relay-pg-$(printf '%s' "$dir/pg" | sha256sum | cut -c1-12); do
  [ -f "$base/data/PG_VERSION" ] && { echo "$base/data"; return; }; done; return 1; }
case "$command" in
  start)
    # The server must not inherit our descriptors: a parent that learns of our exit from a
    # pipe (Foundation's Process) would otherwise wait for the server to stop too.
    ( for fd in /proc/$BASHPID/fd/*; do n=${fd##*/}; [ "$n" -gt 2 ] && eval "exec $n>&-" 2>/dev/null; done
      pg_start "$dir" "$PG_PORT" ) 2>/dev/null
    pg_start "$dir" "$PG_PORT" 2>/dev/null
    pg_create_db relay_fault
    echo "postgres://relay:$PG_PASSWORD@127.0.0.1:$PG_PORT/relay_fault?sslmode=disable" ;;
  crash)
    PG_BIN=$(pg_find_bindir); pg_as_owner "$PG_BIN/pg_ctl" -D "$(data_dir)" -m immediate -w stop >/dev/null ;;
  halt)
    PG_BIN=$(pg_find_bindir); pg_as_owner "$PG_BIN/pg_ctl" -D "$(data_dir)" -m fast -w stop >/dev/null ;;
  stop)
    PG_BIN=$(pg_find_bindir); pg_as_owner "$PG_BIN/pg_ctl" -D "$(data_dir)" -m fast -w stop >/dev/null || true
    rm -rf "$dir" "/tmp/entrupy-relay-pg-$(printf '%s' "$dir/pg" | sha256sum | cut -c1-12)" ;;
  bindir)
    pg_find_bindir ;;
  *) echo "usage: pg_cluster.sh start|crash|halt|stop|bindir DIR [PORT]" >&2; exit 2 ;;
esac
