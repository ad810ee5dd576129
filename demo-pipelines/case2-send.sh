#!/bin/sh
# Case study 2 sender: the 3-layer quality trace; the source picks each
# GoP's level from octopussink's bandwidth estimate (upstream event), the
# tagger sets Q0/Q1/Q2 priorities and the cumulative-rate thresholds.
#   case2-send.sh HOST PORT [TRACE] [CC] [SENT_LOG]   (CC: bbr or delay-bbr)
# Needs GST_PLUGIN_PATH=<build>/gst-octopus/plugin.
DIR=$(cd "$(dirname "$0")/.." && pwd)
HOST=${1:-127.0.0.1}
PORT=${2:-5004}
TRACE=${3:-$DIR/data/traces/video/mot17-10-quality.trace}
CC=${4:-bbr}
LOG=${5:-case2-sent.csv}
exec gst-launch-1.0 -e octopustracesrc kind=quality tag=false \
    location="$TRACE" sent-log="$LOG" \
  ! octopustag policy=quality \
  ! octopussink host="$HOST" port="$PORT" congestion-control="$CC"
