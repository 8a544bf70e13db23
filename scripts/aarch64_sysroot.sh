#!/usr/bin/env bash
# Makes the AArch64 sysroot that --config=aarch64 links against: Debian's
# arm64 builds of qnnc's libraries, downloaded with apt and unpacked into a
# directory, never installed. (Installing some of them with apt removes their
# amd64 builds, XNNPACK's among them, or fails to unpack beside them.)
# The C and C++ runtimes come from the cross compiler (g++-aarch64-linux-gnu).
#
#   scripts/aarch64_sysroot.sh [DIR]   (default: $QNNC_AARCH64_SYSROOT or
#                                       /opt/qnnc/aarch64-sysroot)
# Safe to run again: it does nothing when DIR holds these package versions.
set -euo pipefail

SYSROOT="${1:-${QNNC_AARCH64_SYSROOT:-/opt/qnnc/aarch64-sysroot}}"
PACKAGES=(
  libxnnpack-dev libxnnpack0 libpthreadpool-dev libpthreadpool0
  libcpuinfo-dev libcpuinfo0
  libabsl-dev libabsl20220623 libre2-dev libre2-9
  libgtest-dev libgmock-dev libbenchmark-dev libbenchmark1debian
  libprotobuf-dev libprotobuf32 libprotobuf-lite32 libonnx-dev libonnx1
  libxgboost-dev libxgboost0 libdmlc0
  zlib1g zlib1g-dev
)

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
  echo "aarch64 sysroot: adding Debian's arm64 architecture to apt"
  $SUDO dpkg --add-architecture arm64
  $SUDO apt-get update -qq
fi

# The version of each: the host's own where it has the package (the cross
# compiler reads the libraries' headers from /usr/include, Debian's shared
# multiarch headers), else apt's candidate.
versions() {
  for p in "${PACKAGES[@]}"; do
    v=$(dpkg-query -W -f='${Status} ${Version}' "$p:amd64" 2>/dev/null |
      sed -n 's/^install ok installed //p')
    [ -n "$v" ] || v=$(apt-cache policy "$p:arm64" | sed -n 's/^ *Candidate: //p')
    printf '%s=%s\n' "$p" "$v"
  done
}
wanted=$(versions)
if grep -q '=$\|=(none)$' <<<"$wanted"; then
  echo "aarch64 sysroot: no arm64 candidate for: $(grep '=$\|=(none)$' <<<"$wanted" | tr '\n' ' ')" >&2
  echo "  (run 'apt-get update' after 'dpkg --add-architecture arm64')" >&2
  exit 1
fi
if [ -f "$SYSROOT/.qnnc-packages" ] && [ "$(cat "$SYSROOT/.qnnc-packages")" = "$wanted" ]; then
  echo "aarch64 sysroot: $SYSROOT is up to date (${#PACKAGES[@]} packages)"
  exit 0
fi

debs=$(mktemp -d)
chmod 777 "$debs"  # apt-get download runs as _apt where it can
trap 'rm -rf "$debs"' EXIT
echo "aarch64 sysroot: downloading ${#PACKAGES[@]} arm64 packages"
(cd "$debs" && apt-get download -qq $(sed 's/=/:arm64=/' <<<"$wanted") 2>&1 |
  grep -v "^W: Download is performed unsandboxed" || true)
count=$(ls "$debs"/*.deb 2>/dev/null | wc -l)
if [ "$count" -ne ${#PACKAGES[@]} ]; then
  echo "aarch64 sysroot: downloaded $count of ${#PACKAGES[@]} packages" >&2
  exit 1
fi
staging="$SYSROOT.new"
$SUDO rm -rf "$staging"
$SUDO mkdir -p "$staging"
for d in "$debs"/*.deb; do $SUDO dpkg -x "$d" "$staging"; done
# Links a package made absolute (libz.so -> /lib/...) point into the sysroot.
find "$staging" -type l -lname '/*' | while read -r link; do
  $SUDO ln -sfr "$staging$(readlink "$link")" "$link"
done
echo "$wanted" | $SUDO tee "$staging/.qnnc-packages" >/dev/null
$SUDO rm -rf "$SYSROOT"
$SUDO mv "$staging" "$SYSROOT"
echo "aarch64 sysroot: $SYSROOT ($count packages)"
