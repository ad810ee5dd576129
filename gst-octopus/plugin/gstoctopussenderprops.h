/* What octopussink and octopusrtpsender share in their interface: the
 * congestion-control enum and the specs of the properties both have, so
 * that one name means one thing (the names follow rtpgccbwe's:
 * estimated-bitrate, max-bitrate). */
#pragma once

#include <gst/gst.h>

#include "octo-engine.h"
#include "transport/octo-cc.h"
#include "transport/octo-send-session.h"

G_BEGIN_DECLS

typedef enum {
  GST_OCTOPUS_CC_BBR = 0,
  GST_OCTOPUS_CC_DELAY_BBR,
  GST_OCTOPUS_CC_FIXED,
  GST_OCTOPUS_CC_QUCO,
  GST_OCTOPUS_CC_NEWRENO,
  GST_OCTOPUS_CC_TRIM_AWARE_BBR,
} GstOctopusCongestionControl;

#define GST_TYPE_OCTOPUS_CONGESTION_CONTROL \
  (gst_octopus_congestion_control_get_type ())
GType gst_octopus_congestion_control_get_type (void);
OctoSenderCc gst_octopus_congestion_control_to_core (
    GstOctopusCongestionControl cc);

#define GST_OCTOPUS_SENDER_DEFAULT_CONGESTION_CONTROL GST_OCTOPUS_CC_BBR
#define GST_OCTOPUS_SENDER_DEFAULT_RULES TRUE
#define GST_OCTOPUS_SENDER_DEFAULT_BUFFER_SIZE OCTO_ENGINE_DEFAULT_LIMIT_BYTES
#define GST_OCTOPUS_SENDER_DEFAULT_MAX_BITRATE 0
#define GST_OCTOPUS_SENDER_DEFAULT_STATS_INTERVAL 1000
#define GST_OCTOPUS_SENDER_DEFAULT_OUTAGE_RESTART \
  (OCTO_SEND_DEFAULT_RESTART_AFTER / OCTO_MSECOND)

/* "congestion-control", "rules", "buffer-size",
 * "max-bitrate", "estimated-bitrate" (read-only), "stats" (read-only),
 * "stats-interval" and "outage-restart". */
GParamSpec *gst_octopus_sender_param_congestion_control (void);
GParamSpec *gst_octopus_sender_param_rules (void);
GParamSpec *gst_octopus_sender_param_buffer_size (void);
GParamSpec *gst_octopus_sender_param_max_bitrate (void);
GParamSpec *gst_octopus_sender_param_estimated_bitrate (void);
GParamSpec *gst_octopus_sender_param_stats (void);
GParamSpec *gst_octopus_sender_param_stats_interval (void);
GParamSpec *gst_octopus_sender_param_outage_restart (void);

G_END_DECLS
