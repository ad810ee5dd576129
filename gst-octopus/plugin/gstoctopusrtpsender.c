/* octopusrtpsender: the Octopus transport's sender logic for RTP, in
 * rtpgccbwe's place as webrtcbin's aux sender (signal request-aux-sender;
 * rtpbin links it before its rtpsession).
 *
 * Every RTP packet from the payloader waits in the send buffer of the
 * core's OctoRtpSender: an OctoEngine keyed by SSRC whose bandwidth is BBR's
 * bottleneck estimate, so the dropping rules act on the Octopus parameters
 * the rtphdrextoctopus extension carries (packets without it pass as plain
 * FIFO traffic).  A pad task pushes packets out as BBR's pacing rate and
 * window allow, each numbered in its transport-cc extension
 * (draft-holmer-rmcat-transport-wide-cc-extensions-01): the extension ids
 * come from the caps' extmap-N fields; webrtcbin's caps here lack the
 * Octopus one, which is then learned from the packets (octo-rtpext.h).  rtpsession renumbers that field
 * with its own counter, which also starts at 0 and counts exactly the
 * packets that pass here, so both numberings agree (the stats'
 * twcc-size-mismatches would show if they did not).  The feedback arrives
 * as rtpsession's upstream custom event RTPTWCCPackets; the core turns it
 * into delivery-rate samples (octo-twcc.h).
 *
 * The rate for the encoder is the property estimated-bitrate (bits/s of IP
 * datagrams, notified on changes of more than 5 %): the core's application
 * rate (the bandwidth estimate, or less while the path holds a standing
 * queue; octo-send-path.h), for the encoder to follow with an overshoot:
 * the send buffer's rules, not the encoder, match the rate.
 * The properties both senders have are octopussink's
 * (gstoctopussenderprops.h), and so is the stats structure's common part,
 * also posted on the bus every stats-interval.
 *
 * An outage (outage-restart ms with packets sent and none acknowledged)
 * sends one upstream force-key-unit event (all-headers): the key frame's
 * dropper lets the queues drop what the outage holds (octo-rtp-sender.h).
 *
 * No NACK/RTX: a message the rules may drop must never be retransmitted,
 * so leave webrtcbin's do-nack off; the receiver's rtpjitterbuffer should
 * run with a small latency and drop-on-latency (and no do-retransmission)
 * so it never waits for a layer that was dropped on purpose
 * (demo-pipelines/webrtc-call.py does this). */
#include "gstoctopusrtpsender.h"

#include <gst/rtp/gstrtpbuffer.h>
#include <gst/video/video.h>

#include "gstoctopussenderprops.h"
#include "gstoctopusstats.h"
#include "octo-rtpext.h"
#include "transport/octo-rtp-sender.h"

GST_DEBUG_CATEGORY_STATIC (gst_octopus_rtp_sender_debug);
#define GST_CAT_DEFAULT gst_octopus_rtp_sender_debug

#define TWCC_URI \
  "http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-01"
#define TWCC_EXT_LEN 2

enum {
  PROP_0,
  PROP_CONGESTION_CONTROL,
  PROP_RULES,
  PROP_BUFFER_SIZE,
  PROP_MAX_BITRATE,
  PROP_INITIAL_BITRATE,
  PROP_ESTIMATED_BITRATE,
  PROP_STATS,
  PROP_STATS_INTERVAL,
  PROP_OUTAGE_RESTART,
};

#define DEFAULT_INITIAL_BITRATE 1000000

struct _GstOctopusRtpSender {
  GstElement parent;

  GstPad *sinkpad, *srcpad;

  /* properties (object lock), read when the first packet arrives */
  GstOctopusCongestionControl cc;
  gboolean rules;
  guint64 buffer_size;
  guint max_bitrate;
  guint initial_bitrate;
  guint stats_interval;
  guint outage_restart;         /* ms; 0 = never */

  /* streaming state (lock) */
  GMutex lock;
  GCond cond;
  OctoRtpSender *sender;
  guint8 octopus_ext_id;        /* 0 = none in the caps: learned */
  OctoRtpextLearner learner;
  guint8 twcc_ext_id;
  gboolean flushing;
  gboolean eos_pending;
  GstFlowReturn flow_return;
  GstClockID clock_id;          /* the task's pacing wait */
  guint64 estimated_bitrate;    /* estimate last notified */
  OctoTime next_stats;          /* when the next stats message is due */
};

#define gst_octopus_rtp_sender_parent_class parent_class
G_DEFINE_TYPE (GstOctopusRtpSender, gst_octopus_rtp_sender, GST_TYPE_ELEMENT);
GST_ELEMENT_REGISTER_DEFINE (octopusrtpsender, "octopusrtpsender",
    GST_RANK_NONE, GST_TYPE_OCTOPUS_RTP_SENDER);

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS ("application/x-rtp"));
static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS ("application/x-rtp"));

static GParamSpec *estimated_bitrate_pspec;

/* The id of extmap-N naming @uri in @s, either as the URI string or as
 * (direction, uri, attributes) (RFC 8285's SDP form); 0 if none. */
static guint8
extmap_id (const GstStructure *s, const gchar *uri)
{
  for (gint i = 0; i < gst_structure_n_fields (s); i++) {
    const gchar *name = gst_structure_nth_field_name (s, i);
    const GValue *v = gst_structure_get_value (s, name);
    guint64 id;
    gchar *end;

    if (!g_str_has_prefix (name, "extmap-"))
      continue;
    id = g_ascii_strtoull (name + 7, &end, 10);
    if (*end != '\0' || id == 0 || id > 255)
      continue;
    if (GST_VALUE_HOLDS_ARRAY (v) && gst_value_array_get_size (v) >= 2)
      v = gst_value_array_get_value (v, 1);
    if (G_VALUE_HOLDS_STRING (v) && g_strcmp0 (g_value_get_string (v), uri) == 0)
      return id;
  }
  return 0;
}

static GstStructure *
build_stats (GstOctopusRtpSender *self)
{
  OctoRtpSenderStats st;
  GstStructure *s;

  if (!self->sender)
    return gst_structure_new_empty ("application/x-octopus-rtp-sender-stats");
  octo_rtp_sender_get_stats (self->sender, &st);
  s = gst_octopus_stats_new_sender ("application/x-octopus-rtp-sender-stats",
      &st.session);
  gst_structure_set (s,
      "feedback-hold-back", G_TYPE_UINT64,
      (guint64) st.session.feedback_hold_back,
      "packets-submitted", G_TYPE_UINT64, st.packets_submitted,
      "packets-untagged", G_TYPE_UINT64, st.packets_untagged,
      "packets-untracked", G_TYPE_UINT64, st.packets_untracked,
      "feedbacks", G_TYPE_UINT64, st.feedbacks,
      "twcc-reports", G_TYPE_UINT64, st.twcc->reports,
      "twcc-reports-lost", G_TYPE_UINT64, st.twcc->reports_lost,
      "twcc-reports-unknown", G_TYPE_UINT64, st.twcc->reports_unknown,
      "twcc-size-mismatches", G_TYPE_UINT64, st.twcc->size_mismatches, NULL);
  return s;
}

/* Called with the lock held: wakes the task from a pacing or idle wait. */
static void
wake_task (GstOctopusRtpSender *self)
{
  if (self->clock_id)
    gst_clock_id_unschedule (self->clock_id);
  g_cond_broadcast (&self->cond);
}

/* Called with the lock held: the element's clock, waiting for one (a
 * pipeline sets it when going to PLAYING); NULL once flushing. */
static GstClock *
wait_for_clock (GstOctopusRtpSender *self)
{
  GstClock *clock;

  while (!self->flushing) {
    if ((clock = gst_element_get_clock (GST_ELEMENT (self))))
      return clock;
    g_cond_wait (&self->cond, &self->lock);
  }
  return NULL;
}

static void
ensure_sender (GstOctopusRtpSender *self, OctoTime now)
{
  OctoRtpSenderConfig config;

  if (self->sender)
    return;
  octo_rtp_sender_config_init (&config);
  GST_OBJECT_LOCK (self);
  config.cc = gst_octopus_congestion_control_to_core (self->cc);
  config.rules = self->rules;
  config.buffer_bytes = self->buffer_size;
  config.max_rate = self->max_bitrate;
  config.initial_rate = self->initial_bitrate;
  config.restart_after = self->outage_restart * GST_MSECOND;
  GST_OBJECT_UNLOCK (self);
  config.free_data = (GDestroyNotify) gst_buffer_unref;
  self->sender = octo_rtp_sender_new (&config, now);
}

/* Whether element @id of @rtp is a one-byte TWCC sequence number, the form
 * rtpsession numbers. */
static gboolean
has_twcc_ext (const OctoRtpPacket *rtp, guint8 id)
{
  guint8 eid;
  const guint8 *data;
  gsize len;

  if (id == 0 || rtp->ext_profile != 0xBEDE)
    return FALSE;
  for (guint i = 0; octo_rtp_ext_element (rtp, i, &eid, &data, &len); i++)
    if (eid == id)
      return len == TWCC_EXT_LEN;
  return FALSE;
}

static GstFlowReturn
gst_octopus_rtp_sender_chain (GstPad *pad, GstObject *parent, GstBuffer *buf)
{
  GstOctopusRtpSender *self = GST_OCTOPUS_RTP_SENDER (parent);
  GstRTPBuffer rtpbuf = GST_RTP_BUFFER_INIT;
  OctoRtpPacket rtp;
  OctoHeader header;
  gboolean tagged = FALSE, twcc = FALSE;
  guint32 payload_len = 0;
  GstMapInfo map;
  GstClock *clock;
  GstFlowReturn ret;

  (void) pad;
  if (gst_rtp_buffer_map (buf, GST_MAP_READ, &rtpbuf)) {
    payload_len = gst_rtp_buffer_get_payload_len (&rtpbuf);
    gst_rtp_buffer_unmap (&rtpbuf);
  }
  if (!gst_buffer_map (buf, &map, GST_MAP_READ)) {
    gst_buffer_unref (buf);
    GST_ELEMENT_ERROR (self, RESOURCE, READ, ("Could not map an RTP packet"),
        (NULL));
    return GST_FLOW_ERROR;
  }
  gboolean parsed = octo_rtp_parse (map.data, map.size, &rtp) ==
      OCTO_RTP_PARSE_OK;

  g_mutex_lock (&self->lock);
  if (parsed) {
    guint8 id = self->octopus_ext_id ? self->octopus_ext_id :
        octo_rtpext_learner_feed (&self->learner, &rtp);
    tagged = id != OCTO_RTPEXT_ID_NONE &&
        octo_rtp_get_header (&rtp, id, &header) == OCTO_PARSE_OK;
    twcc = has_twcc_ext (&rtp, self->twcc_ext_id);
  }
  gsize size = map.size;
  guint32 ssrc = parsed ? rtp.ssrc : 0;
  gst_buffer_unmap (buf, &map);

  if (!(clock = wait_for_clock (self))) {
    g_mutex_unlock (&self->lock);
    gst_buffer_unref (buf);
    return GST_FLOW_FLUSHING;
  }
  OctoTime now = gst_clock_get_time (clock);
  gst_object_unref (clock);
  ensure_sender (self, now);
  GST_LOG_OBJECT (self, "packet of %" G_GSIZE_FORMAT " bytes, ssrc %08x, "
      "parsed %d, tagged %d, twcc %d", size, ssrc, parsed, tagged, twcc);
  octo_rtp_sender_submit (self->sender, buf, size, payload_len, ssrc,
      tagged ? &header : NULL, twcc, now);
  wake_task (self);
  ret = self->flow_return;
  g_mutex_unlock (&self->lock);
  return ret;
}

static GstFlowReturn
gst_octopus_rtp_sender_chain_list (GstPad *pad, GstObject *parent,
    GstBufferList *list)
{
  GstFlowReturn ret = GST_FLOW_OK;
  guint n = gst_buffer_list_length (list);

  for (guint i = 0; i < n && ret == GST_FLOW_OK; i++)
    ret = gst_octopus_rtp_sender_chain (pad, parent,
        gst_buffer_ref (gst_buffer_list_get (list, i)));
  gst_buffer_list_unref (list);
  return ret;
}

static GstBuffer *
write_twcc_seqnum (GstBuffer *buf, guint8 id, guint16 seqnum)
{
  GstRTPBuffer rtp = GST_RTP_BUFFER_INIT;
  gpointer data;
  guint size;

  buf = gst_buffer_make_writable (buf);
  if (gst_rtp_buffer_map (buf, GST_MAP_READWRITE, &rtp)) {
    if (gst_rtp_buffer_get_extension_onebyte_header (&rtp, id, 0, &data,
            &size) && size == TWCC_EXT_LEN) {
      guint8 *d = data;         /* unaligned: byte by byte */
      d[0] = seqnum >> 8;
      d[1] = seqnum & 0xff;
    }
    gst_rtp_buffer_unmap (&rtp);
  }
  return buf;
}

/* Called with the lock held: the stats message due at @now, if any, every
 * @interval ms. */
static GstStructure *
due_stats (GstOctopusRtpSender *self, guint interval, OctoTime now)
{
  if (!self->sender || interval == 0 || now < self->next_stats)
    return NULL;
  self->next_stats = now + interval * GST_MSECOND;
  return build_stats (self);
}

static void
gst_octopus_rtp_sender_loop (gpointer user_data)
{
  GstOctopusRtpSender *self = user_data;
  OctoRtpSend out;
  OctoTime wake = OCTO_TIME_NONE;
  GstClock *clock;
  guint stats_interval;

  GST_OBJECT_LOCK (self);
  stats_interval = self->stats_interval;
  GST_OBJECT_UNLOCK (self);
  g_mutex_lock (&self->lock);
  if (!(clock = wait_for_clock (self)))
    goto paused;

  OctoTime now = gst_clock_get_time (clock);
  GstStructure *stats = due_stats (self, stats_interval, now);
  if (stats) {
    g_mutex_unlock (&self->lock);
    gst_octopus_stats_post (GST_ELEMENT (self), stats);
    g_mutex_lock (&self->lock);
  }
  if (self->sender && octo_rtp_sender_take_restart (self->sender, now)) {
    g_mutex_unlock (&self->lock);
    GST_INFO_OBJECT (self, "outage: nothing acknowledged for outage-restart "
        "ms, asking upstream for a key unit");
    gst_pad_push_event (self->sinkpad,
        gst_video_event_new_upstream_force_key_unit (GST_CLOCK_TIME_NONE,
            TRUE, 0));
    g_mutex_lock (&self->lock);
  }
  if (self->sender && octo_rtp_sender_poll (self->sender, now, &out, &wake)) {
    guint8 twcc_id = self->twcc_ext_id;
    GstBuffer *buf = out.data;

    GST_LOG_OBJECT (self, "sending twcc #%u, %u packets still queued",
        out.twcc_seq, octo_rtp_sender_queued_packets (self->sender));

    g_mutex_unlock (&self->lock);
    g_clear_object (&clock);
    if (out.has_twcc)
      buf = write_twcc_seqnum (buf, twcc_id, out.twcc_seq);
    GstFlowReturn ret = gst_pad_push (self->srcpad, buf);
    g_mutex_lock (&self->lock);
    self->flow_return = ret;
    if (ret != GST_FLOW_OK && ret != GST_FLOW_NOT_LINKED) {
      GST_DEBUG_OBJECT (self, "pausing: %s", gst_flow_get_name (ret));
      goto paused;
    }
    g_mutex_unlock (&self->lock);
    return;
  }

  if (self->eos_pending &&
      (!self->sender || octo_rtp_sender_queued_packets (self->sender) == 0)) {
    /* The final account, whatever the stats interval. */
    stats = self->sender ? build_stats (self) : NULL;
    self->eos_pending = FALSE;
    g_mutex_unlock (&self->lock);
    gst_object_unref (clock);
    if (stats)
      gst_octopus_stats_post (GST_ELEMENT (self), stats);
    gst_pad_push_event (self->srcpad, gst_event_new_eos ());
    return;
  }

  if (self->sender && stats_interval > 0)
    wake = MIN (wake, self->next_stats);
  /* Flushing may have begun while the lock was released above (stats, the
   * key-unit request): its wake-up then found no wait to cut short, and a
   * wait begun now would outlive the pad's deactivation. */
  if (self->flushing)
    goto paused;
  if (wake == OCTO_TIME_NONE) {
    g_cond_wait (&self->cond, &self->lock);
  } else {
    GstClockID id = gst_clock_new_single_shot_id (clock, wake);
    self->clock_id = id;
    g_mutex_unlock (&self->lock);
    gst_clock_id_wait (id, NULL);
    g_mutex_lock (&self->lock);
    self->clock_id = NULL;
    gst_clock_id_unref (id);
  }
  g_mutex_unlock (&self->lock);
  gst_object_unref (clock);
  return;

paused:
  g_mutex_unlock (&self->lock);
  g_clear_object (&clock);
  gst_pad_pause_task (self->srcpad);
}

static void
start_flushing (GstOctopusRtpSender *self)
{
  g_mutex_lock (&self->lock);
  self->flushing = TRUE;
  self->flow_return = GST_FLOW_FLUSHING;
  wake_task (self);
  g_mutex_unlock (&self->lock);
}

static void
stop_flushing (GstOctopusRtpSender *self)
{
  g_mutex_lock (&self->lock);
  g_clear_pointer (&self->sender, octo_rtp_sender_free);
  self->flushing = FALSE;
  self->eos_pending = FALSE;
  self->flow_return = GST_FLOW_OK;
  self->next_stats = 0;
  g_mutex_unlock (&self->lock);
}

static gboolean
gst_octopus_rtp_sender_sink_event (GstPad *pad, GstObject *parent,
    GstEvent *event)
{
  GstOctopusRtpSender *self = GST_OCTOPUS_RTP_SENDER (parent);

  switch (GST_EVENT_TYPE (event)) {
    case GST_EVENT_CAPS:{
      GstCaps *caps;
      gst_event_parse_caps (event, &caps);
      const GstStructure *s = gst_caps_get_structure (caps, 0);
      g_mutex_lock (&self->lock);
      self->octopus_ext_id = extmap_id (s, OCTO_RTPEXT_URI);
      self->twcc_ext_id = extmap_id (s, TWCC_URI);
      octo_rtpext_learner_init (&self->learner);
      GST_INFO_OBJECT (self, "Octopus extension id %u, transport-cc id %u",
          self->octopus_ext_id, self->twcc_ext_id);
      g_mutex_unlock (&self->lock);
      if (self->twcc_ext_id == 0)
        GST_ELEMENT_WARNING (self, STREAM, FORMAT,
            ("No transport-cc header extension in the RTP caps"),
            ("add extmap-N=%s to the payloader's caps: without its feedback "
                "BBR never learns the path's rate", TWCC_URI));
      break;
    }
    case GST_EVENT_FLUSH_START:
      start_flushing (self);
      gst_pad_push_event (self->srcpad, event);
      gst_pad_pause_task (self->srcpad);
      return TRUE;
    case GST_EVENT_FLUSH_STOP:
      stop_flushing (self);
      gst_pad_push_event (self->srcpad, event);
      return gst_pad_start_task (self->srcpad, gst_octopus_rtp_sender_loop,
          self, NULL);
    case GST_EVENT_EOS:
      /* Sent by the task once the send buffer is empty. */
      g_mutex_lock (&self->lock);
      self->eos_pending = TRUE;
      wake_task (self);
      g_mutex_unlock (&self->lock);
      gst_event_unref (event);
      return TRUE;
    default:
      break;
  }
  return gst_pad_event_default (pad, parent, event);
}

/* rtpsession's transport-wide feedback: "packets", a GValueArray of
 * RTPTWCCPacket structures (seqnum, remote-ts, size, lost, ...). */
static guint
parse_twcc_packets (const GstStructure *s, OctoTwccReport **reports)
{
  const GValue *v = gst_structure_get_value (s, "packets");
  guint n = 0;

  G_GNUC_BEGIN_IGNORE_DEPRECATIONS;
  if (!v || !G_VALUE_HOLDS (v, g_value_array_get_type ()))
    return 0;
  GValueArray *array = g_value_get_boxed (v);
  *reports = g_new0 (OctoTwccReport, array->n_values);
  for (guint i = 0; i < array->n_values; i++) {
    const GValue *pv = g_value_array_get_nth (array, i);
    const GstStructure *p;
    guint seqnum, size = 0;
    gboolean lost = FALSE;
    guint64 remote = GST_CLOCK_TIME_NONE;

    if (!GST_VALUE_HOLDS_STRUCTURE (pv))
      continue;
    p = gst_value_get_structure (pv);
    if (!gst_structure_get_uint (p, "seqnum", &seqnum))
      continue;
    gst_structure_get_uint (p, "size", &size);
    gst_structure_get_boolean (p, "lost", &lost);
    gst_structure_get_uint64 (p, "remote-ts", &remote);
    (*reports)[n++] = (OctoTwccReport) {
      .seqnum = seqnum,
      .lost = lost || !GST_CLOCK_TIME_IS_VALID (remote),
      .remote_ts = GST_CLOCK_TIME_IS_VALID (remote) ? remote : 0,
      .size = size,
    };
  }
  G_GNUC_END_IGNORE_DEPRECATIONS;
  return n;
}

/* Called with the lock held; TRUE if the encoder should hear of it. */
static gboolean
estimate_changed (GstOctopusRtpSender *self)
{
  guint64 bw = octo_rtp_sender_app_rate (self->sender);

  if (!octo_send_bandwidth_changed_enough (self->estimated_bitrate, bw))
    return FALSE;
  self->estimated_bitrate = bw;
  return TRUE;
}

static gboolean
gst_octopus_rtp_sender_src_event (GstPad *pad, GstObject *parent,
    GstEvent *event)
{
  GstOctopusRtpSender *self = GST_OCTOPUS_RTP_SENDER (parent);
  const GstStructure *s = gst_event_get_structure (event);

  if (GST_EVENT_TYPE (event) == GST_EVENT_CUSTOM_UPSTREAM && s &&
      gst_structure_has_name (s, "RTPTWCCPackets")) {
    OctoTwccReport *reports = NULL;
    guint n = parse_twcc_packets (s, &reports);
    gboolean notify = FALSE;
    GstClock *clock;

    GST_DEBUG_OBJECT (self, "feedback of %u packets%s", n,
        n > 0 ? "" : " (none parsed)");
    for (guint i = 0; i < n; i++)
      GST_LOG_OBJECT (self, "  #%u %s remote %" GST_TIME_FORMAT " size %u",
          reports[i].seqnum, reports[i].lost ? "lost" : "received",
          GST_TIME_ARGS (reports[i].remote_ts), reports[i].size);
    g_mutex_lock (&self->lock);
    clock = gst_element_get_clock (GST_ELEMENT (self));
    if (clock && self->sender && n > 0) {
      octo_rtp_sender_on_feedback (self->sender, reports, n,
          gst_clock_get_time (clock));
      notify = estimate_changed (self);
      wake_task (self);
    }
    g_mutex_unlock (&self->lock);
    g_clear_object (&clock);
    g_free (reports);
    if (notify) {
      GST_DEBUG_OBJECT (self, "estimated bitrate %" G_GUINT64_FORMAT " bit/s",
          self->estimated_bitrate);
      g_object_notify_by_pspec (G_OBJECT (self), estimated_bitrate_pspec);
    }
  }
  return gst_pad_event_default (pad, parent, event);
}

static gboolean
fixed_without_rate (GstOctopusRtpSender *self)
{
  gboolean ret;

  GST_OBJECT_LOCK (self);
  ret = self->cc == GST_OCTOPUS_CC_FIXED && self->max_bitrate == 0;
  GST_OBJECT_UNLOCK (self);
  return ret;
}

static gboolean
gst_octopus_rtp_sender_src_activate_mode (GstPad *pad, GstObject *parent,
    GstPadMode mode, gboolean active)
{
  GstOctopusRtpSender *self = GST_OCTOPUS_RTP_SENDER (parent);

  if (mode != GST_PAD_MODE_PUSH)
    return FALSE;
  if (active && fixed_without_rate (self)) {
    GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS,
        ("congestion-control=fixed needs a max-bitrate"),
        ("set max-bitrate to the rate to pace at, in bits/s"));
    return FALSE;
  }
  if (active) {
    stop_flushing (self);
    return gst_pad_start_task (pad, gst_octopus_rtp_sender_loop, self, NULL);
  }
  start_flushing (self);
  gboolean ret = gst_pad_stop_task (pad);
  g_mutex_lock (&self->lock);
  g_clear_pointer (&self->sender, octo_rtp_sender_free);
  g_mutex_unlock (&self->lock);
  return ret;
}

static gboolean
gst_octopus_rtp_sender_set_clock (GstElement *element, GstClock *clock)
{
  GstOctopusRtpSender *self = GST_OCTOPUS_RTP_SENDER (element);
  gboolean ret = GST_ELEMENT_CLASS (parent_class)->set_clock (element, clock);

  g_mutex_lock (&self->lock);
  wake_task (self);
  g_mutex_unlock (&self->lock);
  return ret;
}

static void
gst_octopus_rtp_sender_set_property (GObject *object, guint prop_id,
    const GValue *value, GParamSpec *pspec)
{
  GstOctopusRtpSender *self = GST_OCTOPUS_RTP_SENDER (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_CONGESTION_CONTROL:
      self->cc = g_value_get_enum (value);
      break;
    case PROP_RULES:
      self->rules = g_value_get_boolean (value);
      break;
    case PROP_BUFFER_SIZE:
      self->buffer_size = g_value_get_uint64 (value);
      break;
    case PROP_MAX_BITRATE:
      self->max_bitrate = g_value_get_uint (value);
      break;
    case PROP_INITIAL_BITRATE:
      self->initial_bitrate = g_value_get_uint (value);
      break;
    case PROP_STATS_INTERVAL:
      self->stats_interval = g_value_get_uint (value);
      break;
    case PROP_OUTAGE_RESTART:
      self->outage_restart = g_value_get_uint (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_octopus_rtp_sender_get_property (GObject *object, guint prop_id,
    GValue *value, GParamSpec *pspec)
{
  GstOctopusRtpSender *self = GST_OCTOPUS_RTP_SENDER (object);

  switch (prop_id) {
    case PROP_ESTIMATED_BITRATE:
      g_mutex_lock (&self->lock);
      g_value_set_uint (value, MIN (self->estimated_bitrate, G_MAXUINT));
      g_mutex_unlock (&self->lock);
      return;
    case PROP_STATS:
      g_mutex_lock (&self->lock);
      g_value_take_boxed (value, build_stats (self));
      g_mutex_unlock (&self->lock);
      return;
    default:
      break;
  }

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_CONGESTION_CONTROL:
      g_value_set_enum (value, self->cc);
      break;
    case PROP_RULES:
      g_value_set_boolean (value, self->rules);
      break;
    case PROP_BUFFER_SIZE:
      g_value_set_uint64 (value, self->buffer_size);
      break;
    case PROP_MAX_BITRATE:
      g_value_set_uint (value, self->max_bitrate);
      break;
    case PROP_INITIAL_BITRATE:
      g_value_set_uint (value, self->initial_bitrate);
      break;
    case PROP_STATS_INTERVAL:
      g_value_set_uint (value, self->stats_interval);
      break;
    case PROP_OUTAGE_RESTART:
      g_value_set_uint (value, self->outage_restart);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_octopus_rtp_sender_finalize (GObject *object)
{
  GstOctopusRtpSender *self = GST_OCTOPUS_RTP_SENDER (object);

  octo_rtp_sender_free (self->sender);
  g_mutex_clear (&self->lock);
  g_cond_clear (&self->cond);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_octopus_rtp_sender_class_init (GstOctopusRtpSenderClass *klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS;

  gobject_class->set_property = gst_octopus_rtp_sender_set_property;
  gobject_class->get_property = gst_octopus_rtp_sender_get_property;
  gobject_class->finalize = gst_octopus_rtp_sender_finalize;
  element_class->set_clock = GST_DEBUG_FUNCPTR (gst_octopus_rtp_sender_set_clock);

  g_object_class_install_property (gobject_class, PROP_CONGESTION_CONTROL,
      gst_octopus_sender_param_congestion_control ());
  g_object_class_install_property (gobject_class, PROP_RULES,
      gst_octopus_sender_param_rules ());
  g_object_class_install_property (gobject_class, PROP_BUFFER_SIZE,
      gst_octopus_sender_param_buffer_size ());
  g_object_class_install_property (gobject_class, PROP_MAX_BITRATE,
      gst_octopus_sender_param_max_bitrate ());
  g_object_class_install_property (gobject_class, PROP_INITIAL_BITRATE,
      g_param_spec_uint ("initial-bitrate", "Initial bitrate",
          "Estimate in bits/s of IP datagrams until the first transport-cc "
          "feedback, paced at 2.5 times it as libwebrtc paces GCC's start "
          "(0 = BBR's startup, window-limited)", 0,
          G_MAXUINT, DEFAULT_INITIAL_BITRATE, rw));
  estimated_bitrate_pspec = gst_octopus_sender_param_estimated_bitrate ();
  g_object_class_install_property (gobject_class, PROP_ESTIMATED_BITRATE,
      estimated_bitrate_pspec);
  g_object_class_install_property (gobject_class, PROP_STATS,
      gst_octopus_sender_param_stats ());
  g_object_class_install_property (gobject_class, PROP_STATS_INTERVAL,
      gst_octopus_sender_param_stats_interval ());
  g_object_class_install_property (gobject_class, PROP_OUTAGE_RESTART,
      gst_octopus_sender_param_outage_restart ());

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (element_class,
      "Octopus RTP sender", "Network/WebRTC",
      "Paces RTP with BBR from transport-wide congestion control feedback "
      "and drops whole messages in its send buffer by the Octopus rules "
      "(webrtcbin aux sender)", GST_OCTOPUS_AUTHORS);

  gst_type_mark_as_plugin_api (GST_TYPE_OCTOPUS_CONGESTION_CONTROL, 0);
  GST_DEBUG_CATEGORY_INIT (gst_octopus_rtp_sender_debug, "octopusrtpsender",
      0, "Octopus RTP sender");
}

static void
gst_octopus_rtp_sender_init (GstOctopusRtpSender *self)
{
  self->cc = GST_OCTOPUS_SENDER_DEFAULT_CONGESTION_CONTROL;
  self->rules = GST_OCTOPUS_SENDER_DEFAULT_RULES;
  self->buffer_size = GST_OCTOPUS_SENDER_DEFAULT_BUFFER_SIZE;
  self->max_bitrate = GST_OCTOPUS_SENDER_DEFAULT_MAX_BITRATE;
  self->initial_bitrate = DEFAULT_INITIAL_BITRATE;
  self->stats_interval = GST_OCTOPUS_SENDER_DEFAULT_STATS_INTERVAL;
  self->outage_restart = GST_OCTOPUS_SENDER_DEFAULT_OUTAGE_RESTART;
  self->flow_return = GST_FLOW_OK;
  octo_rtpext_learner_init (&self->learner);
  g_mutex_init (&self->lock);
  g_cond_init (&self->cond);

  self->sinkpad = gst_pad_new_from_static_template (&sink_template, "sink");
  gst_pad_set_chain_function (self->sinkpad,
      GST_DEBUG_FUNCPTR (gst_octopus_rtp_sender_chain));
  gst_pad_set_chain_list_function (self->sinkpad,
      GST_DEBUG_FUNCPTR (gst_octopus_rtp_sender_chain_list));
  gst_pad_set_event_function (self->sinkpad,
      GST_DEBUG_FUNCPTR (gst_octopus_rtp_sender_sink_event));
  GST_PAD_SET_PROXY_CAPS (self->sinkpad);
  GST_PAD_SET_PROXY_ALLOCATION (self->sinkpad);
  gst_element_add_pad (GST_ELEMENT (self), self->sinkpad);

  self->srcpad = gst_pad_new_from_static_template (&src_template, "src");
  gst_pad_set_event_function (self->srcpad,
      GST_DEBUG_FUNCPTR (gst_octopus_rtp_sender_src_event));
  gst_pad_set_activatemode_function (self->srcpad,
      GST_DEBUG_FUNCPTR (gst_octopus_rtp_sender_src_activate_mode));
  GST_PAD_SET_PROXY_CAPS (self->srcpad);
  GST_PAD_SET_PROXY_ALLOCATION (self->srcpad);
  gst_element_add_pad (GST_ELEMENT (self), self->srcpad);
}
