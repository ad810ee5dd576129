#!/usr/bin/env bash
# Builds rtpgccbwe (Google Congestion Control, from gst-plugins-rs) as
# OUTDIR/lib/libgstrsrtp.so against the system GStreamer, so that
# GST_PLUGIN_PATH=OUTDIR/lib makes `gst-inspect-1.0 rtpgccbwe` work.
# The WebRTC demos use it as the real GCC baseline.
#
# Usage: scripts/build-rtpgccbwe.sh [OUTDIR]   (default: build/rtpgccbwe of the repo)
#
# The crate is fetched from crates.io with cargo and built with its own
# published Cargo.lock (--locked). 0.14.x binds gstreamer-rs 0.24 with the
# v1_20 feature, so it loads into Debian 12's GStreamer 1.22; it needs
# Rust >= 1.83 (rustup's cargo in ~/.cargo/bin is used when cargo is not on
# PATH). Skips everything when the library of this version is already there.
set -euo pipefail

CRATE=gst-plugin-rtp
VERSION=0.14.5

root=$(cd "$(dirname "$0")/.." && pwd)
outdir=${1:-$root/build/rtpgccbwe}
mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)
lib="$outdir/lib/libgstrsrtp.so"
stamp="$outdir/lib/.version"

if [ -f "$lib" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$CRATE $VERSION" ]; then
  exit 0
fi

cargo=$(command -v cargo || true)
[ -n "$cargo" ] || cargo="$HOME/.cargo/bin/cargo"
if [ ! -x "$cargo" ]; then
  echo "build-rtpgccbwe: cargo not found (install Rust >= 1.83 with rustup)" >&2
  exit 1
fi
for pc in gstreamer-1.0 gstreamer-base-1.0 gstreamer-rtp-1.0 gstreamer-net-1.0; do
  if ! pkg-config --exists "$pc"; then
    echo "build-rtpgccbwe: pkg-config cannot find $pc (apt-get install libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev)" >&2
    exit 1
  fi
done

# cargo downloads and verifies the crate: a throwaway manifest depending on
# exactly this version, then `cargo metadata` says where its sources are.
fetch="$outdir/fetch"
mkdir -p "$fetch/src"
: > "$fetch/src/lib.rs"
cat > "$fetch/Cargo.toml" <<EOF
[package]
name = "fetch-$CRATE"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
$CRATE = "=$VERSION"
EOF
"$cargo" fetch --quiet --manifest-path "$fetch/Cargo.toml"
manifest=$("$cargo" metadata --format-version 1 --manifest-path "$fetch/Cargo.toml" |
  /usr/bin/python3 -c '
import json, sys
name, version = sys.argv[1], sys.argv[2]
for p in json.load(sys.stdin)["packages"]:
    if p["name"] == name and p["version"] == version:
        print(p["manifest_path"])
' "$CRATE" "$VERSION")
src=$(dirname "$manifest")
if [ ! -f "$src/Cargo.lock" ]; then
  echo "build-rtpgccbwe: $CRATE $VERSION was published without Cargo.lock" >&2
  exit 1
fi

# Build a private copy: cargo's registry sources are read-only by convention.
rm -rf "$outdir/src"
cp -r "$src" "$outdir/src"
# The crate's build script names the plugin's version after the git commit
# of the directory it is built in: point git at no repository, so it takes
# the crate's release date instead of our commit.
GIT_DIR="$outdir/no-repository" CARGO_TARGET_DIR="$outdir/target" "$cargo" build --release --locked \
  --manifest-path "$outdir/src/Cargo.toml"

mkdir -p "$outdir/lib"
cp "$outdir/target/release/libgstrsrtp.so" "$lib"
echo "$CRATE $VERSION" > "$stamp"
echo "build-rtpgccbwe: $lib"
