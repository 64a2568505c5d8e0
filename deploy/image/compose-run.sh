# deploy/compose.yaml brought up for real by deploy/image-test.sh (sourced), with Debian's
# podman-compose (PyPI's newer one starts containers with podman 4.4+'s dependency options,
# which Debian's podman 4.3 refuses): PostgreSQL, migrate, serve and a worker on the compose
# network, the secrets as files in secrets/ as the docs say, then a signed webhook through the
# published port and each replica's /readyz on its operations port. podman 4.3 ignores
# depends_on's conditions (service_healthy, service_completed_successfully), so the services
# are started in that order here, each once the one before is healthy or has exited 0, as
# docker compose does by itself. The official postgres image cannot be pulled here, so an
# override names a stand-in built once from Debian's postgresql-15
# (postgres-standin-entrypoint.sh does what the official entrypoint does with compose's
# variables). Uses ROOT, STATE, PODMAN, IMAGE_NAME, PODMAN_RUN_OPTIONS, log, fail.

STANDIN=localhost/entrupy-relay-test-postgres:15

# The stand-in: a Debian root (package-test's pristine copy when there is one, else
# debootstrap) with postgresql-15, made with buildah from its mounted root.
build_postgres_standin() {
  "${PODMAN[@]}" image exists "$STANDIN" && return 0
  log "building $STANDIN (Debian bookworm, postgresql-15) for the compose run"
  local ctr mnt
  ctr=$(buildah from --format oci scratch); mnt=$(buildah mount "$ctr")
  if [ -x "$ROOT/.local/package-test/pristine/bin/sh" ]; then cp -a "$ROOT/.local/package-test/pristine/." "$mnt/"
  else command -v debootstrap >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >&2
    debootstrap --variant=minbase bookworm "$mnt" http://deb.debian.org/debian >&2
  fi
  cp /etc/resolv.conf "$mnt/etc/resolv.conf"
  mount -t proc proc "$mnt/proc"
  { chroot "$mnt" apt-get update -qq && chroot "$mnt" env DEBIAN_FRONTEND=noninteractive \
      apt-get install -y -qq --no-install-recommends postgresql-15 postgresql-client-15; } >&2 || { umount "$mnt/proc"; return 1; }
  umount "$mnt/proc"
  chroot "$mnt" apt-get clean
  install -m 0755 "$ROOT/deploy/image/postgres-standin-entrypoint.sh" "$mnt/usr/local/bin/docker-entrypoint.sh"
  buildah umount "$ctr" >/dev/null
  buildah config --entrypoint '["/usr/local/bin/docker-entrypoint.sh"]' --cmd '[]' --port 5432/tcp \
    --env PGDATA=/var/lib/postgresql/data --env PATH=/usr/lib/postgresql/15/bin:/usr/sbin:/usr/bin:/sbin:/bin "$ctr"
  buildah commit --quiet --rm "$ctr" "$STANDIN" >/dev/null
}

# A containers.conf with what podman_options found this machine needs (runtime, limits), for
# the containers podman-compose makes; none when podman's defaults run.
compose_containers_conf() {
  local conf=$1 option next="" runtime="" limits=()
  for option in "${PODMAN_RUN_OPTIONS[@]}"; do
    case $next in runtime) runtime=$option;; ulimit) limits+=("\"$option\"");; esac
    case $option in --runtime) next=runtime;; --ulimit) next=ulimit;; *) next="";; esac
  done
  local IFS=,
  { printf '[containers]\n'; [ ${#limits[@]} -eq 0 ] || printf 'default_ulimits = [%s]\n' "${limits[*]}"
    printf '[engine]\ncgroup_manager = "cgroupfs"\nevents_logger = "file"\n'; [ -z "$runtime" ] || printf 'runtime = "%s"\n' "$runtime"
  } > "$conf"
}

# The compose project in $STATE/compose-run: compose.yaml as shipped, the secrets as the docs
# say, an override naming the stand-in PostgreSQL. Sets COMPOSE (the podman-compose command).
compose_prepare() {
  local dir=$1 secret=$2 token=$3 password
  rm -rf "$dir" && install -d "$dir" && install -d -m 0700 "$dir/secrets"
  cp "$ROOT/deploy/compose.yaml" "$dir/compose.yaml"
  printf 'services:\n  postgres:\n    image: %s\n' "$STANDIN" > "$dir/override.yaml"
  password=$(head -c 18 /dev/urandom | base64 | tr -d '/+=')
  printf '%s\n' "$password" > "$dir/secrets/postgres-password"
  printf 'postgres://relay:%s@postgres:5432/relay?sslmode=disable\n' "$password" > "$dir/secrets/database-url"
  printf '%s\n' "$secret" > "$dir/secrets/entrupy-webhook-secrets"
  printf '%s\n' "$token" > "$dir/secrets/entrupy-api-token"
  chmod 0644 "$dir"/secrets/*
  compose_containers_conf "$dir/containers.conf"
  COMPOSE=(env CONTAINERS_CONF="$dir/containers.conf" RELAY_IMAGE="$IMAGE_NAME" RELAY_PORT="$COMPOSE_PORT"
    podman-compose -p entrupy-relay-image-test -f "$dir/compose.yaml" -f "$dir/override.yaml")
}

compose_up() {
  (cd "$STATE/compose-run" && "${COMPOSE[@]}" up -d --no-deps "$@") >> "$STATE/compose-run/up.log" 2>&1 \
    || { tail -20 "$STATE/compose-run/up.log" >&2; fail "podman-compose up $* failed"; }
}

compose_container() { "${PODMAN[@]}" ps -a -q --filter "label=com.docker.compose.project=entrupy-relay-image-test" --filter "label=com.docker.compose.service=$1" | head -1; }
compose_address() { "${PODMAN[@]}" inspect -f '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}' "$(compose_container "$1")"; }

# Up, then: migrate exited 0; serve and the worker ready on their operations ports; a signed
# webhook through the published port stored in the compose PostgreSQL. Prints a summary line.
compose_run() {
  local dir=$1 secret=$2 token=$3
  compose_prepare "$dir" "$secret" "$token"
  COMPOSE_UP=1
  compose_up postgres
  local check; check=$(sed -n 's/.*test: \["CMD", \(.*\)\]$/\1/p' "$dir/compose.yaml" | tr -d '",')
  for _ in $(seq 1 150); do "${PODMAN[@]}" exec "$(compose_container postgres)" $check >/dev/null 2>&1 && break; sleep 0.2; done
  "${PODMAN[@]}" exec "$(compose_container postgres)" $check >/dev/null || fail "compose: postgres not healthy ($check)"
  compose_up migrate
  for _ in $(seq 1 150); do [ "$("${PODMAN[@]}" inspect -f '{{.State.Running}}' "$(compose_container migrate)")" = false ] && break; sleep 0.2; done
  [ "$("${PODMAN[@]}" inspect -f '{{.State.ExitCode}} {{.State.Running}}' "$(compose_container migrate)")" = "0 false" ] \
    || { "${PODMAN[@]}" logs "$(compose_container migrate)" >&2; fail "compose: migrate did not exit 0"; }
  log "compose: postgres healthy ($check), migrate exited 0: $("${PODMAN[@]}" logs "$(compose_container migrate)" 2>&1 | tail -1)"
  compose_up serve worker
  local service address ready=""
  for service in serve worker; do
    for _ in $(seq 1 300); do
      address=$(compose_address "$service" 2>/dev/null || true)
      [ -n "$address" ] && ready=$(curl -fsS "http://$address:9464/readyz" 2>/dev/null) && break
      sleep 0.2
    done
    [ -n "$ready" ] || { (cd "$dir" && "${COMPOSE[@]}" logs) 2>&1 | tail -30 >&2; fail "compose: $service not ready on $address:9464"; }
    log "compose: $service ready at $address:9464: $ready"; ready=""
  done
  local body sig answer stored
  body='{"event":"session.completed","id":"evt-compose-1","entrupy_id":"ENT-CMP-1","text_fields":{"customer_item_id":"sku-cmp"}}'
  sig=$(printf '%s' "$body" | openssl dgst -sha256 -hmac "$secret" | sed 's/^.* //')
  answer=$(curl -sS -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' -H "Entrupy-Signature: sha256=$sig" \
    --data-binary "$body" "http://127.0.0.1:$COMPOSE_PORT/webhooks/entrupy")
  stored=$("${PODMAN[@]}" exec "$(compose_container postgres)" psql -X -tA -U relay -d relay \
    -c "SELECT count(*) FROM webhook_events WHERE event_id = 'evt-compose-1'")
  [ "$answer" = 200 ] && [ "$stored" = 1 ] || fail "compose: webhook answered $answer, stored $stored"
  log "compose: a signed webhook on 127.0.0.1:$COMPOSE_PORT answered $answer, stored $stored"
}

compose_down() {
  [ -n "${COMPOSE_UP:-}" ] || return 0
  (cd "$STATE/compose-run" && "${COMPOSE[@]}" down -v -t 20) > "$STATE/compose-run/down.log" 2>&1 || true
  COMPOSE_UP=""
}
