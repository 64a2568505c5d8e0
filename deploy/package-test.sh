#!/usr/bin/env bash
# Installs the Debian package on a fresh Debian 12 (bookworm) with no Swift toolchain, boots
# systemd in it and runs the shipped units for real: outside .ci/run, as it needs the release
# build (./deploy/package.sh, ~12 minutes cold).
#   ./deploy/package-test.sh      (PACKAGE=path.deb to test a package already built;
#                                  PACKAGE_SKIP_BUILD=1 packages the release binary already built)
# It makes the root with debootstrap from this machine's own apt mirror (kept in
# .local/package-test/ for the next run), checks the units with systemd-analyze (verify, and
# security --offline for each one's exposure), boots the root with systemd-nspawn (sharing the
# host's network, so a private PostgreSQL and Entrupy, played by the project's simulator, are
# on 127.0.0.1), installs the package with apt inside it, then with systemctl: the migrate unit,
# serve (Type=notify, LoadCredential, the hardening) and a worker replica on its operations port;
# SIGHUP through ExecReload; the first admin token through entrupy-relay-admin, used against
# /v1/items; the example rules checked through it with a drop-in credential; a signed webhook
# stored. Prints the package's size, the time from start to ready and the idle resident memory.
# If this machine cannot boot systemd in a container, it says what refused and runs the binary
# by hand in a chroot instead, as the units would (PACKAGE_TEST_CHROOT=1 chooses that path).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=deploy/lib/release.sh
. "$ROOT/deploy/lib/release.sh"
STATE=${PACKAGE_TEST_STATE:-$ROOT/.local/package-test}
CHROOT="$STATE/bookworm"
PG_PORT=${PACKAGE_TEST_PG_PORT:-54343}
RELAY_PORT=${PACKAGE_TEST_PORT:-8189}
OPS_PORT=${PACKAGE_TEST_OPS_PORT:-8190}
SIM_PORT=${PACKAGE_TEST_SIM_PORT:-8188}
WORKER_PORT=${PACKAGE_TEST_WORKER_PORT:-8191}
MACHINE=entrupy-relay-test
log() { printf 'package-test: %s\n' "$*" >&2; }
mkdir -p "$STATE"

need=()
command -v debootstrap >/dev/null || need+=(debootstrap)
command -v openssl >/dev/null || need+=(openssl)
command -v curl >/dev/null || need+=(curl)
command -v systemd-nspawn >/dev/null || need+=(systemd-container)
if [ ${#need[@]} -gt 0 ]; then
  log "installing ${need[*]}"; apt-get update -qq >&2; DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >&2
fi

DEB=${PACKAGE:-$("$ROOT/deploy/package.sh")}
log "package $(basename "$DEB"): $(stat -c %s "$DEB" | awk '{ printf "%.1f MB", $1 / 1e6 }')"

# The Debian mirror this machine's apt uses for bookworm itself (not -security, not -updates).
mirror() {
  [ -n "${PACKAGE_TEST_MIRROR:-}" ] && { echo "$PACKAGE_TEST_MIRROR"; return; }
  local found
  found=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '
    /^$/ { if (deb && suite && uri) { print uri; exit } deb = suite = 0; uri = ""; next }
    /^Types:/ { deb = / deb( |$)/ }
    /^URIs:/ { uri = $2 }
    /^Suites:/ { for (i = 2; i <= NF; i++) if ($i == "bookworm") suite = 1 }
    END { if (deb && suite && uri) print uri }' | head -1)
  [ -n "$found" ] || found=$(sed -n 's/^deb \(\[[^]]*\] \)\{0,1\}\([^ ]*\) bookworm .*/\2/p' /etc/apt/sources.list 2>/dev/null | head -1)
  [ -n "$found" ] || { log "no bookworm mirror in /etc/apt/sources.list*: set PACKAGE_TEST_MIRROR"; exit 1; }
  echo "$found"
}

# Unmounts whatever is mounted under $1 (debootstrap and a killed run may leave /proc there).
unmount_under() {
  local m
  for m in $(awk -v d="$1/" 'index($2, d) == 1 { print $2 }' /proc/mounts | sort -r); do umount -l "$m" 2>/dev/null || true; done
}

# A fresh root each run, from a pristine copy made once (debootstrap takes a minute or two).
# Only systemd is added to minbase: what else the package needs (procps for ExecReload, D-Bus
# for entrupy-relay-admin) must come with the package's own dependencies.
if [ ! -x "$STATE/pristine/lib/systemd/systemd" ]; then
  log "debootstrap bookworm (minbase, with systemd) from $(mirror)"
  rm -rf --one-file-system "$STATE/pristine"
  debootstrap --variant=minbase --include=systemd bookworm "$STATE/pristine" "$(mirror)" >&2
  unmount_under "$STATE/pristine"
fi
unmount_under "$CHROOT"
rm -rf --one-file-system "$CHROOT"
cp -ax "$STATE/pristine" "$CHROOT"
cp /etc/resolv.conf "$CHROOT/etc/resolv.conf"
if "$CHROOT/usr/bin/test" -x "$CHROOT/usr/bin/swift" 2>/dev/null; then log "the root has a Swift toolchain"; exit 1; fi
cp "$DEB" "$CHROOT/root/"   # not /tmp: the booted root mounts a tmpfs there

NSPAWN_PID="" SIM_PID="" RELAY_PID=""
cleanup() {
  [ -n "$RELAY_PID" ] && kill -TERM "$RELAY_PID" 2>/dev/null && wait "$RELAY_PID" 2>/dev/null || true
  if [ -n "$NSPAWN_PID" ] && kill -0 "$NSPAWN_PID" 2>/dev/null; then
    kill -TERM "$NSPAWN_PID" 2>/dev/null   # nspawn halts the booted system in order
    for _ in $(seq 1 100); do kill -0 "$NSPAWN_PID" 2>/dev/null || break; sleep 0.2; done
    kill -KILL "$NSPAWN_PID" 2>/dev/null || true
    wait "$NSPAWN_PID" 2>/dev/null || true
  fi
  [ -n "$SIM_PID" ] && kill -TERM "$SIM_PID" 2>/dev/null && wait "$SIM_PID" 2>/dev/null || true
  unmount_under "$CHROOT"
  (. "$ROOT/deploy/lib/postgres.sh"; pg_stop "$STATE/pg") >/dev/null 2>&1 || true
}
trap cleanup EXIT

# A private PostgreSQL on the host's loopback, which the root shares.
PG_PORT=$PG_PORT
. "$ROOT/deploy/lib/postgres.sh"
pg_start "$STATE/pg" "$PG_PORT" >/dev/null
pg_create_db relay_package fresh
DB_URL="$PG_URL_BASE/relay_package?sslmode=disable"

# Entrupy, played by the project's simulator on the host's loopback (built beside the package).
SECRET=package-test-secret-0123456789 TOKEN=package-test-api-token
SIM="$ROOT/.build-release/release/entrupy-sim"
if [ -z "${PACKAGE_SKIP_BUILD:-}" ] || [ ! -x "$SIM" ]; then
  release_build "$ROOT/.build-release" entrupy-sim
fi
"$SIM" --host 127.0.0.1 --port "$SIM_PORT" --webhook-url "http://127.0.0.1:9/none" \
  --webhook-secret "$SECRET" --api-token "$TOKEN" > "$STATE/sim.log" 2>&1 &
SIM_PID=$!
for _ in $(seq 1 100); do curl -fsS "http://127.0.0.1:$SIM_PORT/_sim/stats" >/dev/null 2>&1 && break; sleep 0.1; done

# The secrets as an operator writes them: files in the root-only credentials folder.
write_credentials() {
  install -d -m 0700 "$CHROOT/etc/entrupy-relay/credentials"
  (umask 077
   printf '%s\n' "$DB_URL" > "$CHROOT/etc/entrupy-relay/credentials/database-url"
   printf '%s\n' "$SECRET" > "$CHROOT/etc/entrupy-relay/credentials/entrupy-webhook-secrets"
   printf '%s\n' "$TOKEN" > "$CHROOT/etc/entrupy-relay/credentials/entrupy-api-token")
}
# The settings as an operator writes them, in relay.env: this test's ports and the simulator.
write_settings() {
  sed -i "s/^ENTRUPY_RELAY_PORT=.*/ENTRUPY_RELAY_PORT=$RELAY_PORT/; s/^ENTRUPY_RELAY_METRICS_PORT=.*/ENTRUPY_RELAY_METRICS_PORT=$OPS_PORT/
          s/^ENTRUPY_RELAY_LOG_LEVEL=.*/ENTRUPY_RELAY_LOG_LEVEL=warning/" "$CHROOT/etc/entrupy-relay/relay.env"
  printf 'ENTRUPY_RELAY_ENTRUPY_API_URL=http://127.0.0.1:%s\n' "$SIM_PORT" >> "$CHROOT/etc/entrupy-relay/relay.env"
}

# The installed units, checked offline (verify fails on a command that is not there, such as
# ExecReload's /bin/kill without procps), with each one's exposure.
verify_units() {
  log "systemd-analyze verify"
  (cd "$CHROOT/lib/systemd/system" && systemd-analyze verify --root="$CHROOT" \
    entrupy-relay.service entrupy-relay-migrate.service "entrupy-relay-worker@$WORKER_PORT.service" entrupy-relay-check.service)
  local unit
  for unit in entrupy-relay.service entrupy-relay-migrate.service entrupy-relay-worker@.service entrupy-relay-check.service; do
    printf '  %s\n' "$(systemd-analyze security --offline=true --root="$CHROOT" "$unit" | tail -1)" >&2
  done
}

# Waits for 200 from $1; prints the milliseconds since $2 (date +%s%N), or fails after 30 s.
wait_ready() {
  local _
  for _ in $(seq 1 600); do
    if curl -fsS "$1" >/dev/null 2>&1; then echo $(( ($(date +%s%N) - $2) / 1000000 )); return 0; fi
    sleep 0.05
  done
  return 1
}

# A signed webhook to the relay: prints "<status> <stored count>".
send_webhook() {
  local body sig answer stored
  body='{"event":"session.completed","id":"evt-package-1","entrupy_id":"ENT-PKG-1","text_fields":{"customer_item_id":"sku-pkg"}}'
  sig=$(printf '%s' "$body" | openssl dgst -sha256 -hmac "$SECRET" | sed 's/^.* //')
  answer=$(curl -sS -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' -H "Entrupy-Signature: sha256=$sig" \
    --data-binary "$body" "http://127.0.0.1:$RELAY_PORT/webhooks/entrupy")
  stored=$(PGPASSWORD=$PG_PASSWORD psql -X -tA -h 127.0.0.1 -p "$PG_PORT" -U relay -d relay_package \
    -c "SELECT count(*) FROM webhook_events WHERE event_id = 'evt-package-1'")
  echo "$answer $stored"
}

# Boots the root with systemd-nspawn; sets LEADER (the root's systemd, as the host sees it).
# Prints why when the machine refuses.
boot() {
  # --keep-unit and --register=no: no systemd or machined need run on the host.
  systemd-nspawn --quiet --directory="$CHROOT" --boot --machine="$MACHINE" --register=no --keep-unit \
    --console=passive > "$STATE/nspawn.log" 2>&1 &
  NSPAWN_PID=$!
  LEADER=""
  local state=""
  for _ in $(seq 1 300); do
    kill -0 "$NSPAWN_PID" 2>/dev/null || break
    LEADER=$(pgrep -P "$NSPAWN_PID" | head -1 || true)
    if [ -n "$LEADER" ]; then
      state=$(timeout 60 nsenter --target "$LEADER" --all systemctl is-system-running --wait 2>/dev/null || true)
      case "$state" in running|degraded) return 0 ;; esac
    fi
    sleep 0.2
  done
  log "systemd-nspawn --boot refused: $(tr '\n' ' ' < "$STATE/nspawn.log")"
  [ -n "$LEADER" ] && log "systemctl in the root says: $(IN systemctl is-system-running 2>&1 || true)"
  return 1
}
# Runs a command in the booted root, as root there, with a clean environment.
IN() { nsenter --target "$LEADER" --all env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 "$@"; }

booted() {
  log "booted systemd $(IN systemctl --version | head -1 | cut -d' ' -f2) in the root (systemd-nspawn); apt install $(basename "$DEB")"
  IN env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "/root/$(basename "$DEB")" >&2
  IN dpkg -s entrupy-relay | sed -n 's/^\(Depends\|Recommends\): /  \1: /p' >&2
  log "entrupy-relay --version in the root: $(IN entrupy-relay --version)"
  verify_units
  write_credentials; write_settings
  IN systemctl daemon-reload

  IN systemctl start entrupy-relay-migrate.service || { IN journalctl -u entrupy-relay-migrate --no-pager >&2; exit 1; }
  log "migrate: $(IN journalctl -u entrupy-relay-migrate -o cat --no-pager | grep -v '^Start\|^Finish\|Deactivated' | tail -1)"
  local start ready
  start=$(date +%s%N)
  # Type=notify: systemctl returns once the relay said READY=1.
  IN systemctl start entrupy-relay.service || { IN journalctl -u entrupy-relay --no-pager | tail -30 >&2; exit 1; }
  ready=$(wait_ready "http://127.0.0.1:$OPS_PORT/readyz" "$start") || { IN journalctl -u entrupy-relay --no-pager | tail -30 >&2; log "serve not ready"; exit 1; }
  READY_MS=$ready
  log "serve: $(IN systemctl is-active entrupy-relay.service), ready in ${ready} ms: $(curl -fsS "http://127.0.0.1:$OPS_PORT/readyz")"
  local main status
  main=$(IN systemctl show -p MainPID --value entrupy-relay.service)
  status=$(IN cat "/proc/$main/status")
  log "  as $(IN ps -o user= -p "$main" 2>/dev/null || echo '?'): NoNewPrivs $(awk '/^NoNewPrivs/ { print $2 }' <<< "$status"), Seccomp $(awk '/^Seccomp:/ { print $2 }' <<< "$status") (2 = filter), CapEff $(awk '/^CapEff/ { print $2 }' <<< "$status")"
  [ "$(awk '/^NoNewPrivs/ { print $2 }' <<< "$status")" = 1 ] || { log "the hardening did not apply"; exit 1; }

  start=$(date +%s%N)
  IN systemctl start "entrupy-relay-worker@$WORKER_PORT.service" || { IN journalctl -u "entrupy-relay-worker@$WORKER_PORT" --no-pager | tail -30 >&2; exit 1; }
  WORKER_MS=$(wait_ready "http://127.0.0.1:$WORKER_PORT/readyz" "$start") || { log "worker replica not ready on $WORKER_PORT"; exit 1; }
  curl -fsS "http://127.0.0.1:$WORKER_PORT/metrics" | grep -q '^relay_build_info' || { log "worker replica: no relay_build_info in /metrics"; exit 1; }
  log "worker replica @$WORKER_PORT: $(IN systemctl is-active "entrupy-relay-worker@$WORKER_PORT.service"), /readyz and /metrics on its port"

  IN systemctl reload entrupy-relay.service
  sleep 0.5
  [ "$(IN systemctl is-active entrupy-relay.service)" = active ] || { log "serve did not survive systemctl reload"; exit 1; }
  log "systemctl reload (ExecReload=/bin/kill -HUP): still active"

  # The first admin token, through the wrapper, used against /v1/items. The D-Bus the package
  # recommends was installed with it and starts on the next boot; start it now instead.
  IN systemctl start dbus.socket
  local created token items
  created=$(IN entrupy-relay-admin tokens create --role admin --name package-test-admin) || { log "entrupy-relay-admin tokens create failed"; exit 1; }
  token=$(tail -1 <<< "$created")
  items=$(curl -sS -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $token" "http://127.0.0.1:$RELAY_PORT/v1/items")
  [ "$items" = 200 ] || { log "GET /v1/items with the new token: $items"; exit 1; }
  TOKEN_LINE="created through entrupy-relay-admin; GET /v1/items answered $items"
  log "admin token: $TOKEN_LINE"
  local refused
  refused=$(IN entrupy-relay-admin tokens create --role nobody 2>&1 >/dev/null; echo "exit $?")
  log "  a refused command keeps its status through the wrapper: $(tail -1 <<< "$refused")"
  [ "$(tail -1 <<< "$refused")" != "exit 0" ] || { log "the wrapper lost a failing status"; exit 1; }

  # The example rules, with their callback secret as a systemd credential added by a drop-in.
  printf 'whsec_%s\n' "$(head -c 32 /dev/urandom | base64 | tr -d '\n')" > "$CHROOT/etc/entrupy-relay/credentials/partner-webhook-secret"
  chmod 0600 "$CHROOT/etc/entrupy-relay/credentials/partner-webhook-secret"
  mkdir -p "$CHROOT/etc/systemd/system/entrupy-relay.service.d"
  printf '[Service]\nLoadCredential=partner-webhook-secret:/etc/entrupy-relay/credentials/partner-webhook-secret\nEnvironment=PARTNER_WEBHOOK_SECRET_FILE=%%d/partner-webhook-secret\n' \
    > "$CHROOT/etc/systemd/system/entrupy-relay.service.d/partner.conf"
  IN systemctl daemon-reload
  log "rules: $(IN entrupy-relay-admin rules check /usr/share/doc/entrupy-relay/examples/rules.yaml | head -1)"

  WEBHOOK=$(send_webhook)
  [ "$WEBHOOK" = "200 1" ] || { log "webhook: $WEBHOOK"; IN journalctl -u entrupy-relay --no-pager | tail -30 >&2; exit 1; }
  sleep 3
  RSS_KB=$(IN awk '/^VmRSS/ { print $2 }' "/proc/$(IN systemctl show -p MainPID --value entrupy-relay.service)/status")
  IN systemctl stop "entrupy-relay-worker@$WORKER_PORT.service" entrupy-relay.service
  MODE="systemd $(IN systemctl --version | head -1 | cut -d' ' -f2) booted by systemd-nspawn"
}

# The fallback: what systemd does for the units (LoadCredential, EnvironmentFile, User=), done
# by hand in a chroot, for a machine that cannot boot systemd in a container.
by_hand() {
  mount -t proc proc "$CHROOT/proc"
  log "apt install $(basename "$DEB") in a chroot"
  chroot "$CHROOT" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "/root/$(basename "$DEB")" >&2
  log "entrupy-relay --version in the root: $(chroot "$CHROOT" entrupy-relay --version)"
  verify_units
  write_credentials; write_settings
  local cred=/run/credentials/entrupy-relay.service
  install -d -m 0755 "$CHROOT/run/credentials"
  install -d -m 0750 "$CHROOT$cred"
  cp "$CHROOT"/etc/entrupy-relay/credentials/* "$CHROOT$cred/"
  chroot "$CHROOT" sh -c "chown -R entrupy-relay:entrupy-relay $cred; chmod 0400 $cred/*"
  # chroot and env exec what they run, so a command started in the background keeps its PID.
  local as_service=(chroot --userspec=entrupy-relay:entrupy-relay "$CHROOT" env -i PATH=/usr/bin:/bin
    $(grep -E '^[A-Z_]+=' "$CHROOT/etc/entrupy-relay/relay.env")
    ENTRUPY_RELAY_DATABASE_URL_FILE=$cred/database-url ENTRUPY_RELAY_ENTRUPY_WEBHOOK_SECRETS_FILE=$cred/entrupy-webhook-secrets
    ENTRUPY_RELAY_ENTRUPY_API_TOKEN_FILE=$cred/entrupy-api-token)
  log "migrate: $("${as_service[@]}" entrupy-relay migrate)"
  "${as_service[@]}" entrupy-relay config check --connect >&2 || { log "config check failed"; exit 1; }
  local start
  start=$(date +%s%N)
  "${as_service[@]}" entrupy-relay serve > "$STATE/serve.log" 2>&1 &
  RELAY_PID=$!
  READY_MS=$(wait_ready "http://127.0.0.1:$OPS_PORT/readyz" "$start") || { cat "$STATE/serve.log" >&2; log "serve not ready"; exit 1; }
  WEBHOOK=$(send_webhook)
  [ "$WEBHOOK" = "200 1" ] || { log "webhook: $WEBHOOK"; cat "$STATE/serve.log" >&2; exit 1; }
  sleep 3
  RSS_KB=$(awk '/^VmRSS/ { print $2 }' "/proc/$RELAY_PID/status")
  [ "$(readlink "/proc/$RELAY_PID/exe")" = "$CHROOT/usr/bin/entrupy-relay" ] || { log "PID $RELAY_PID is not the relay"; exit 1; }
  kill -TERM "$RELAY_PID"; wait "$RELAY_PID" || true; RELAY_PID=""
  WORKER_MS="-" TOKEN_LINE="not tested (no systemd, so no entrupy-relay-admin)"
  MODE="a chroot, by hand ($WHY)"
}

if [ -n "${PACKAGE_TEST_CHROOT:-}" ]; then
  WHY="PACKAGE_TEST_CHROOT is set"; by_hand
elif boot; then booted; else
  [ -n "$NSPAWN_PID" ] && { kill -KILL "$NSPAWN_PID" 2>/dev/null; wait "$NSPAWN_PID" 2>/dev/null || true; NSPAWN_PID=""; }
  WHY="systemd did not boot: see above"; by_hand
fi

printf 'package-test: entrupy-relay %s on Debian bookworm without Swift, in %s\n' "$(dpkg-deb -f "$DEB" Version)" "$MODE"
printf '  package             %s\n' "$(stat -c %s "$DEB" | awk '{ printf "%.1f MB", $1 / 1e6 }')"
printf '  start to ready      %s ms (serve with its worker; /readyz on the operations port)\n' "$READY_MS"
printf '  worker replica      %s ms to ready on its operations port\n' "$WORKER_MS"
printf '  idle RSS            %s MiB\n' "$((RSS_KB / 1024))"
printf '  first admin token   %s\n' "$TOKEN_LINE"
printf '  signed webhook      answered %s, stored %s\n' "${WEBHOOK% *}" "${WEBHOOK#* }"
