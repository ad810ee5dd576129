#!/bin/sh
# Prints the environment that lets GStreamer find the three plugins of a
# build (octopus, octopussvc, octopuspc) or of an installation:
#   eval "$(scripts/gst-env.sh)"            # the build in ./build
#   eval "$(scripts/gst-env.sh BUILD)"      # another build dir
#   scripts/gst-env.sh --path [BUILD]       # just the GST_PLUGIN_PATH value
#   scripts/gst-env.sh --installed [BUILD]  # after `meson install`: nothing
#                                           # if the plugins went where the
#                                           # system GStreamer looks
set -eu
mode=export
case "${1:-}" in
  --path) mode=path; shift ;;
  --installed) mode=installed; shift ;;
  -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
esac
build=$(cd "${1:-build}" 2>/dev/null && pwd) || {
  echo "gst-env.sh: no build dir '${1:-build}' (meson setup build)" >&2; exit 1; }

if [ "$mode" = installed ]; then
  dir=$(meson introspect "$build" --installed | python3 -c '
import json, os, sys
for src, dst in json.load(sys.stdin).items():
    if os.path.basename(src) == "libgstoctopus.so":
        print(os.path.dirname(dst))')
  system=$(pkg-config --variable=pluginsdir gstreamer-1.0 2>/dev/null || true)
  if [ "$dir" != "$system" ]; then
    echo "# GStreamer does not search $dir; add it:"
    echo "export GST_PLUGIN_PATH=$dir\${GST_PLUGIN_PATH:+:\$GST_PLUGIN_PATH}"
  fi
  exit 0
fi

path=$build/gst-octopus/plugin:$build/svc-encoder:$build/pointcloud
if [ "$mode" = path ]; then
  echo "$path"
else
  echo "export GST_PLUGIN_PATH=$path\${GST_PLUGIN_PATH:+:\$GST_PLUGIN_PATH}"
fi
