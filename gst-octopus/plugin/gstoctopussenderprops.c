/* The sender elements' shared properties (see gstoctopussenderprops.h). */
#include "gstoctopussenderprops.h"

#define RW (G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS)
#define RO (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS)

GType
gst_octopus_congestion_control_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_OCTOPUS_CC_BBR, "BBR", "bbr"},
    {GST_OCTOPUS_CC_DELAY_BBR,
        "Delay-BBR: backs off when the RTT grows (paper 003)", "delay-bbr"},
    {GST_OCTOPUS_CC_FIXED, "Fixed rate: pace at max-bitrate, no window",
        "fixed"},
    /* NACKs come only over the Octopus transport (octopussink); in
     * octopusrtpsender quco is newreno and trim-aware-bbr is bbr. */
    {GST_OCTOPUS_CC_QUCO, "QUCO: a TCP-like window that also backs off by "
          "the chunks a quco queue trimmed (paper 004; octopussink)", "quco"},
    {GST_OCTOPUS_CC_NEWRENO, "NewReno-like window: halves on loss only",
        "newreno"},
    {GST_OCTOPUS_CC_TRIM_AWARE_BBR, "BBR whose rate and window also back off "
          "by the chunks a quco queue trimmed (octopussink)",
        "trim-aware-bbr"},
    {0, NULL, NULL}
  };
  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstOctopusCongestionControl", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

OctoSenderCc
gst_octopus_congestion_control_to_core (GstOctopusCongestionControl cc)
{
  switch (cc) {
    case GST_OCTOPUS_CC_DELAY_BBR:
      return OCTO_SENDER_DELAY_BBR;
    case GST_OCTOPUS_CC_FIXED:
      return OCTO_SENDER_FIXED;
    case GST_OCTOPUS_CC_QUCO:
      return OCTO_SENDER_QUCO;
    case GST_OCTOPUS_CC_NEWRENO:
      return OCTO_SENDER_NEWRENO;
    case GST_OCTOPUS_CC_TRIM_AWARE_BBR:
      return OCTO_SENDER_BBR_QUCO;
    default:
      return OCTO_SENDER_BBR;
  }
}

GParamSpec *
gst_octopus_sender_param_congestion_control (void)
{
  return g_param_spec_enum ("congestion-control", "Congestion control",
      "Algorithm that sets the pacing rate and the window",
      GST_TYPE_OCTOPUS_CONGESTION_CONTROL,
      GST_OCTOPUS_SENDER_DEFAULT_CONGESTION_CONTROL, RW);
}

GParamSpec *
gst_octopus_sender_param_rules (void)
{
  return g_param_spec_boolean ("rules", "Dropping rules",
      "Apply the Octopus dropping rules to the messages in the send buffer "
      "(FALSE: drop-tail)", GST_OCTOPUS_SENDER_DEFAULT_RULES, RW);
}

GParamSpec *
gst_octopus_sender_param_buffer_size (void)
{
  return g_param_spec_uint64 ("buffer-size", "Send buffer size",
      "Send buffer in bytes of IP datagrams (headers included); the "
      "dropping rules act in it", 1500, G_MAXUINT32,
      GST_OCTOPUS_SENDER_DEFAULT_BUFFER_SIZE, RW);
}

GParamSpec *
gst_octopus_sender_param_max_bitrate (void)
{
  return g_param_spec_uint ("max-bitrate", "Maximum bitrate",
      "Cap on the estimate in bits/s of IP datagrams (0 = none); a "
      "windowed controller paces at up to 2.5 times it (a key frame is not "
      "held by the application's own cap); the rate itself for "
      "congestion-control=fixed", 0,
      G_MAXUINT, GST_OCTOPUS_SENDER_DEFAULT_MAX_BITRATE, RW);
}

GParamSpec *
gst_octopus_sender_param_estimated_bitrate (void)
{
  return g_param_spec_uint ("estimated-bitrate", "Estimated bitrate",
      "Rate the encoder should aim at, bits/s of IP datagrams (0 = "
      "unknown): the bottleneck-bandwidth estimate, or while the path holds "
      "a standing queue (smoothed RTT at least 1.5 times the minimum) at "
      "most 1.5 times the rate acknowledged in the last 250 ms plus 10 kbit/s; "
      "notified on changes of more than 5 %", 0, G_MAXUINT, 0, RO);
}

GParamSpec *
gst_octopus_sender_param_stats (void)
{
  return g_param_spec_boxed ("stats", "Statistics",
      "Pacing rate, estimate, RTTs, window, inflight, queue and drops by "
      "reason and priority; also posted as an element message every "
      "stats-interval", GST_TYPE_STRUCTURE, RO);
}

GParamSpec *
gst_octopus_sender_param_stats_interval (void)
{
  return g_param_spec_uint ("stats-interval", "Stats interval",
      "Milliseconds between stats element messages on the bus (0 = none)",
      0, G_MAXUINT, GST_OCTOPUS_SENDER_DEFAULT_STATS_INTERVAL, RW);
}

GParamSpec *
gst_octopus_sender_param_outage_restart (void)
{
  return g_param_spec_uint ("outage-restart", "Outage restart",
      "After this many ms with packets sent and none acknowledged (an "
      "outage), send one upstream force-key-unit event, so that the "
      "key frame's dropper lets the queues drop what the outage holds "
      "(0 = never; one path only: over several, a silent path's packets "
      "move to the others; an encoder with frequent key frames or syncs "
      "gives the queues droppers without it)", 0, G_MAXUINT,
      GST_OCTOPUS_SENDER_DEFAULT_OUTAGE_RESTART, RW);
}
