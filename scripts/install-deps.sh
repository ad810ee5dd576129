#!/usr/bin/env bash
# Installs what gst-octopus needs on Debian 12, skipping what is present.
# Used by `make test`, `make demo` and CI; safe to run repeatedly.
set -euo pipefail

packages=(
  meson ninja-build pkg-config gcc g++ clang libclang-rt-14-dev
  libglib2.0-dev libjson-glib-dev
  libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev
  libgstreamer-plugins-bad1.0-dev
  gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good
  gstreamer1.0-plugins-bad gstreamer1.0-libav
  libnice-dev gstreamer1.0-nice
  libvpx-dev libdraco-dev libpng-dev
  tshark chromium
  python3-numpy python3-matplotlib python3-skimage python3-gi gir1.2-gstreamer-1.0
  gir1.2-gst-plugins-base-1.0 gir1.2-gst-plugins-bad-1.0
)

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [ "$status" = "install ok installed" ] || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "install-deps: installing ${missing[*]}"
sudo=()
[ "$(id -u)" -eq 0 ] || sudo=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
