#!/bin/sh
# For deploy/image-test.sh only: what the official postgres image's entrypoint does with the
# variables deploy/compose.yaml gives it (POSTGRES_USER, POSTGRES_DB, POSTGRES_PASSWORD_FILE,
# PGDATA), in a stand-in image built from Debian's postgresql-15, as this machine cannot pull
# the official one. Creates the cluster once, then runs the server as `postgres`.
set -eu
user=${POSTGRES_USER:-postgres}
db=${POSTGRES_DB:-$user}
install -d -o postgres -g postgres -m 2775 /var/run/postgresql
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  install -d -o postgres -g postgres -m 0700 "$PGDATA"
  pwfile=$(mktemp)
  cat "$POSTGRES_PASSWORD_FILE" > "$pwfile"; chown postgres "$pwfile"
  runuser -u postgres -- initdb -D "$PGDATA" -U "$user" --pwfile="$pwfile" --auth-host=scram-sha-256 \
    --auth-local=trust -E UTF8 --locale=C.UTF-8 >/dev/null
  rm -f "$pwfile"
  echo "listen_addresses = '*'" >> "$PGDATA/postgresql.conf"
  echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
  if [ "$db" != postgres ]; then
    echo "CREATE DATABASE \"$db\"" | runuser -u postgres -- postgres --single -D "$PGDATA" postgres >/dev/null
  fi
fi
exec runuser -u postgres -- postgres -D "$PGDATA"
