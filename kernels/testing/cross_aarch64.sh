# Sourced by the tests that build for aarch64 with Debian's cross compiler
# and run the result under qemu-user: the two tools, checked present.
CXX=aarch64-linux-gnu-g++
QEMU=qemu-aarch64
for tool in "$CXX" "$QEMU"; do
  if ! command -v "$tool" >/dev/null; then
    echo "FAIL: $tool is missing: install g++-aarch64-linux-gnu and qemu-user (scripts/setup.sh)"
    exit 1
  fi
done
