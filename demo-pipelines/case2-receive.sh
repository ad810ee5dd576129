#!/bin/sh
# Case study 2 receiver: reassembles messages and writes the per-frame CSV
# (shown frame, latency, layers, SSIM) when stopped (Ctrl-C / SIGINT).
#   case2-receive.sh [PORT] [CSV]
# Needs GST_PLUGIN_PATH=<build>/gst-octopus/plugin.
PORT=${1:-5004}
CSV=${2:-case2-frames.csv}
exec gst-launch-1.0 -e octopussrc port="$PORT" ! octopusframelog location="$CSV"
