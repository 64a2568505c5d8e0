# The two ways deploy/image-test.sh (sourced) runs the image, behind the same functions:
# RUNNER=podman runs containers (--network=host, the secrets mounted read-only at /run/secrets);
# RUNNER=rootfs runs the unpacked root file system by hand, for a machine that refuses
# containers: in a mount namespace of its own (/proc, a minimal /dev and the secrets mounted),
# chroot as the image's user with the image's environment, entrypoint and command (chroot
# starts in /, not the image's working folder /tmp; the relay does not mind).
# Uses PODMAN, IMAGE_NAME, CONTAINER, SECRETS, RELAY_ENV, RFS, IMAGE_CONFIG, STATE.

# Finds how podman may run a container here: the defaults first, then what this machine needs.
# Sets PODMAN_RUN_OPTIONS; each refusal is logged with podman's own words.
podman_options() {
  local nofile nproc
  nofile=$(ulimit -Hn); nproc=$(ulimit -Hu)
  [ "$nofile" = unlimited ] && nofile=1048576
  # podman lowers its own RLIMIT_NPROC to 32768 before starting the runtime, and without
  # CAP_SYS_RESOURCE a container's limits may not be raised above the ones it inherits.
  { [ "$nproc" = unlimited ] || [ "$nproc" -gt 32768 ]; } && nproc=32768
  local limits="--ulimit nofile=$nofile:$nofile --ulimit nproc=$nproc:$nproc"
  local tries=("" "$limits" "--runtime runc $limits") try out
  for try in "${tries[@]}"; do
    # shellcheck disable=SC2206 # the options are words
    PODMAN_RUN_OPTIONS=($try)
    if out=$("${PODMAN[@]}" run --rm --network=host "${PODMAN_RUN_OPTIONS[@]}" "$IMAGE_NAME" --version 2>&1); then
      log "podman runs the image with ${try:-its defaults}: entrupy-relay --version is $out"
      return 0
    fi
    log "podman run ${try:-(defaults)} refused: $(tail -1 <<<"$out")"
  done
  PODMAN_RUN_OPTIONS=()
  return 1
}

podman_env() { local e; for e in "${RELAY_ENV[@]}"; do printf '%s\0%s\0' -e "$e"; done; }

podman_run() {
  local envs; mapfile -d '' envs < <(podman_env)
  "${PODMAN[@]}" run --network=host "${PODMAN_RUN_OPTIONS[@]}" -v "$SECRETS:/run/secrets:ro" "${envs[@]}" "$@"
}

# The image's own environment, then the test's: what `podman run -e` gives the process.
rootfs_env() {
  python3 -c 'import json, sys; [print(e) for e in json.load(open(sys.argv[1]))["config"].get("Env", [])]' "$IMAGE_CONFIG"
  printf '%s\n' "${RELAY_ENV[@]}"
}

# Runs the image's entrypoint with ARGS (none: the image's command) in the root, keeping the
# PID: unshare, sh, env and chroot each exec the next.
rootfs_run() {
  local -a args=("$@") entry envs
  mapfile -t entry < <(python3 -c 'import json, sys; [print(a) for a in json.load(open(sys.argv[1]))["config"]["Entrypoint"]]' "$IMAGE_CONFIG")
  [ ${#args[@]} -gt 0 ] || mapfile -t args < <(python3 -c 'import json, sys; [print(a) for a in json.load(open(sys.argv[1]))["config"]["Cmd"]]' "$IMAGE_CONFIG")
  mapfile -t envs < <(rootfs_env)
  local user; user=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["config"]["User"])' "$IMAGE_CONFIG")
  mkdir -p "$RFS/proc" "$RFS/dev" "$RFS/run/secrets"
  local run=(); [ -z "${ROOTFS_EXEC:-}" ] || run=(exec)   # in the background, so $! is the relay's PID
  "${run[@]}" unshare --mount --propagation private sh -c '
    rfs=$1 secrets=$2 user=$3; shift 3
    mount -t proc proc "$rfs/proc" && mount -t tmpfs -o mode=0755,size=64k dev "$rfs/dev" || exit 1
    for node in null zero random urandom; do : > "$rfs/dev/$node"; mount --bind "/dev/$node" "$rfs/dev/$node" || exit 1; done
    mount --bind -o ro "$secrets" "$rfs/run/secrets" || exit 1
    exec env -i "$@"' sh "$RFS" "$SECRETS" "$user" "${envs[@]}" "$(command -v chroot)" --userspec="$user" "$RFS" "${entry[@]}" "${args[@]}"
}

# Runs a command of the relay once in the image, in the foreground; prints what it printed.
run_once() {
  if [ "$RUNNER" = podman ]; then podman_run --rm "$IMAGE_NAME" "$@"; else rootfs_run "$@"; fi
}

start_serve() {
  if [ "$RUNNER" = podman ]; then
    "${PODMAN[@]}" rm -f "$CONTAINER" >/dev/null 2>&1 || true
    CONTAINER_UP=1
    # The image's command (serve), hardened as an orchestrator may run it: a read-only root
    # with no tmpfs anywhere, no capabilities, no privilege gain.
    podman_run -d --name "$CONTAINER" --read-only --read-only-tmpfs=false --cap-drop=all \
      --security-opt=no-new-privileges "$IMAGE_NAME" >/dev/null
  else
    ROOTFS_EXEC=1 rootfs_run > "$STATE/serve.log" 2>&1 &
    RELAY_PID=$!
  fi
}

serve_alive() {
  if [ "$RUNNER" = podman ]; then [ "$("${PODMAN[@]}" inspect -f '{{.State.Running}}' "$CONTAINER" 2>/dev/null)" = true ]
  else kill -0 "$RELAY_PID" 2>/dev/null; fi
}

serve_log() {
  if [ "$RUNNER" = podman ]; then "${PODMAN[@]}" logs "$CONTAINER" 2>&1 | tail -40; else tail -40 "$STATE/serve.log"; fi
}

# The relay's PID as this machine sees it (to read its user and memory in /proc).
serve_pid() {
  if [ "$RUNNER" = podman ]; then "${PODMAN[@]}" inspect -f '{{.State.Pid}}' "$CONTAINER"; else echo "$RELAY_PID"; fi
}

serve_stats() {
  [ "$RUNNER" = podman ] || return 0
  "${PODMAN[@]}" stats --no-stream --format '{{.MemUsage}}' "$CONTAINER" 2>/dev/null | head -1 || true
}

# Stops serve with SIGTERM, as `podman stop` does, and checks it exits cleanly.
stop_serve() {
  local code
  if [ "$RUNNER" = podman ]; then
    "${PODMAN[@]}" stop -t 30 "$CONTAINER" >/dev/null
    code=$("${PODMAN[@]}" inspect -f '{{.State.ExitCode}}' "$CONTAINER")
    "${PODMAN[@]}" rm -f "$CONTAINER" >/dev/null; CONTAINER_UP=""
  else
    kill -TERM "$RELAY_PID"; code=0; wait "$RELAY_PID" || code=$?; RELAY_PID=""
  fi
  [ "$code" = 0 ] || { log "serve exited $code on SIGTERM"; return 1; }
  log "serve stopped on SIGTERM, exit 0"
}
