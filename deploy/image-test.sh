#!/usr/bin/env bash
# Runs the OCI image against a real PostgreSQL: outside .ci/run, as it needs the release build
# (./deploy/image.sh, ~12 minutes cold).
#   ./deploy/image-test.sh     (IMAGE=path.oci.tar tests an archive already built;
#                               IMAGE_SKIP_BUILD=1 makes the image from the binary already built)
# Loads the archive into Debian's podman, then with --network=host against a private PostgreSQL
# on 127.0.0.1, the secrets as files (the _FILE variables, as deploy/compose.yaml passes them):
# migrate, serve (the image's default command, its worker in the same process; Entrupy played by
# the project's simulator on the host), a signed webhook stored. Checks the image's files and
# user; deploy/compose.yaml with podman-compose's `config`, then up for real (PostgreSQL,
# migrate, serve, worker; deploy/image/compose-run.sh; IMAGE_TEST_COMPOSE=0 skips it).
# Prints the image's size, the time from `podman run` to ready, and the idle memory.
# Where podman cannot run containers, it says what refused and runs the image's root file
# system (unpacked with umoci) by hand instead: chroot as the image's user, with its entrypoint,
# command and environment (IMAGE_TEST_MODE=rootfs does that on purpose; =podman never does).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=deploy/lib/release.sh
. "$ROOT/deploy/lib/release.sh"
STATE=${IMAGE_TEST_STATE:-$ROOT/.local/image-test}
MODE=${IMAGE_TEST_MODE:-auto}
PG_PORT=${IMAGE_TEST_PG_PORT:-54344}
RELAY_PORT=${IMAGE_TEST_PORT:-8194}
OPS_PORT=${IMAGE_TEST_OPS_PORT:-8195}
SIM_PORT=${IMAGE_TEST_SIM_PORT:-8196}
COMPOSE_PORT=${IMAGE_TEST_COMPOSE_PORT:-8197}
CONTAINER=entrupy-relay-image-test
log() { printf 'image-test: %s\n' "$*" >&2; }
fail() { log "$*"; exit 1; }
mkdir -p "$STATE"

need=()
for tool in podman umoci curl openssl; do command -v "$tool" >/dev/null || need+=("$tool"); done
command -v runc >/dev/null || need+=(runc)   # where crun refuses hybrid cgroups (v1, with a v2 tree beside)
for tool in buildah podman-compose; do command -v "$tool" >/dev/null || need+=("$tool"); done
python3 -c 'import venv, ensurepip' 2>/dev/null || need+=(python3-venv)
if [ ${#need[@]} -gt 0 ]; then
  log "installing ${need[*]}"; apt-get update -qq >&2; DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >&2
fi
PODMAN=(podman --cgroup-manager=cgroupfs --events-backend=file)

ARCHIVE=${IMAGE:-$("$ROOT/deploy/image.sh")}
[ -s "$ARCHIVE" ] || fail "no image archive at $ARCHIVE"
log "image $(basename "$ARCHIVE"): $(stat -c %s "$ARCHIVE" | awk '{ printf "%.1f MB", $1 / 1e6 }')"

# The image as the archive holds it: an OCI layout, unpacked by umoci (also what rootfs mode runs).
UNPACKED="$STATE/unpacked"
rm -rf --one-file-system "$UNPACKED" && mkdir -p "$UNPACKED/layout"
tar -xf "$ARCHIVE" -C "$UNPACKED/layout"
REF=$(python3 -c 'import json, sys; m = json.load(open(sys.argv[1]))["manifests"][0]
print(m.get("annotations", {}).get("org.opencontainers.image.ref.name", ""))' "$UNPACKED/layout/index.json")
umoci unpack --image "$UNPACKED/layout:$REF" "$UNPACKED/bundle" >/dev/null
RFS="$UNPACKED/bundle/rootfs"
. "$ROOT/deploy/image/checks.sh"
check_image_files "$RFS"
check_image_config "$UNPACKED/layout"

# A private PostgreSQL on the host's loopback, which the containers share (--network=host).
. "$ROOT/deploy/lib/postgres.sh"
cleanup() {
  if [ -n "${COMPOSE_UP:-}" ]; then compose_down; fi
  if [ -n "${CONTAINER_UP:-}" ]; then "${PODMAN[@]}" rm -f -t 10 "$CONTAINER" >/dev/null 2>&1 || true; fi
  [ -n "${RELAY_PID:-}" ] && kill -TERM "$RELAY_PID" 2>/dev/null && wait "$RELAY_PID" 2>/dev/null || true
  [ -n "${SIM_PID:-}" ] && kill -TERM "$SIM_PID" 2>/dev/null && wait "$SIM_PID" 2>/dev/null || true
  (pg_stop "$STATE/pg") >/dev/null 2>&1 || true
}
trap cleanup EXIT
pg_start "$STATE/pg" "$PG_PORT" >/dev/null
pg_create_db relay_image fresh
DB_URL="$PG_URL_BASE/relay_image?sslmode=disable"

# Entrupy, played by the project's simulator on the host's loopback (built beside the image).
SECRET=image-test-secret-0123456789 TOKEN=image-test-api-token
SIM=${IMAGE_TEST_SIM:-$ROOT/.build-release/release/entrupy-sim}
if [ -z "${IMAGE_TEST_SIM:-}" ] && { [ -z "${IMAGE_SKIP_BUILD:-}" ] || [ ! -x "$SIM" ]; }; then
  release_build "$ROOT/.build-release" entrupy-sim
fi
"$SIM" --host 127.0.0.1 --port "$SIM_PORT" --webhook-url "http://127.0.0.1:9/none" \
  --webhook-secret "$SECRET" --api-token "$TOKEN" > "$STATE/sim.log" 2>&1 &
SIM_PID=$!

# The secrets as files the image's user reads, mounted where compose puts them (/run/secrets).
SECRETS="$STATE/secrets"
rm -rf "$SECRETS" && install -d -m 0755 "$SECRETS"
printf '%s\n' "$DB_URL" > "$SECRETS/database-url"
printf '%s\n' "$SECRET" > "$SECRETS/entrupy-webhook-secrets"
printf '%s\n' "$TOKEN" > "$SECRETS/entrupy-api-token"
chown 65532:65532 "$SECRETS"/*; chmod 0400 "$SECRETS"/*
RELAY_ENV=(ENTRUPY_RELAY_DATABASE_URL_FILE=/run/secrets/database-url
  ENTRUPY_RELAY_ENTRUPY_WEBHOOK_SECRETS_FILE=/run/secrets/entrupy-webhook-secrets
  ENTRUPY_RELAY_ENTRUPY_API_TOKEN_FILE=/run/secrets/entrupy-api-token
  ENTRUPY_RELAY_ENTRUPY_API_URL=http://127.0.0.1:$SIM_PORT
  ENTRUPY_RELAY_PORT=$RELAY_PORT ENTRUPY_RELAY_METRICS_PORT=$OPS_PORT ENTRUPY_RELAY_LOG_LEVEL=warning)
for _ in $(seq 1 100); do curl -fsS "http://127.0.0.1:$SIM_PORT/_sim/stats" >/dev/null 2>&1 && break; sleep 0.1; done

for port in "$RELAY_PORT" "$OPS_PORT"; do
  ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null || fail "something already listens on 127.0.0.1:$port"
done
. "$ROOT/deploy/image/runners.sh"
if [ "$MODE" != rootfs ]; then
  IMAGE_NAME=$("${PODMAN[@]}" load -q -i "$ARCHIVE" | sed -n 's/^Loaded image[^:]*: *//p' | tail -1)
  [ -n "$IMAGE_NAME" ] || fail "podman load gave no image name"
  log "podman load: $IMAGE_NAME ($("${PODMAN[@]}" image inspect -f '{{.Size}}' "$IMAGE_NAME" | awk '{ printf "%.1f MB", $1 / 1e6 }') in storage)"
  if podman_options; then RUNNER=podman
  elif [ "$MODE" = podman ]; then fail "podman refused every way tried (above)"
  else log "podman refused every way tried (above): running the image's root file system by hand"; RUNNER=rootfs
  fi
else
  RUNNER=rootfs
fi

log "migrate ($RUNNER): $(run_once migrate)"
start=$(date +%s%N)
start_serve
ready=""
for _ in $(seq 1 600); do
  if curl -fsS "http://127.0.0.1:$OPS_PORT/readyz" >/dev/null 2>&1; then ready=$(( ($(date +%s%N) - start) / 1000000 )); break; fi
  serve_alive || { serve_log >&2; fail "serve exited"; }
  sleep 0.05
done
[ -n "$ready" ] || { serve_log >&2; fail "serve was not ready within 30 s"; }
log "ready: $(curl -fsS "http://127.0.0.1:$OPS_PORT/readyz")"

body='{"event":"session.completed","id":"evt-image-1","entrupy_id":"ENT-IMG-1","text_fields":{"customer_item_id":"sku-img"}}'
sig=$(printf '%s' "$body" | openssl dgst -sha256 -hmac "$SECRET" | sed 's/^.* //')
answer=$(curl -sS -w ' %{http_code}' -H 'Content-Type: application/json' -H "Entrupy-Signature: sha256=$sig" \
  --data-binary "$body" "http://127.0.0.1:$RELAY_PORT/webhooks/entrupy")
unsigned=$(curl -sS -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' -H "Entrupy-Signature: sha256=00" \
  --data-binary "$body" "http://127.0.0.1:$RELAY_PORT/webhooks/entrupy")
stored=$(PGPASSWORD=$PG_PASSWORD psql -X -tA -h 127.0.0.1 -p "$PG_PORT" -U relay -d relay_image \
  -c "SELECT count(*) FROM webhook_events WHERE event_id = 'evt-image-1'")
[ "${answer##* }" = 200 ] && [ "$stored" = 1 ] && [ "$unsigned" = 401 ] \
  || { serve_log >&2; fail "webhook: signed $answer, stored $stored; badly signed $unsigned"; }
sleep 3
pid=$(serve_pid)
[ "$(awk '/^Uid:/ { print $2 }' "/proc/$pid/status")" = 65532 ] || fail "serve (PID $pid) does not run as uid 65532"
rss=$(awk '/^VmRSS/ { print $2 }' "/proc/$pid/status")
stats=$(serve_stats)
stop_serve

if [ "$RUNNER" = podman ]; then how="podman ${PODMAN_RUN_OPTIONS[*]:-(defaults)}; serve read-only, no capabilities"; else how="its root file system, chroot as uid 65532"; fi
check_compose "$ROOT/deploy/compose.yaml" "$STATE/compose"
compose_note="not run (IMAGE_TEST_COMPOSE=0)"
if [ "$MODE" = rootfs ]; then compose_note="not run (IMAGE_TEST_MODE=rootfs)"
elif [ "$RUNNER" != podman ]; then compose_note="not run: podman refused containers"
elif [ "${IMAGE_TEST_COMPOSE:-1}" != 0 ]; then
  . "$ROOT/deploy/image/compose-run.sh"
  build_postgres_standin
  compose_run "$STATE/compose-run" "$SECRET" "$TOKEN"
  compose_down
  compose_note="up with podman-compose: migrate exited 0, serve and worker ready, signed webhook stored"
fi
printf 'image-test: entrupy-relay %s image, run with %s\n' "$(config_label org.opencontainers.image.version)" "$how"
printf '  image archive       %s\n' "$(stat -c %s "$ARCHIVE" | awk '{ printf "%.1f MB", $1 / 1e6 }')"
printf '  image unpacked      %s (%s files)\n' "$(du -sk "$RFS" | awk '{ printf "%.1f MB", $1 * 1024 / 1e6 }')" "$(find "$RFS" -type f | wc -l)"
printf '  start to ready      %s ms (%s to /readyz on the operations port; serve with its worker)\n' "$ready" \
  "$([ "$RUNNER" = podman ] && echo 'podman run' || echo 'exec')"
printf '  idle RSS            %s MiB%s\n' "$((rss / 1024))" "${stats:+ (podman stats: $stats)}"
printf '  signed webhook      answered %s, stored %s; badly signed answered %s\n' "${answer##* }" "$stored" "$unsigned"
printf '  compose.yaml        %s\n' "$compose_note"
