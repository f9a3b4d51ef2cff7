#!/bin/sh
# Builds the counter-rs plugin with plain rustc (no cargo, no dependencies).
#   ./build.sh              → ./libcounter_rs.so
#   ./build.sh /tmp/out     → /tmp/out/libcounter_rs.so
# Then copy the .so into a plugins directory:  strada-host run index.html --plugins <dir>
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here}
mkdir -p "$out"
rustc --edition 2021 --crate-type cdylib -O "$here/lib.rs" -o "$out/libcounter_rs.so"
echo "built $out/libcounter_rs.so"
