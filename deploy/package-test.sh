#!/usr/bin/env bash
# Installs the Debian package on a fresh Debian 12 (bookworm) with no Swift toolchain and runs
# it: outside .ci/run, as it needs the release build (./deploy/package.sh, ~12 minutes cold).
#   ./deploy/package-test.sh      (PACKAGE=path.deb to test a package already built)
# It makes the root with debootstrap (kept in .local/package-test/ for the next run), installs
# the package with apt, checks the units with systemd-analyze (verify, and security --offline
# for each one's exposure), then as the package's user, against a private PostgreSQL on
# 127.0.0.1: migrate, config check --connect (PostgreSQL, and Entrupy played by the project's
# simulator on the host), serve (its worker too), a signed webhook stored. Prints the package's
# size, the time from start to ready and the idle resident memory.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
STATE=${PACKAGE_TEST_STATE:-$ROOT/.local/package-test}
CHROOT="$STATE/bookworm"
PG_PORT=${PACKAGE_TEST_PG_PORT:-54343}
RELAY_PORT=${PACKAGE_TEST_PORT:-8189}
OPS_PORT=${PACKAGE_TEST_OPS_PORT:-8190}
SIM_PORT=${PACKAGE_TEST_SIM_PORT:-8188}
log() { printf 'package-test: %s\n' "$*" >&2; }
mkdir -p "$STATE"

need=()
command -v debootstrap >/dev/null || need+=(debootstrap)
command -v openssl >/dev/null || need+=(openssl)
command -v curl >/dev/null || need+=(curl)
if [ ${#need[@]} -gt 0 ]; then
  log "installing ${need[*]}"; apt-get update -qq >&2; DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >&2
fi

DEB=${PACKAGE:-$("$ROOT/deploy/package.sh")}
log "package $(basename "$DEB"): $(stat -c %s "$DEB" | awk '{ printf "%.1f MB", $1 / 1e6 }')"

# A fresh root each run, from a pristine copy made once (debootstrap takes a few minutes).
if [ ! -x "$STATE/pristine/bin/sh" ]; then
  log "debootstrap bookworm (minbase, with systemd for the unit checks)"
  rm -rf "$STATE/pristine"
  debootstrap --variant=minbase --include=systemd,procps bookworm "$STATE/pristine" http://deb.debian.org/debian >&2
fi
umount "$CHROOT/proc" 2>/dev/null || true   # left mounted by a run that was killed
rm -rf --one-file-system "$CHROOT"
cp -a "$STATE/pristine" "$CHROOT"
mounted=()
cleanup() {
  [ -n "${RELAY_PID:-}" ] && kill -TERM "$RELAY_PID" 2>/dev/null && wait "$RELAY_PID" 2>/dev/null || true
  [ -n "${SIM_PID:-}" ] && kill -TERM "$SIM_PID" 2>/dev/null && wait "$SIM_PID" 2>/dev/null || true
  for m in "${mounted[@]}"; do umount "$m" 2>/dev/null || true; done
  (. "$ROOT/deploy/lib/postgres.sh"; pg_stop "$STATE/pg") >/dev/null 2>&1 || true
}
trap cleanup EXIT
mount -t proc proc "$CHROOT/proc"; mounted+=("$CHROOT/proc")
cp /etc/resolv.conf "$CHROOT/etc/resolv.conf"
if "$CHROOT/usr/bin/test" -x "$CHROOT/usr/bin/swift" 2>/dev/null; then log "the root has a Swift toolchain"; exit 1; fi

cp "$DEB" "$CHROOT/tmp/"
log "apt install $(basename "$DEB")"
chroot "$CHROOT" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "/tmp/$(basename "$DEB")" >&2
chroot "$CHROOT" dpkg -s entrupy-relay | sed -n 's/^Depends: /  depends: /p' >&2
log "entrupy-relay --version in the root: $(chroot "$CHROOT" entrupy-relay --version)"

log "systemd-analyze verify"
(cd "$CHROOT/lib/systemd/system" && systemd-analyze verify --root="$CHROOT" \
  entrupy-relay.service entrupy-relay-migrate.service entrupy-relay-worker@1.service entrupy-relay-check.service)
for unit in entrupy-relay.service entrupy-relay-migrate.service entrupy-relay-worker@.service entrupy-relay-check.service; do
  printf '  %s\n' "$(systemd-analyze security --offline=true --root="$CHROOT" "$unit" | tail -1)"
done

# A private PostgreSQL on the host's loopback, which the root shares.
PG_PORT=$PG_PORT
. "$ROOT/deploy/lib/postgres.sh"
pg_start "$STATE/pg" "$PG_PORT" >/dev/null
pg_create_db relay_package fresh
DB_URL="$PG_URL_BASE/relay_package?sslmode=disable"

# Entrupy, played by the project's simulator on the host's loopback (built beside the package).
SECRET=package-test-secret-0123456789 TOKEN=package-test-api-token
(cd "$ROOT" && swift build -c release --static-swift-stdlib --product entrupy-sim --scratch-path "$ROOT/.build-release" >&2)
"$ROOT/.build-release/release/entrupy-sim" --host 127.0.0.1 --port "$SIM_PORT" --webhook-url "http://127.0.0.1:9/none" \
  --webhook-secret "$SECRET" --api-token "$TOKEN" > "$STATE/sim.log" 2>&1 &
SIM_PID=$!

# The settings as an operator writes them: the env file, and the secrets as credential files.
install -m 0600 /dev/null "$CHROOT/etc/entrupy-relay/credentials/database-url"
printf '%s\n' "$DB_URL" > "$CHROOT/etc/entrupy-relay/credentials/database-url"
printf '%s\n' "$SECRET" > "$CHROOT/etc/entrupy-relay/credentials/entrupy-webhook-secrets"
printf '%s\n' "$TOKEN" > "$CHROOT/etc/entrupy-relay/credentials/entrupy-api-token"
sed -i "s/^ENTRUPY_RELAY_PORT=.*/ENTRUPY_RELAY_PORT=$RELAY_PORT/; s/^ENTRUPY_RELAY_METRICS_PORT=.*/ENTRUPY_RELAY_METRICS_PORT=$OPS_PORT/" "$CHROOT/etc/entrupy-relay/relay.env"
# What systemd does for the units (LoadCredential, EnvironmentFile, User=), done by hand: no
# systemd runs in the root. The credentials go where the service user can read them.
install -d -o root -g root -m 0755 "$CHROOT/run/credentials"
install -d -m 0750 "$CHROOT/run/credentials/entrupy-relay.service"
cp "$CHROOT"/etc/entrupy-relay/credentials/* "$CHROOT/run/credentials/entrupy-relay.service/"
chroot "$CHROOT" sh -c 'chown -R entrupy-relay:entrupy-relay /run/credentials/entrupy-relay.service; chmod 0400 /run/credentials/entrupy-relay.service/*'
CRED=/run/credentials/entrupy-relay.service
# chroot and env exec what they run, so a command started in the background keeps its PID.
AS_SERVICE=(chroot --userspec=entrupy-relay:entrupy-relay "$CHROOT" env -i PATH=/usr/bin:/bin
  $(grep -E '^[A-Z_]+=' "$CHROOT/etc/entrupy-relay/relay.env")
  DATABASE_URL_FILE=$CRED/database-url ENTRUPY_RELAY_ENTRUPY_WEBHOOK_SECRETS_FILE=$CRED/entrupy-webhook-secrets
  ENTRUPY_RELAY_ENTRUPY_API_TOKEN_FILE=$CRED/entrupy-api-token ENTRUPY_RELAY_ENTRUPY_API_URL=http://127.0.0.1:$SIM_PORT ENTRUPY_RELAY_LOG_LEVEL=warning)
log "migrate: $("${AS_SERVICE[@]}" entrupy-relay migrate)"
for _ in $(seq 1 100); do curl -fsS "http://127.0.0.1:$SIM_PORT/_sim/stats" >/dev/null 2>&1 && break; sleep 0.1; done
log "config check --connect, as the service:"
"${AS_SERVICE[@]}" entrupy-relay config check --connect >&2 || { log "config check failed"; exit 1; }

start=$(date +%s%N)
"${AS_SERVICE[@]}" entrupy-relay serve > "$STATE/serve.log" 2>&1 &
RELAY_PID=$!
ready=""
for _ in $(seq 1 600); do
  if curl -fsS "http://127.0.0.1:$OPS_PORT/readyz" >/dev/null 2>&1; then ready=$(( ($(date +%s%N) - start) / 1000000 )); break; fi
  kill -0 "$RELAY_PID" 2>/dev/null || { cat "$STATE/serve.log" >&2; log "serve exited"; exit 1; }
  sleep 0.05
done
[ -n "$ready" ] || { cat "$STATE/serve.log" >&2; log "serve was not ready within 30 s"; exit 1; }
log "ready: $(curl -fsS "http://127.0.0.1:$OPS_PORT/readyz")"

body='{"event":"session.completed","id":"evt-package-1","entrupy_id":"ENT-PKG-1","text_fields":{"customer_item_id":"sku-pkg"}}'
sig=$(printf '%s' "$body" | openssl dgst -sha256 -hmac "$SECRET" | sed 's/^.* //')
answer=$(curl -sS -w ' %{http_code}' -H 'Content-Type: application/json' -H "Entrupy-Signature: sha256=$sig" \
  --data-binary "$body" "http://127.0.0.1:$RELAY_PORT/webhooks/entrupy")
stored=$(PGPASSWORD=$PG_PASSWORD psql -X -tA -h 127.0.0.1 -p "$PG_PORT" -U relay -d relay_package \
  -c "SELECT count(*) FROM webhook_events WHERE event_id = 'evt-package-1'")
[ "${answer##* }" = 200 ] && [ "$stored" = 1 ] || { log "webhook: $answer, stored $stored"; cat "$STATE/serve.log" >&2; exit 1; }
sleep 3
rss=$(awk '/^VmRSS/ { print $2 }' "/proc/$RELAY_PID/status")
[ "$(readlink "/proc/$RELAY_PID/exe")" = "$CHROOT/usr/bin/entrupy-relay" ] || { log "PID $RELAY_PID is not the relay"; exit 1; }
kill -TERM "$RELAY_PID"; wait "$RELAY_PID" || true; RELAY_PID=""

printf 'package-test: entrupy-relay %s on Debian bookworm without Swift\n' "$(chroot "$CHROOT" entrupy-relay --version)"
printf '  package             %s\n' "$(stat -c %s "$DEB" | awk '{ printf "%.1f MB", $1 / 1e6 }')"
printf '  start to ready      %s ms (serve with its worker; /readyz on the operations port)\n' "$ready"
printf '  idle RSS            %s MiB\n' "$((rss / 1024))"
printf '  signed webhook      answered %s, stored %s\n' "${answer##* }" "$stored"
