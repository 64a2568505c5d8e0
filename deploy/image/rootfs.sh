#!/usr/bin/env bash
# Lays out the image's root file system in an empty folder, for deploy/image.sh:
#   deploy/image/rootfs.sh BINARY STAGE
# The relay is built with the Swift runtime linked in (--static-swift-stdlib), but it still
# links glibc (and the C++ runtime) dynamically. Those libraries, the CA certificates and the
# time zones are taken out of Debian's own packages (the release this machine runs, which built
# the binary; each at the newest version apt offers, security updates included), not copied
# from this machine: no local file or added CA can slip in. Nothing else goes in: no shell,
# no package manager.
set -euo pipefail
BIN=$1 STAGE=$2
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
log() { printf 'image: %s\n' "$*" >&2; }
DEBS=$(mktemp -d)
trap 'rm -rf "$DEBS"' EXIT

# The Debian package (as name:arch) that holds a library path, and the path as it names it.
owner_of() {
  local path=$1 candidate found=""
  for candidate in "$path" "/usr$path" "${path#/usr}" "$(realpath "$path")"; do
    found=$(dpkg -S "$candidate" 2>/dev/null | grep -v '^diversion' | head -1 | sed 's/: .*//') && [ -n "$found" ] && break
  done
  [ -n "$found" ] || { log "no Debian package holds $path"; return 1; }
  case $found in *:*) ;; *) found="$found:$(dpkg --print-architecture)";; esac
  printf '%s %s\n' "$found" "$candidate"
}

# Downloads and unpacks a package (name or name:arch) under $DEBS/NAME; prints that folder.
unpack() {
  local spec=$1 name=${1%%:*}
  if [ ! -d "$DEBS/$name" ]; then
    (cd "$DEBS" && apt-get download -qq "$spec" >&2 2>/dev/null) || {
      log "apt-get update (to download $spec)"; apt-get update -qq >&2; (cd "$DEBS" && apt-get download -qq "$spec" >&2)
    }
    dpkg-deb -x "$DEBS/${name}_"*.deb "$DEBS/$name"
  fi
  printf '%s\n' "$DEBS/$name"
}

# Copies PATH out of an unpacked package, following symlinks inside it, keeping each link.
copy_from() {
  local root=$1 path=$2 hops=0
  while :; do
    install -d "$STAGE$(dirname "$path")"
    cp -a "$root$path" "$STAGE$path"
    [ -L "$root$path" ] || break
    local target; target=$(readlink "$root$path")
    case $target in /*) path=$target;; *) path="$(dirname "$path")/$target";; esac
    hops=$((hops + 1)); [ $hops -lt 8 ] || { log "too many links at $path"; return 1; }
  done
}

deb_of() { basename "$(ls "$DEBS/${1}_"*.deb)"; }

# The package's copyright file; a doc folder that links to another package's (libgcc-s1 to
# gcc-12-base) gets that package's, from that package.
copyright_of() {
  local root=$1 name=$2 arch=${3:-}
  if [ -L "$root/usr/share/doc/$name" ]; then
    local other; other=$(basename "$(readlink "$root/usr/share/doc/$name")")
    copyright_of "$(unpack "$other${arch:+:$arch}")" "$other"
    return
  fi
  install -D -m 0644 "$root/usr/share/doc/$name/copyright" "$STAGE/usr/share/doc/$name/copyright"
}

chmod 0755 "$STAGE"   # mktemp made it 0700: the image's user must reach /
install -d -m 0755 "$STAGE/usr/bin" "$STAGE/etc/ssl/certs" "$STAGE/usr/share"
install -d -m 1777 "$STAGE/tmp"
install -m 0755 "$BIN" "$STAGE/usr/bin/entrupy-relay"
strip --strip-unneeded "$STAGE/usr/bin/entrupy-relay"
install -m 0644 "$HERE/passwd" "$HERE/group" "$HERE/nsswitch.conf" "$STAGE/etc/"

# What the dynamic loader needs: every library ldd names, and the loader itself.
ldd_out=$(ldd "$BIN" 2>&1) || true
if grep -q 'not found' <<<"$ldd_out"; then log "ldd: $ldd_out"; exit 1; fi
libs=$(sed -nE 's#.*=> (/[^ ]+) .*#\1#p; s#^[[:space:]]*(/[^ ]+) \(0x.*#\1#p' <<<"$ldd_out" | sort -u)
for lib in $libs; do
  read -r spec path < <(owner_of "$lib") || true
  [ -n "${spec:-}" ] || exit 1
  root=$(unpack "$spec")
  [ -e "$root$path" ] || [ -L "$root$path" ] || { log "$spec has no $path"; exit 1; }
  copy_from "$root" "$path"
  copyright_of "$root" "${spec%%:*}" "${spec#*:}"
  log "  $path from $(deb_of "${spec%%:*}")"
done

# CA certificates: the bundle update-ca-certificates makes, from the package's Mozilla set.
ca=$(unpack ca-certificates)
find "$ca/usr/share/ca-certificates/mozilla" -name '*.crt' | LC_ALL=C sort | while read -r crt; do
  cat "$crt"; [ -z "$(tail -c1 "$crt")" ] || echo
done > "$STAGE/etc/ssl/certs/ca-certificates.crt"
chmod 0644 "$STAGE/etc/ssl/certs/ca-certificates.crt"
copyright_of "$ca" ca-certificates
log "  $(grep -c 'BEGIN CERTIFICATE' "$STAGE/etc/ssl/certs/ca-certificates.crt") CA certificates from $(deb_of ca-certificates)"

# Time zones: all of tzdata's /usr/share/zoneinfo.
tz=$(unpack tzdata)
cp -a "$tz/usr/share/zoneinfo" "$STAGE/usr/share/"
copyright_of "$tz" tzdata
log "  /usr/share/zoneinfo from $(deb_of tzdata)"

# The root is complete when the binary starts in it, as the image's user. It reads its
# arguments from /proc/self/cmdline, so /proc is mounted (in a mount namespace of its own,
# gone when it exits) on the empty /proc every container runtime mounts over too.
install -d -m 0555 "$STAGE/proc"
version=$(unshare --mount --propagation private sh -c 'mount -t proc proc "$1/proc" && exec chroot --userspec=65532:65532 "$1" /usr/bin/entrupy-relay --version' sh "$STAGE") \
  || { log "the binary does not start in the image's root"; exit 1; }
[ "$version" = "$("$BIN" --version)" ] || { log "the binary in the image's root says $version"; exit 1; }
log "root file system: $(du -sh "$STAGE" | cut -f1), entrupy-relay $version starts in it"
