#!/usr/bin/env bash
# Builds the OCI image of entrupy-relay with Debian's buildah (no Docker daemon):
#   ./deploy/image.sh        (prints the archive's path; IMAGE_SKIP_BUILD=1 uses the binary already built)
# From the same release binary as the Debian package (deploy/package.sh: the Swift runtime linked
# in, stripped, migrations compiled in), on an empty base: the binary, the glibc and C++ runtime
# files ldd names, CA certificates and time zones, all from Debian's packages
# (deploy/image/rootfs.sh), and a non-root user, uid 65532. No shell, no package manager.
# Writes .build-release/image/entrupy-relay-VERSION.oci.tar (load it with `podman load -i`,
# `docker load -i`, or push it with `skopeo copy oci-archive:FILE docker://REGISTRY/…`) and
# leaves the image as localhost/entrupy-relay:VERSION in this machine's containers storage.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=deploy/lib/release.sh
. "$ROOT/deploy/lib/release.sh"
SCRATCH=${IMAGE_SCRATCH:-$ROOT/.build-release}
OUT=${IMAGE_OUT:-$SCRATCH/image}
NAME=${IMAGE_NAME:-localhost/entrupy-relay}
log() { printf 'image: %s\n' "$*" >&2; }

need=()
command -v buildah >/dev/null || need+=(buildah)
command -v strip >/dev/null || need+=(binutils)
command -v dpkg-deb >/dev/null || need+=(dpkg)
if [ ${#need[@]} -gt 0 ]; then
  log "installing ${need[*]}"; apt-get update -qq >&2; DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >&2
fi

if [ -z "${IMAGE_SKIP_BUILD:-}" ]; then
  log "building release with the Swift runtime linked statically (a cold build takes about 12 minutes)"
  release_build "$SCRATCH" entrupy-relay
fi
BIN="$SCRATCH/release/entrupy-relay"
[ -x "$BIN" ] || { log "no binary at $BIN"; exit 1; }
VERSION=$("$BIN" --version)
TAG=${VERSION//[^A-Za-z0-9_.-]/-}   # a tag takes no "~": 0.2.0~dev is tagged 0.2.0-dev
REVISION=$(git -C "$ROOT" rev-parse HEAD 2>/dev/null || echo unknown)
CREATED=$(git -C "$ROOT" log -1 --format=%ct 2>/dev/null || date +%s)   # the commit's time: rebuilds agree
log "entrupy-relay $VERSION, image $NAME:$TAG"

STAGE=$(mktemp -d)
ctr=""
cleanup() { [ -z "$ctr" ] || buildah rm "$ctr" >/dev/null 2>&1 || true; rm -rf "$STAGE"; }
trap cleanup EXIT
"$ROOT/deploy/image/rootfs.sh" "$BIN" "$STAGE"

ctr=$(buildah from --format oci scratch)
buildah copy --quiet "$ctr" "$STAGE" / >/dev/null
# Listen on every address inside the container (the relay's own default is 127.0.0.1): the
# container's network is the boundary; publish only the ports people should reach.
buildah config \
  --user 65532:65532 --workingdir /tmp \
  --env PATH=/usr/bin --env ENTRUPY_RELAY_HOST=0.0.0.0 --env ENTRUPY_RELAY_METRICS_HOST=0.0.0.0 \
  --entrypoint '["/usr/bin/entrupy-relay"]' --cmd '["serve"]' \
  --port 8080/tcp --stop-signal SIGTERM \
  --label org.opencontainers.image.title=entrupy-relay \
  --label "org.opencontainers.image.description=Receives Entrupy webhooks and notifies partners of authentication results" \
  --label "org.opencontainers.image.version=$VERSION" \
  --label "org.opencontainers.image.revision=$REVISION" \
  --label "org.opencontainers.image.created=$(date -u -d "@$CREATED" +%Y-%m-%dT%H:%M:%SZ)" \
  --label org.opencontainers.image.licenses=proprietary \
  --label "org.opencontainers.image.base.name=scratch (files from Debian $(cut -d. -f1 /etc/debian_version) packages)" \
  "$ctr"
buildah rmi "$NAME:$TAG" >/dev/null 2>&1 || true   # the last build's, so none is left untagged
buildah commit --quiet --format oci --timestamp "$CREATED" --rm "$ctr" "$NAME:$TAG" >/dev/null
ctr=""

mkdir -p "$OUT"
ARCHIVE="$OUT/entrupy-relay-$TAG.oci.tar"
rm -f "$ARCHIVE"
buildah push --quiet "$NAME:$TAG" "oci-archive:$ARCHIVE:$NAME:$TAG" >/dev/null
log "built $ARCHIVE"
log "  archive $(stat -c %s "$ARCHIVE" | awk '{ printf "%.1f MB", $1 / 1e6 }'), unpacked $(du -sk "$STAGE" | awk '{ printf "%.1f MB", $1 * 1024 / 1e6 }')"
printf '%s\n' "$ARCHIVE"
