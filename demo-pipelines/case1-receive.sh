#!/bin/sh
# Case study 1 receiver: octopussrc -> VP8 decoder, logging every arrival.
#   case1-receive.sh [PORT] [LOG]      (Ctrl-C to stop)
# Needs GST_PLUGIN_PATH=<build>/gst-octopus/plugin.
PORT=${1:-5004}
LOG=${2:-case1-received.csv}
exec gst-launch-1.0 -e octopussrc port="$PORT" caps=video/x-vp8 ! tee name=t \
  t. ! queue ! vp8dec ! fakesink sync=false \
  t. ! queue ! octopusframelog location="$LOG"
