/* gst-octopus core: the sending logic over RTP (see octo-rtp-sender.h). */
#include "octo-rtp-sender.h"

#include <string.h>

/* What the send buffer holds for one RTP packet. */
typedef struct {
  gpointer data;
  guint32 payload_bytes;
  gboolean has_twcc;
} Queued;

struct _OctoRtpSender {
  OctoRtpSenderConfig config;
  OctoEngine *engine;
  OctoFlight *flight;
  OctoBbr *bbr;
  OctoPacer pacer;
  OctoTwcc *twcc;
  guint16 next_twcc_seq;
  OctoTime last_feedback;       /* OCTO_TIME_NONE before the first */
  OctoTime gaps[OCTO_RTP_SENDER_FEEDBACK_GAPS];
  guint next_gap;
  guint64 last_bandwidth;
  guint64 packets_submitted, packets_untagged, packets_untracked;
  guint64 feedbacks;
};

void
octo_rtp_sender_config_init (OctoRtpSenderConfig *config)
{
  memset (config, 0, sizeof (*config));
  config->algorithm = OCTO_CC_BBR;
  config->mss = OCTO_RTP_SENDER_DEFAULT_MSS;
  config->buffer_bytes = OCTO_ENGINE_DEFAULT_LIMIT_BYTES;
  config->rules = TRUE;
}

static void
free_dropped (const OctoPacket *packet, OctoDropReason reason,
    gpointer user_data)
{
  OctoRtpSender *s = user_data;
  Queued *q = packet->data;

  (void) reason;
  if (s->config.free_data)
    s->config.free_data (q->data);
  g_free (q);
}

static guint64
capped (const OctoRtpSender *s, guint64 rate)
{
  if (s->config.max_rate && rate > s->config.max_rate)
    return s->config.max_rate;
  return rate;
}

guint64
octo_rtp_sender_bandwidth (const OctoRtpSender *sender)
{
  return capped (sender, octo_bbr_bandwidth (sender->bbr));
}

static OctoTime
feedback_hold_back (const OctoRtpSender *s)
{
  OctoTime gap = 0;

  for (guint i = 0; i < OCTO_RTP_SENDER_FEEDBACK_GAPS; i++)
    gap = MAX (gap, s->gaps[i]);
  return gap;
}

/* BBR's window plus what the path delivers while feedback is withheld. */
static guint64
cwnd (const OctoRtpSender *s)
{
  guint64 bw = octo_bbr_bandwidth (s->bbr);

  return octo_bbr_cwnd (s->bbr) +
      bw * feedback_hold_back (s) / (8 * OCTO_SECOND);
}

static gboolean
before_feedback (const OctoRtpSender *s)
{
  return s->last_feedback == OCTO_TIME_NONE && s->config.initial_rate > 0;
}

static guint64
pacing_rate (const OctoRtpSender *s)
{
  if (before_feedback (s))
    return capped (s, s->config.initial_rate);
  return capped (s, octo_bbr_pacing_rate (s->bbr));
}

static void
update_control (OctoRtpSender *s)
{
  guint64 bw = octo_rtp_sender_bandwidth (s);

  octo_pacer_set_rate (&s->pacer, pacing_rate (s));
  if (bw != s->last_bandwidth) {
    octo_engine_set_bandwidth (s->engine, bw);
    s->last_bandwidth = bw;
  }
}

OctoRtpSender *
octo_rtp_sender_new (const OctoRtpSenderConfig *config, OctoTime now)
{
  OctoRtpSender *s = g_new0 (OctoRtpSender, 1);
  OctoEngineConfig ec;
  OctoBbrConfig bc = {
    .algorithm = config->algorithm,
    .mss = config->mss,
    .seed = config->seed,
  };

  s->config = *config;
  octo_engine_config_init (&ec);
  ec.limit_bytes = config->buffer_bytes;
  ec.rules = config->rules;
  ec.bw_source = OCTO_BW_EXTERNAL;
  s->engine = octo_engine_new (&ec, free_dropped, s);
  s->flight = octo_flight_new ();
  s->bbr = octo_bbr_new (&bc, now);
  s->twcc = octo_twcc_new ();
  octo_pacer_init (&s->pacer, OCTO_PACER_DEFAULT_BURST);
  s->last_bandwidth = OCTO_BW_UNKNOWN;
  s->last_feedback = OCTO_TIME_NONE;
  update_control (s);
  return s;
}

void
octo_rtp_sender_free (OctoRtpSender *sender)
{
  OctoPacket p;

  if (!sender)
    return;
  while (octo_engine_dequeue (sender->engine, G_MAXUINT64 / 2, &p))
    free_dropped (&p, OCTO_DROP_OVERFLOW, sender);
  octo_engine_free (sender->engine);
  octo_flight_free (sender->flight);
  octo_bbr_free (sender->bbr);
  octo_twcc_free (sender->twcc);
  g_free (sender);
}

gboolean
octo_rtp_sender_submit (OctoRtpSender *s, gpointer data, guint32 rtp_bytes,
    guint32 payload_bytes, guint32 ssrc, const OctoHeader *header,
    gboolean has_twcc, OctoTime now)
{
  Queued *q = g_new (Queued, 1);
  OctoPacket p = {
    .data = q,
    .source = ssrc,
    .size = rtp_bytes + OCTO_RTP_LINK_OVERHEAD,
    .tagged = header != NULL,
  };

  *q = (Queued) {
    .data = data,
    .payload_bytes = payload_bytes,
    .has_twcc = has_twcc,
  };
  if (header)
    p.header = *header;
  else
    s->packets_untagged++;
  s->packets_submitted++;
  return octo_engine_enqueue (s->engine, &p, now);
}

gboolean
octo_rtp_sender_poll (OctoRtpSender *s, OctoTime now, OctoRtpSend *out,
    OctoTime *wake)
{
  OctoPacket p;
  OctoTime slack = feedback_hold_back (s);
  OctoTime timeout;

  /* The flight's clock runs @slack behind: its timeout plus the gap. */
  if (!before_feedback (s) &&
      octo_flight_on_timer (s->flight, now > slack ? now - slack : 0) > 0)
    update_control (s);
  timeout = before_feedback (s) ? OCTO_TIME_NONE :
      octo_flight_next_timeout (s->flight);
  if (timeout != OCTO_TIME_NONE)
    timeout += slack;
  if (!before_feedback (s) && octo_flight_inflight (s->flight) >= cwnd (s)) {
    *wake = timeout;
    return FALSE;
  }
  OctoTime next = octo_pacer_next_send_time (&s->pacer, now);
  if (next > now) {
    *wake = next;
    return FALSE;
  }
  if (!octo_engine_dequeue (s->engine, now, &p)) {
    octo_flight_mark_app_limited (s->flight);
    *wake = timeout;
    return FALSE;
  }

  Queued *q = p.data;
  *out = (OctoRtpSend) {
    .data = q->data,
    .has_twcc = q->has_twcc,
  };
  if (q->has_twcc) {
    guint64 inflight = octo_flight_inflight (s->flight);
    gboolean app_limited = octo_flight_is_app_limited (s->flight);
    guint64 seq = octo_flight_on_sent (s->flight, p.size, now);

    octo_bbr_on_send (s->bbr, seq, inflight, app_limited, now);
    out->twcc_seq = s->next_twcc_seq++;
    octo_twcc_on_sent (s->twcc, out->twcc_seq, seq, q->payload_bytes, now);
  } else {
    s->packets_untracked++;
  }
  octo_pacer_on_sent (&s->pacer, p.size, now);
  g_free (q);
  return TRUE;
}

void
octo_rtp_sender_on_feedback (OctoRtpSender *s, const OctoTwccReport *reports,
    guint n, OctoTime now)
{
  OctoTwccAck *acks = g_new (OctoTwccAck, MAX (n, 1));
  guint n_acks = octo_twcc_on_feedback (s->twcc, reports, n, now, acks);

  s->feedbacks++;
  /* The batch's hold-back: how long its first arrival waited to be
   * reported.  Not the time since the previous feedback, which also counts
   * outages with nothing to report and would leave a window of seconds. */
  if (n_acks > 0) {
    s->gaps[s->next_gap] = now - acks[0].ack_time;
    s->next_gap = (s->next_gap + 1) % OCTO_RTP_SENDER_FEEDBACK_GAPS;
  }
  s->last_feedback = now;
  for (guint i = 0; i < n_acks; i++) {
    OctoAck ack = {.n_ranges = 1 };
    OctoRateSample rs;

    ack.ranges[0].first = ack.ranges[0].last = (guint32) acks[i].flight_seq;
    octo_flight_on_ack (s->flight, &ack, acks[i].ack_time, &rs);
    if (rs.newly_acked > 0 || rs.newly_lost > 0)
      octo_bbr_on_ack (s->bbr, &rs,
          octo_flight_get_stats (s->flight)->bytes_acked,
          octo_flight_inflight (s->flight), acks[i].ack_time);
  }
  g_free (acks);
  update_control (s);
}

guint32
octo_rtp_sender_queued_packets (const OctoRtpSender *sender)
{
  return octo_engine_queued_packets (sender->engine);
}

void
octo_rtp_sender_get_stats (const OctoRtpSender *s, OctoRtpSenderStats *st)
{
  memset (st, 0, sizeof (*st));
  st->pacing_rate = pacing_rate (s);
  st->bandwidth = octo_rtp_sender_bandwidth (s);
  st->srtt = octo_flight_srtt (s->flight);
  st->min_rtt = octo_bbr_min_rtt (s->bbr);
  st->cwnd = cwnd (s);
  st->feedback_hold_back = feedback_hold_back (s);
  st->inflight = octo_flight_inflight (s->flight);
  st->queued_bytes = octo_engine_queued_bytes (s->engine);
  st->queued_packets = octo_engine_queued_packets (s->engine);
  st->mode = octo_bbr_mode (s->bbr);
  st->packets_submitted = s->packets_submitted;
  st->packets_untagged = s->packets_untagged;
  st->packets_untracked = s->packets_untracked;
  st->feedbacks = s->feedbacks;
  st->flight = octo_flight_get_stats (s->flight);
  st->buffer = octo_engine_get_stats (s->engine);
  st->twcc = octo_twcc_get_stats (s->twcc);
}
