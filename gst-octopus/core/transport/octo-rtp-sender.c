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
  OctoSendSession *session;
  OctoTwcc *twcc;
  guint16 next_twcc_seq;
  guint64 packets_submitted, packets_untagged, packets_untracked;
  guint64 feedbacks;
};

void
octo_rtp_sender_config_init (OctoRtpSenderConfig *config)
{
  memset (config, 0, sizeof (*config));
  config->cc = OCTO_SENDER_BBR;
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

guint64
octo_rtp_sender_bandwidth (const OctoRtpSender *sender)
{
  return octo_send_session_bandwidth (sender->session);
}

guint64
octo_rtp_sender_app_rate (const OctoRtpSender *sender)
{
  return octo_send_session_app_rate (sender->session);
}

OctoRtpSender *
octo_rtp_sender_new (const OctoRtpSenderConfig *config, OctoTime now)
{
  OctoRtpSender *s = g_new0 (OctoRtpSender, 1);
  OctoSendPathConfig pc = {
    .max_rate = config->max_rate,
    .initial_rate = config->initial_rate,
  };
  OctoSendSessionConfig sc = {
    .buffer_bytes = config->buffer_bytes,
    .rules = config->rules,
    .drop_func = free_dropped,
    .user_data = s,
    .restart_after = config->restart_after,
  };

  s->config = *config;
  s->session = octo_send_session_new (&sc, octo_send_path_new_for (&pc,
          config->cc, config->mss, config->seed, now));
  s->twcc = octo_twcc_new ();
  return s;
}

void
octo_rtp_sender_free (OctoRtpSender *sender)
{
  if (!sender)
    return;
  octo_send_session_free (sender->session);
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
  return octo_send_session_enqueue (s->session, &p, now);
}

gboolean
octo_rtp_sender_poll (OctoRtpSender *s, OctoTime now, OctoRtpSend *out,
    OctoTime *wake)
{
  OctoPacket p;

  switch (octo_send_session_dequeue (s->session, now, &p, wake)) {
    case OCTO_SEND_PACKET:
      break;
    case OCTO_SEND_HELD:
      return FALSE;
    case OCTO_SEND_EMPTY:
      octo_send_session_idle (s->session, wake);
      return FALSE;
  }

  Queued *q = p.data;
  *out = (OctoRtpSend) {
    .data = q->data,
    .has_twcc = q->has_twcc,
  };
  /* Only a numbered packet is tracked: feedback cannot speak of others. */
  guint64 seq = octo_send_session_on_sent (s->session, p.size, q->has_twcc,
      now);
  if (q->has_twcc) {
    out->twcc_seq = s->next_twcc_seq++;
    octo_twcc_on_sent (s->twcc, out->twcc_seq, seq, q->payload_bytes, now);
  } else {
    s->packets_untracked++;
  }
  g_free (q);
  return TRUE;
}

gboolean
octo_rtp_sender_take_restart (OctoRtpSender *sender, OctoTime now)
{
  return octo_send_session_take_restart (sender->session, now);
}

void
octo_rtp_sender_on_feedback (OctoRtpSender *s, const OctoTwccReport *reports,
    guint n, OctoTime now)
{
  OctoSendPath *path = octo_send_session_path (s->session);
  OctoTwccAck *acks = g_new (OctoTwccAck, MAX (n, 1));
  guint n_acks = octo_twcc_on_feedback (s->twcc, reports, n, now, acks);

  s->feedbacks++;
  /* The batch's hold-back: how long its first arrival waited to be
   * reported.  Not the time since the previous feedback, which also counts
   * outages with nothing to report and would leave a window of seconds. */
  octo_send_path_on_feedback (path,
      n_acks > 0 ? now - acks[0].ack_time : OCTO_TIME_NONE);
  for (guint i = 0; i < n_acks; i++) {
    OctoAck ack = {.n_ranges = 1 };

    ack.ranges[0].first = ack.ranges[0].last = (guint32) acks[i].flight_seq;
    octo_send_path_on_ack (path, &ack, acks[i].ack_time);
  }
  g_free (acks);
  octo_send_session_update (s->session);
}

guint32
octo_rtp_sender_queued_packets (const OctoRtpSender *sender)
{
  return octo_send_session_queued_packets (sender->session);
}

void
octo_rtp_sender_get_stats (const OctoRtpSender *s, OctoRtpSenderStats *st)
{
  memset (st, 0, sizeof (*st));
  octo_send_session_get_stats (s->session, &st->session);
  st->packets_submitted = s->packets_submitted;
  st->packets_untagged = s->packets_untagged;
  st->packets_untracked = s->packets_untracked;
  st->feedbacks = s->feedbacks;
  st->twcc = octo_twcc_get_stats (s->twcc);
}
