#!/bin/sh
# Case study 2 receiver: reassembles messages and logs every arrival; stop it
# with Ctrl-C, then score with
#   <build>/eval/octo-metrics --case 2 --sent SENT_LOG --received LOG --out DIR
#   case2-receive.sh [PORT] [LOG]
# Needs GST_PLUGIN_PATH=<build>/gst-octopus/plugin.
PORT=${1:-5004}
LOG=${2:-case2-received.csv}
exec gst-launch-1.0 -e octopussrc port="$PORT" ! octopusframelog location="$LOG"
