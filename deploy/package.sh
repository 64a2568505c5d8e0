#!/usr/bin/env bash
# Builds the Debian package of entrupy-relay with Debian's own tools:
#   ./deploy/package.sh        (prints the .deb's path; PACKAGE_SKIP_BUILD=1 packages the binary already built)
#   ./deploy/package.sh --list (prints the paths the package installs, without building: ShippedFilesTests reads it)
# The binary is a release build with the Swift runtime linked in (--static-swift-stdlib),
# stripped, with the migrations compiled into it; its version is the one it reports
# (entrupy-relay --version, written once in RelayRelease.swift). The package holds it, the
# systemd units (deploy/systemd/), the settings file /etc/entrupy-relay/relay.env (a conffile),
# a root-only /etc/entrupy-relay/credentials/ for the secrets, the docs, the examples (nginx,
# rules, Prometheus alerts, the Grafana dashboard), and
# /usr/sbin/entrupy-relay-admin, which runs any command as the service runs (its user, settings
# and credentials). Depends is what dpkg-shlibdeps finds the binary linked against, and procps
# for the units' ExecReload=/bin/kill. A cold build takes about 12 minutes.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=deploy/lib/release.sh
. "$ROOT/deploy/lib/release.sh"
SCRATCH=${PACKAGE_SCRATCH:-$ROOT/.build-release}
OUT=${PACKAGE_OUT:-$SCRATCH/package}
log() { printf 'package: %s\n' "$*" >&2; }

# Every file the package installs but the binary, under the root $1.
stage_files() {
  local stage=$1
  install -d "$stage/DEBIAN" "$stage/usr/bin" "$stage/usr/sbin" "$stage/lib/systemd/system" "$stage/etc/entrupy-relay" \
    "$stage/usr/share/doc/entrupy-relay/examples" "$stage/usr/lib/sysusers.d"
  install -d -m 0700 "$stage/etc/entrupy-relay/credentials"
  install -m 0755 "$ROOT/deploy/package/entrupy-relay-admin" "$stage/usr/sbin/entrupy-relay-admin"
  install -m 0644 "$ROOT"/deploy/systemd/*.service "$stage/lib/systemd/system/"
  install -m 0640 "$ROOT/deploy/package/relay.env" "$stage/etc/entrupy-relay/relay.env"
  install -m 0644 "$ROOT/README.md" "$ROOT/CHANGELOG.md" "$stage/usr/share/doc/entrupy-relay/"
  install -d "$stage/usr/share/doc/entrupy-relay/docs"   # beside the README, so its links hold
  install -m 0644 "$ROOT"/docs/*.md "$ROOT"/docs/*.png "$stage/usr/share/doc/entrupy-relay/docs/"
  install -m 0644 "$ROOT/deploy/rules/example.yaml" "$stage/usr/share/doc/entrupy-relay/examples/rules.yaml"
  install -m 0644 "$ROOT/deploy/rules/chat.yaml" "$stage/usr/share/doc/entrupy-relay/examples/chat.yaml"
  install -m 0644 "$ROOT/deploy/rules/digest.yaml" "$stage/usr/share/doc/entrupy-relay/examples/digest.yaml"
  install -m 0644 "$ROOT/deploy/rules/throttle.yaml" "$stage/usr/share/doc/entrupy-relay/examples/throttle.yaml"
  install -m 0644 "$ROOT/deploy/rules/quiet-hours.yaml" "$stage/usr/share/doc/entrupy-relay/examples/quiet-hours.yaml"
  install -m 0644 "$ROOT/deploy/nginx/entrupy-relay.conf" "$stage/usr/share/doc/entrupy-relay/examples/nginx.conf"
  install -m 0644 "$ROOT/deploy/prometheus/alerts.yml" "$stage/usr/share/doc/entrupy-relay/examples/prometheus-alerts.yml"
  install -m 0644 "$ROOT/deploy/grafana/entrupy-relay.json" "$stage/usr/share/doc/entrupy-relay/examples/grafana-dashboard.json"
  printf 'u entrupy-relay - "Entrupy relay" /nonexistent\n' > "$stage/usr/lib/sysusers.d/entrupy-relay.conf"
  cat > "$stage/usr/share/doc/entrupy-relay/copyright" <<TXT
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: entrupy-relay
Files: *
Copyright: the entrupy-relay authors
License: proprietary
TXT
}

STAGE=$(mktemp -d)
trap 'rm -rf "$STAGE"' EXIT
if [ "${1:-}" = --list ]; then
  stage_files "$STAGE"
  : > "$STAGE/usr/bin/entrupy-relay"
  (cd "$STAGE" && find . -mindepth 1 -not -path './DEBIAN*' | sed 's|^\.||' | sort)
  exit 0
fi

need=()
command -v dpkg-shlibdeps >/dev/null || need+=(dpkg-dev)
command -v strip >/dev/null || need+=(binutils)
if [ ${#need[@]} -gt 0 ]; then
  log "installing ${need[*]}"; apt-get update -qq >&2; DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >&2
fi

if [ -z "${PACKAGE_SKIP_BUILD:-}" ]; then
  log "building release with the Swift runtime linked statically (a cold build takes about 12 minutes)"
  release_build "$SCRATCH" entrupy-relay
fi
BIN="$SCRATCH/release/entrupy-relay"
[ -x "$BIN" ] || { log "no binary at $BIN"; exit 1; }
VERSION=$("$BIN" --version)
ARCH=$(dpkg --print-architecture)
log "entrupy-relay $VERSION ($ARCH)"

stage_files "$STAGE"
install -m 0755 "$BIN" "$STAGE/usr/bin/entrupy-relay"
strip --strip-unneeded "$STAGE/usr/bin/entrupy-relay"

# Depends: the shared libraries the binary needs, as Debian's tool reads them.
SHLIBS=$(mktemp -d)
mkdir -p "$SHLIBS/debian"
printf 'Source: entrupy-relay\n\nPackage: entrupy-relay\nArchitecture: any\n' > "$SHLIBS/debian/control"
DEPENDS=$(cd "$SHLIBS" && dpkg-shlibdeps -O "$STAGE/usr/bin/entrupy-relay" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
rm -rf "$SHLIBS"
[ -n "$DEPENDS" ] || { log "dpkg-shlibdeps found no dependencies"; exit 1; }
log "Depends: $DEPENDS"

cat > "$STAGE/DEBIAN/control" <<TXT
Package: entrupy-relay
Version: $VERSION
Architecture: $ARCH
Maintainer: entrupy-relay maintainers <relay@localhost>
Section: net
Priority: optional
Installed-Size: $(du -sk --exclude=DEBIAN "$STAGE" | cut -f1)
Depends: $DEPENDS, adduser | passwd, procps
Recommends: default-dbus-system-bus | dbus-system-bus, postgresql-client
Suggests: postgresql, nginx
Description: receives Entrupy webhooks and notifies partners of authentication results
 Verifies Entrupy's signed webhooks and stores each in PostgreSQL before answering,
 reconciles every item with the Entrupy API into a current state and a timeline,
 and delivers email and signed HTTP callbacks for the transitions reviewed rules
 match, through an outbox with retries. Ships systemd units for serve, worker
 replicas and migrations.
TXT
echo /etc/entrupy-relay/relay.env > "$STAGE/DEBIAN/conffiles"
cat > "$STAGE/DEBIAN/postinst" <<'SH'
#!/bin/sh
# Creates the system user the services run as; starts nothing (configure, then
# systemctl enable --now entrupy-relay).
set -e
if [ "$1" = configure ]; then
  if ! getent passwd entrupy-relay >/dev/null; then
    if command -v systemd-sysusers >/dev/null 2>&1; then
      systemd-sysusers entrupy-relay.conf
    else
      useradd --system --user-group --home-dir /nonexistent --no-create-home --shell /usr/sbin/nologin entrupy-relay
    fi
  fi
  chown root:entrupy-relay /etc/entrupy-relay/relay.env
  chmod 0640 /etc/entrupy-relay/relay.env
  chmod 0700 /etc/entrupy-relay/credentials
  if [ -d /run/systemd/system ]; then systemctl daemon-reload || true; fi
fi
exit 0
SH
cat > "$STAGE/DEBIAN/prerm" <<'SH'
#!/bin/sh
# Stops the services before the binary goes (an upgrade restarts them after: see docs/operations.md).
set -e
if [ -d /run/systemd/system ] && [ "$1" = remove ]; then
  systemctl stop 'entrupy-relay-worker@*.service' entrupy-relay.service || true
fi
exit 0
SH
cat > "$STAGE/DEBIAN/postrm" <<'SH'
#!/bin/sh
set -e
if [ -d /run/systemd/system ]; then systemctl daemon-reload || true; fi
exit 0
SH
chmod 0755 "$STAGE/DEBIAN/postinst" "$STAGE/DEBIAN/prerm" "$STAGE/DEBIAN/postrm"

mkdir -p "$OUT"
DEB="$OUT/entrupy-relay_${VERSION}_${ARCH}.deb"
dpkg-deb --root-owner-group -Zxz --build "$STAGE" "$DEB" >&2
log "built $DEB ($(du -h "$DEB" | cut -f1))"
printf '%s\n' "$DEB"
