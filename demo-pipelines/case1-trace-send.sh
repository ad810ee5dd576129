#!/bin/sh
# Case study 1 from the VP8 temporal-layer trace (no encoder): frames of the
# trace's sizes at 30 fps; octopustag tags key 0/0, TL0 1/2, TL1 2/2, TL2 3/3
# from the layer ids the source attaches.
#   case1-trace-send.sh HOST PORT [TRACE]
# Needs GST_PLUGIN_PATH=<build>/gst-octopus/plugin.
DIR=$(cd "$(dirname "$0")/.." && pwd)
HOST=${1:-127.0.0.1}
PORT=${2:-5004}
TRACE=${3:-$DIR/data/traces/video/mot17-10-temp.trace}
exec gst-launch-1.0 -e octopustracesrc kind=temporal tag=false location="$TRACE" \
  ! octopustag policy=framerate \
  ! octopussink host="$HOST" port="$PORT"
