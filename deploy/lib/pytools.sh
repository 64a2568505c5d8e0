#!/usr/bin/env bash
# Makes the private virtualenv (.local/pytools) with the PyPI packages the tests, the local
# demo and the queue benchmark use: aiosmtpd (an SMTP server), standardwebhooks (verifies
# callbacks), schemathesis (checks the query API against its OpenAPI document), opentelemetry-proto
# (decodes the traces the relay exports), pgqueuer and
# asyncpg (the peer queue that deploy/bench/pgqueuer_drain.py measures next to ours). Installs
# python3 and its venv module from Debian when missing. Prints the virtualenv's python.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
VENV=$ROOT/.local/pytools
PY_PACKAGES=(aiosmtpd==1.4.6 standardwebhooks==1.1.0 schemathesis==4.32.5 pgqueuer==1.6.0 asyncpg==0.32.0 opentelemetry-proto==1.38.0)

missing=()
command -v python3 >/dev/null 2>&1 || missing+=(python3)
if command -v python3 >/dev/null 2>&1 && ! python3 -c 'import venv, ensurepip' >/dev/null 2>&1; then missing+=(python3-venv); fi
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then echo "pytools.sh: please install: ${missing[*]}" >&2; exit 1; fi
  apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >&2
fi

stamp="$VENV/.packages"
if [ ! -x "$VENV/bin/python" ] || [ "$(cat "$stamp" 2>/dev/null)" != "${PY_PACKAGES[*]}" ]; then
  echo "pytools.sh: creating $VENV with ${PY_PACKAGES[*]}" >&2
  rm -rf "$VENV"
  mkdir -p "$(dirname "$VENV")"
  python3 -m venv "$VENV" >&2
  "$VENV/bin/pip" install -q --disable-pip-version-check "${PY_PACKAGES[@]}" >&2
  echo "${PY_PACKAGES[*]}" > "$stamp"
fi
echo "$VENV/bin/python"
