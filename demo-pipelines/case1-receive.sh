#!/bin/sh
# Case study 1 receiver: octopussrc -> VP8 decoder, with a per-frame CSV.
#   case1-receive.sh [PORT] [CSV]      (Ctrl-C to stop; the CSV is then written)
# Needs GST_PLUGIN_PATH=<build>/gst-octopus/plugin.
PORT=${1:-5004}
CSV=${2:-case1-frames.csv}
exec gst-launch-1.0 -e octopussrc port="$PORT" caps=video/x-vp8 ! tee name=t \
  t. ! queue ! vp8dec ! fakesink sync=false \
  t. ! queue ! octopusframelog location="$CSV"
