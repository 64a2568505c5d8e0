#!/usr/bin/env bash
# Installs what the test suite talks to besides PostgreSQL, only when missing, so a fresh
# Debian machine needs nothing by hand: curl, openssl, nginx, and chromium with its driver
# (the console's browser test) and promtool from Debian, and the PyPI tools (aiosmtpd, standardwebhooks,
# schemathesis, selenium) through pytools.sh. Tests start the servers themselves
# on loopback and stop them by PID. Prints the python that runs deploy/test-servers/.
set -euo pipefail
missing=()
command -v curl >/dev/null 2>&1 || missing+=(curl)
command -v openssl >/dev/null 2>&1 || missing+=(openssl)
[ -x /usr/sbin/nginx ] || command -v nginx >/dev/null 2>&1 || missing+=(nginx-light)
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v chromedriver >/dev/null 2>&1 || missing+=(chromium-driver)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then echo "test-tools.sh: please install: ${missing[*]}" >&2; exit 1; fi
  apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi
# promtool (Prometheus's linter: the /metrics test runs `promtool check metrics`, local.sh test runs
# `promtool check rules` and `test rules` on deploy/prometheus/) and the prometheus server (the alert
# test scrapes a real serve and worker with it) are taken out of Debian's prometheus package into
# .local/bin: installing the package would start a server too.
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
if [ ! -x "$ROOT/.local/bin/promtool" ] || [ ! -x "$ROOT/.local/bin/prometheus" ]; then
  unpack=$(mktemp -d)
  if ! (cd "$unpack" && apt-get download -qq prometheus >&2 2>/dev/null); then
    if [ "$(id -u)" -ne 0 ]; then echo "test-tools.sh: please install: prometheus (for promtool and prometheus)" >&2; exit 1; fi
    apt-get update -qq >&2 && (cd "$unpack" && apt-get download -qq prometheus >&2)
  fi
  dpkg-deb --fsys-tarfile "$unpack"/prometheus_*.deb | tar -x -C "$unpack" ./usr/bin/promtool ./usr/bin/prometheus
  mkdir -p "$ROOT/.local/bin" && mv "$unpack/usr/bin/promtool" "$unpack/usr/bin/prometheus" "$ROOT/.local/bin/"
  rm -rf "$unpack"
fi
exec "$(dirname "$0")/pytools.sh"
