# Checks of the image for deploy/image-test.sh (sourced): its files, its configuration, and
# deploy/compose.yaml. Each fails the test with what it found.

# The unpacked root holds the binary, what it loads, CA certificates and time zones, owned by
# root; no other program (no shell, no package manager), nothing the user can write but /tmp.
check_image_files() {
  local rfs=$1 path
  for path in usr/bin/entrupy-relay lib64/ld-linux-x86-64.so.2 etc/ssl/certs/ca-certificates.crt \
    usr/share/zoneinfo/UTC usr/share/zoneinfo/Europe/Paris usr/share/zoneinfo/America/New_York etc/passwd etc/group; do
    [ -e "$rfs/$path" ] || fail "the image has no /$path"
  done
  [ "$(grep -c 'BEGIN CERTIFICATE' "$rfs/etc/ssl/certs/ca-certificates.crt")" -gt 100 ] || fail "too few CA certificates"
  grep -q '^entrupy-relay:x:65532:65532:' "$rfs/etc/passwd" || fail "no user 65532 in /etc/passwd"
  local programs
  programs=$(cd "$rfs" && find . -type f -perm /111 ! -path './lib/*' ! -path './lib64/*' ! -path './usr/lib/*' | sort)
  [ "$programs" = ./usr/bin/entrupy-relay ] || fail "programs besides the relay: $(tr '\n' ' ' <<<"$programs")"
  local foreign writable
  foreign=$(cd "$rfs" && find . ! -user 0 | head -5)
  writable=$(cd "$rfs" && find . -perm -o+w ! -type l ! -path ./tmp | head -5)
  [ -z "$foreign$writable" ] || fail "files not root's, or writable by all: $foreign $writable"
  log "files: $(cd "$rfs" && find . -type f | wc -l) ($(cd "$rfs" && find . -type f ! -path './usr/share/zoneinfo/*' \
    ! -path './usr/share/doc/*' | sed 's#^\./#/#' | sort | tr '\n' ' ')+ /usr/share/zoneinfo, copyright files)"
}

# The image's configuration (the OCI config blob): user, entrypoint, command, port, the
# listen addresses, the version label. Sets IMAGE_CONFIG (its path).
check_image_config() {
  local layout=$1
  IMAGE_CONFIG=$(python3 - "$layout" <<'PY'
import json, sys
layout = sys.argv[1]
blob = lambda d: f"{layout}/blobs/{d.replace(':', '/', 1)}"
index = json.load(open(f"{layout}/index.json"))
manifest = json.load(open(blob(index["manifests"][0]["digest"])))
print(blob(manifest["config"]["digest"]))
PY
)
  python3 - "$IMAGE_CONFIG" <<'PY' || fail "the image's configuration is not as it should be"
import json, sys
c = json.load(open(sys.argv[1]))["config"]
env = dict(e.split("=", 1) for e in c.get("Env", []))
want = {
    "User": ("65532:65532", c.get("User")),
    "Entrypoint": (["/usr/bin/entrupy-relay"], c.get("Entrypoint")),
    "Cmd": (["serve"], c.get("Cmd")),
    "ExposedPorts": (["8080/tcp"], sorted(c.get("ExposedPorts", {}))),
    "ENTRUPY_RELAY_HOST": ("0.0.0.0", env.get("ENTRUPY_RELAY_HOST")),
    "ENTRUPY_RELAY_METRICS_HOST": ("0.0.0.0", env.get("ENTRUPY_RELAY_METRICS_HOST")),
}
bad = [f"{k}: {got!r}, not {w!r}" for k, (w, got) in want.items() if w != got]
if not c.get("Labels", {}).get("org.opencontainers.image.version"):
    bad.append("no org.opencontainers.image.version label")
for line in bad:
    print(f"image-test: config {line}", file=sys.stderr)
sys.exit(1 if bad else 0)
PY
  log "config: user $(config_field User), entrypoint $(config_field Entrypoint), cmd $(config_field Cmd), version $(config_label org.opencontainers.image.version)"
}

config_field() { python3 -c 'import json, sys; print(json.dumps(json.load(open(sys.argv[1]))["config"].get(sys.argv[2])))' "$IMAGE_CONFIG" "$1"; }
config_label() { python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["config"]["Labels"][sys.argv[2]])' "$IMAGE_CONFIG" "$1"; }

# deploy/compose.yaml: podman-compose (PyPI's, whose `config` validates; Debian's 1.0.3 has none)
# resolves it; it has the four services; each relay variable it sets is a setting of this image
# (`entrupy-relay config reference`, run in the image); the services' commands parse.
check_compose() {
  local compose=$1 venv=$2
  if [ ! -x "$venv/bin/podman-compose" ]; then
    python3 -m venv "$venv" >&2 && "$venv/bin/pip" install -q --disable-pip-version-check podman-compose==1.6.0 >&2
  fi
  local resolved; resolved=$(RELAY_IMAGE=${IMAGE_NAME:-localhost/entrupy-relay:test} "$venv/bin/podman-compose" -f "$compose" config) \
    || fail "podman-compose config refused $compose"
  local reference; reference=$(run_once config reference) || fail "config reference failed in the image"
  "$venv/bin/python" - "$reference" "$resolved" <<'PY' || fail "$compose does not agree with the image"
import re, sys, yaml
reference, doc = sys.argv[1], yaml.safe_load(sys.argv[2])
services = doc.get("services", {})
bad = [] if set(services) == {"postgres", "migrate", "serve", "worker"} else [f"services: {sorted(services)}"]
for name in ("migrate", "serve", "worker"):
    for var in services.get(name, {}).get("environment", {}):
        setting = re.sub(r"_FILE$", "", var)
        if not re.search(rf"\b{re.escape(setting)}\b", reference):
            bad.append(f"{name}: {var} is no setting")
    if not set(services[name].get("secrets", [])) <= set(doc.get("secrets", {})):
        bad.append(f"{name}: a secret not declared")
for line in bad:
    print(f"image-test: compose {line}", file=sys.stderr)
sys.exit(1 if bad else 0)
PY
  local service
  for service in migrate serve worker; do
    local args; args=$("$venv/bin/python" -c 'import sys, yaml; print(" ".join(yaml.safe_load(sys.stdin)["services"][sys.argv[1]]["command"]))' "$service" <<<"$resolved")
    run_once $args --help >/dev/null || fail "compose's $service command does not parse: $args"
  done
  log "compose: podman-compose config resolves $(basename "$compose"); its variables are settings; migrate, serve, worker commands parse"
}
