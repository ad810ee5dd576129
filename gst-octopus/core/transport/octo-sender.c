/* gst-octopus core: the sending side of a connection (see octo-sender.h). */
#include "octo-sender.h"

#include "octo-receiver.h"

#include <string.h>

/* A receiver acknowledges every path a sender may have. */
G_STATIC_ASSERT (OCTO_SCHED_MAX_PATHS <= OCTO_RECEIVER_MAX_PATHS);

typedef struct {
  guint32 len;
  guint8 bytes[];
} OutPacket;

struct _OctoSender {
  OctoSenderConfig config;
  OctoSendSession *session;     /* one path */
  OctoMpSession *mp;            /* or several */
  gchar *scheduler;
  GHashTable *next_msg_id;      /* stream_id -> next msg_id */
  guint64 messages_submitted, messages_rejected;
  guint64 acks_received, acks_invalid, acks_foreign, acks_unsent;
  guint64 nacks_received;
  guint64 layers_cut;
  guint8 *padding;              /* zero payload of a padding message */
  guint16 last_stream;          /* padding joins the stream last submitted */
  OctoArrivalMeter submitted;   /* link bytes the app submitted */
  guint64 padding_packets, padding_bytes;
  guint64 keyframe_requests;    /* taken from ACKs */
  OctoTime last_keyframe_request;       /* taken, or OCTO_TIME_NONE */
  gboolean keyframe_request_pending;    /* not yet taken by the app */
};

void
octo_sender_config_init (OctoSenderConfig *config)
{
  memset (config, 0, sizeof (*config));
  config->mtu = OCTO_SENDER_DEFAULT_MTU;
  config->cc = OCTO_SENDER_BBR;
  config->buffer_bytes = OCTO_ENGINE_DEFAULT_LIMIT_BYTES;
  config->rules = TRUE;
  config->probe = TRUE;
}

/* splitmix64 (Steele et al.): distinct seeds give unrelated ids. */
static guint64
mix (guint64 *state)
{
  guint64 z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

void
octo_sender_config_ids_from_seed (OctoSenderConfig *config, guint64 seed)
{
  guint64 z = mix (&seed);
  config->conn_id = (guint32) (z >> 32);
  config->isn = (guint32) z;
}

static void
free_dropped (const OctoPacket *packet, OctoDropReason reason,
    gpointer user_data)
{
  (void) reason;
  (void) user_data;
  g_free (packet->data);
}

static void
free_released (const OctoPacket *packet, OctoMpFate fate,
    OctoDropReason reason, gpointer user_data)
{
  (void) fate;
  (void) reason;
  (void) user_data;
  g_free (packet->data);
}

/* The multipath session of @s->config's paths; NULL if it cannot be. */
static OctoMpSession *
new_mp_session (OctoSender *s, const OctoSendPathConfig *pc, OctoTime now)
{
  OctoSendPath *paths[OCTO_SCHED_MAX_PATHS];
  guint n = s->config.n_paths;
  OctoMpSessionConfig mc = {
    .buffer_bytes = s->config.buffer_bytes,
    .rules = s->config.rules,
    .scheduler = s->scheduler,
    /* octopussrc */
    .in_order_receiver = TRUE,
    .resend = s->config.resend_keyframes,
    .release = free_released,
    .user_data = s,
  };
  OctoMpSession *mp;

  if (n > OCTO_SCHED_MAX_PATHS)
    return NULL;
  for (guint i = 0; i < n; i++)
    paths[i] = octo_send_path_new_for (pc, s->config.cc,
        s->config.mtu + OCTO_LINK_OVERHEAD, s->config.seed + i, now);
  mp = octo_mp_session_new (&mc, paths, n);
  if (!mp)
    for (guint i = 0; i < n; i++)
      octo_send_path_free (paths[i]);
  return mp;
}

OctoSender *
octo_sender_new (const OctoSenderConfig *config, OctoTime now)
{
  OctoSender *s = g_new0 (OctoSender, 1);
  OctoSendSessionConfig sc = {
    .buffer_bytes = config->buffer_bytes,
    .rules = config->rules,
    .drop_func = free_dropped,
    .user_data = s,
    .restart_after = config->restart_after,
  };
  OctoSendPathConfig pc = {.max_rate = config->max_rate };

  s->config = *config;
  s->scheduler = g_strdup (config->scheduler);
  s->config.scheduler = s->scheduler;
  if (config->n_paths > 1) {
    if (!(s->mp = new_mp_session (s, &pc, now))) {
      g_free (s->scheduler);
      g_free (s);
      return NULL;
    }
  } else {
    s->session = octo_send_session_new (&sc, octo_send_path_new_for (&pc,
            config->cc, config->mtu + OCTO_LINK_OVERHEAD, config->seed,
            now));
  }
  s->next_msg_id = g_hash_table_new (NULL, NULL);
  s->padding = g_malloc0 (s->config.mtu);
  s->last_keyframe_request = OCTO_TIME_NONE;
  octo_arrival_meter_init (&s->submitted);
  return s;
}

guint64
octo_sender_bandwidth (const OctoSender *sender)
{
  if (sender->mp)
    return octo_mp_session_bandwidth (sender->mp);
  return octo_send_session_bandwidth (sender->session);
}

guint64
octo_sender_app_rate (const OctoSender *sender)
{
  if (sender->mp)
    return octo_mp_session_bandwidth (sender->mp);
  return octo_send_session_app_rate (sender->session);
}

void
octo_sender_set_fixed_rates (OctoSender *s, guint64 pacing_rate,
    guint64 bandwidth)
{
  g_return_if_fail (s->session != NULL);
  octo_send_path_set_fixed_rates (octo_send_session_path (s->session),
      pacing_rate, bandwidth);
  octo_send_session_update (s->session);
}

void
octo_sender_free (OctoSender *sender)
{
  if (!sender)
    return;
  octo_send_session_free (sender->session);
  octo_mp_session_free (sender->mp);
  g_free (sender->scheduler);
  g_hash_table_unref (sender->next_msg_id);
  g_free (sender->padding);
  g_free (sender);
}

/* Ordinary fragments, or qualitative ones if @layout is set. */
static guint32
submit (OctoSender *s, const OctoHeader *params, const OctoMsgInfo *info,
    const OctoQLayout *layout, const guint8 *data, gsize len, OctoTime now,
    gboolean *accepted)
{
  guint32 count = layout ? octo_qpacket_count (layout, s->config.mtu) :
      octo_fragment_count (len, s->config.mtu);
  gpointer key = GUINT_TO_POINTER ((guint) params->stream_id);
  guint32 msg_id = GPOINTER_TO_UINT (g_hash_table_lookup (s->next_msg_id, key));
  OctoHeader header = *params;
  guint8 check[OCTO_WIRE_HEADER_LEN];
  gboolean resend = s->mp && s->config.resend_keyframes && info &&
      (info->flags & OCTO_MSG_FLAG_KEYFRAME);

  header.msg_id = msg_id;
  if (count == 0 || !octo_header_pack (&header, check)) {
    s->messages_rejected++;
    *accepted = FALSE;
    return 0;
  }
  g_hash_table_insert (s->next_msg_id, key, GUINT_TO_POINTER (msg_id + 1));
  s->last_stream = params->stream_id;
  s->messages_submitted++;

  for (guint32 i = 0; i < count; i++) {
    OutPacket *out = g_malloc (sizeof (OutPacket) + s->config.mtu);
    OctoPacket p = {
      .data = out,
      .source = 0,
      .tagged = TRUE,
    };
    out->len = layout ? octo_qpacket_write (&header, info, layout, data,
        s->config.mtu, i, count, out->bytes) : octo_fragment_write (&header,
        info, data, len, s->config.mtu, i, count, out->bytes);
    if (resend && out->len > 0)
      octo_data_add_flags (out->bytes, OCTO_DATA_FLAG_RESENDS);
    header.first = i == 0;
    header.last = i == count - 1;
    p.header = header;
    p.size = out->len + OCTO_LINK_OVERHEAD;
    /* A rejected packet was freed by the drop callback. */
    octo_arrival_meter_add (&s->submitted, p.size, now);
    if (s->mp)
      octo_mp_session_enqueue (s->mp, &p, now, resend, now);
    else
      octo_send_session_enqueue (s->session, &p, now);
  }
  *accepted = TRUE;
  return msg_id;
}

guint32
octo_sender_submit (OctoSender *s, const OctoHeader *params,
    const OctoMsgInfo *info, const guint8 *data, gsize len, OctoTime now,
    gboolean *accepted)
{
  return submit (s, params, info, NULL, data, len, now, accepted);
}

guint32
octo_sender_submit_qualitative (OctoSender *s, const OctoHeader *params,
    const OctoMsgInfo *info, const OctoQLayout *layout, const guint8 *data,
    OctoTime now, gboolean *accepted)
{
  return submit (s, params, info, layout, data, octo_qlayout_total (layout),
      now, accepted);
}

/* Whether the send buffer would drop a message with @header arriving at
 * @now. */
static gboolean
would_drop (OctoSender *s, const OctoHeader *header, OctoTime now)
{
  if (s->mp)
    return octo_mp_session_would_drop (s->mp, header, now);
  return octo_send_session_would_drop (s->session, header, now);
}

guint32
octo_sender_submit_qframe (OctoSender *s, const OctoQFrame *frame,
    OctoTime now, gboolean *accepted)
{
  OctoQLayout layout = frame->layout;

  g_return_val_if_fail (layout.n_segments > 0, 0);
  for (guint i = 1; i < layout.n_segments; i++)
    if (would_drop (s, &frame->layer_header[i], now)) {
      s->layers_cut += layout.n_segments - i;
      layout.n_segments = i;
      break;
    }
  return submit (s, &frame->layer_header[0], &frame->info, &layout,
      frame->data->data, octo_qlayout_total (&layout), now, accepted);
}

guint64
octo_sender_probe_ceiling (guint64 configured,
    const OctoArrivalMeter *submitted, OctoTime now)
{
  OctoTime start = now > OCTO_SENDER_SUBMITTED_WINDOW ?
      now - OCTO_SENDER_SUBMITTED_WINDOW : 0;

  if (configured)
    return configured;
  return OCTO_SENDER_PROBE_HEADROOM *
      octo_arrival_meter_rate (submitted, start, now);
}

/* The rate up to which this sender pads now; 0: not at all. */
static guint64
probe_ceiling (const OctoSender *s, OctoTime now)
{
  if (!s->config.probe)
    return 0;
  return octo_sender_probe_ceiling (s->config.probe_ceiling, &s->submitted,
      now);
}

/* One full-size single-packet message of the padding stream, for a path
 * pacing at @pacing_rate. */
static gsize
write_padding (OctoSender *s, guint64 pacing_rate, guint8 *out)
{
  gpointer key = GUINT_TO_POINTER ((guint) s->last_stream);
  guint32 msg_id = GPOINTER_TO_UINT (g_hash_table_lookup (s->next_msg_id, key));
  OctoHeader header = {
    .stream_id = s->last_stream,
    .msg_id = msg_id,
    .priority = OCTO_PRIORITY_MAX,
    .link_bitrate_threshold_bps = MIN (pacing_rate, OCTO_BITRATE_MAX_BPS),
    .slack_ms = OCTO_SENDER_PADDING_SLACK_MS,
  };
  OctoMsgInfo info;

  g_hash_table_insert (s->next_msg_id, key, GUINT_TO_POINTER (msg_id + 1));
  octo_msg_info_init (&info);
  info.flags = OCTO_MSG_FLAG_PADDING;
  return octo_fragment_write (&header, &info, s->padding,
      s->config.mtu - OCTO_DATA_FIRST_PREFIX_LEN, s->config.mtu, 0, 1, out);
}

/* Stamps the packet in @out with the connection id, its wire sequence
 * number (the flight's, counted from the ISN) and send time. */
static void
transmit (OctoSender *s, guint8 *out, gsize len, OctoTime now)
{
  guint64 seq = octo_send_session_on_sent (s->session,
      len + OCTO_LINK_OVERHEAD, TRUE, now);

  octo_send_path_on_sent_bytes (octo_send_session_path (s->session), seq,
      out, len);
  octo_data_stamp (out, s->config.conn_id, s->config.isn + (guint32) seq,
      (guint32) (now / OCTO_USECOND));
}

static void
count_padding (OctoSender *s, gsize len)
{
  s->padding_packets++;
  s->padding_bytes += len + OCTO_LINK_OVERHEAD;
}

/* Multipath: as transmit(), on @path, whose own seq it carries. */
static void
transmit_on (OctoSender *s, guint path, guint8 *out, gsize len, OctoTime now)
{
  guint64 seq = octo_mp_session_on_sent (s->mp, path,
      len + OCTO_LINK_OVERHEAD, now);

  octo_send_path_on_sent_bytes (octo_mp_session_path (s->mp, path), seq,
      out, len);
  octo_data_stamp (out, s->config.conn_id, s->config.isn + (guint32) seq,
      (guint32) (now / OCTO_USECOND));
  octo_data_stamp_path (out, path);
}

static gsize
poll_mp (OctoSender *s, OctoTime now, guint8 *out, guint *path,
    OctoTime *wake)
{
  OctoPacket p;
  const OutPacket *pkt;
  gsize len;

  for (;;) {
    switch (octo_mp_session_dequeue (s->mp, now, &p, path, wake)) {
      case OCTO_SEND_PACKET:
        /* the session keeps it, to send again if the path goes down */
        pkt = p.data;
        memcpy (out, pkt->bytes, pkt->len);
        /* the queues on the path see only its share of the stream */
        if (p.header.link_bitrate_threshold_bps)
          octo_header_set_bitrate_threshold (out,
              octo_mp_session_path_threshold (s->mp, *path,
                  p.header.link_bitrate_threshold_bps));
        transmit_on (s, *path, out, pkt->len, now);
        return pkt->len;
      case OCTO_SEND_HELD:
        return 0;
      case OCTO_SEND_EMPTY:
        /* a down path is due its probe (only an ACK brings it back), or
         * an idle one (only a sample refreshes it) */
        if (octo_mp_session_pads (s->mp, *path, probe_ceiling (s, now),
                now)) {
          len = write_padding (s, octo_send_path_pacing_rate
              (octo_mp_session_path (s->mp, *path)), out);
          transmit_on (s, *path, out, len, now);
          count_padding (s, len);
          return len;
        }
        octo_mp_session_idle (s->mp, *path, now);
        break;
    }
  }
}

gsize
octo_sender_poll_path (OctoSender *s, OctoTime now, guint8 *out, guint *path,
    OctoTime *wake)
{
  if (s->mp)
    return poll_mp (s, now, out, path, wake);
  *path = 0;
  return octo_sender_poll (s, now, out, wake);
}

gsize
octo_sender_poll (OctoSender *s, OctoTime now, guint8 *out, OctoTime *wake)
{
  OctoPacket p;
  gsize len;

  g_return_val_if_fail (s->session != NULL, 0);

  switch (octo_send_session_dequeue (s->session, now, &p, wake)) {
    case OCTO_SEND_PACKET:
      break;
    case OCTO_SEND_HELD:
      return 0;
    case OCTO_SEND_EMPTY:
      if (octo_send_path_wants_padding (octo_send_session_path (s->session),
              probe_ceiling (s, now))) {
        len = write_padding (s, octo_send_path_pacing_rate
            (octo_send_session_path (s->session)), out);
        transmit (s, out, len, now);
        count_padding (s, len);
        return len;
      }
      octo_send_session_idle (s->session, wake);
      return 0;
  }

  OutPacket *pkt = p.data;
  len = pkt->len;
  memcpy (out, pkt->bytes, len);
  g_free (pkt);
  transmit (s, out, len, now);
  return len;
}

gboolean
octo_sender_on_control (OctoSender *s, const guint8 *data, gsize len,
    OctoTime now)
{
  return octo_sender_on_path_control (s, 0, data, len, now);
}

/* After the path's estimate may have changed. */
static void
update (OctoSender *s)
{
  if (s->mp)
    octo_mp_session_update (s->mp);
  else
    octo_send_session_update (s->session);
}

gboolean
octo_sender_on_path_control (OctoSender *s, guint path_index,
    const guint8 *data, gsize len, OctoTime now)
{
  OctoSendPath *path;
  OctoAck ack;
  OctoNack nack;

  g_return_val_if_fail (path_index < octo_sender_n_paths (s), FALSE);
  path = s->mp ? octo_mp_session_path (s->mp, path_index) :
      octo_send_session_path (s->session);
  /* QUCO: a packet of ours arrived trimmed; the controller eases off. */
  if (octo_nack_parse (data, len, &nack) == OCTO_NACK_OK) {
    if (nack.conn_id != s->config.conn_id || nack.path_id != path_index ||
        nack.seq - s->config.isn >= octo_flight_get_stats
        (octo_send_path_flight (path))->packets_sent) {
      s->acks_foreign++;
      return FALSE;
    }
    s->nacks_received++;
    octo_send_path_on_nack (path, nack.seq - s->config.isn, nack.trimmed,
        now);
    update (s);
    return TRUE;
  }
  if (octo_ack_parse (data, len, &ack) != OCTO_ACK_OK) {
    s->acks_invalid++;
    return FALSE;
  }
  /* an ACK of another path's seqs would be read against this one's */
  if (ack.conn_id != s->config.conn_id || ack.path_id != path_index) {
    s->acks_foreign++;
    return FALSE;
  }
  /* The flight counts from 0; ranges are parsed newest first, so checking
   * the newest bounds them all from above. */
  for (guint i = 0; i < ack.n_ranges; i++) {
    ack.ranges[i].first -= s->config.isn;
    ack.ranges[i].last -= s->config.isn;
  }
  if (ack.ranges[0].last >= octo_flight_get_stats
      (octo_send_path_flight (path))->packets_sent) {
    s->acks_unsent++;
    return FALSE;
  }
  s->acks_received++;
  /* the receiver repeats a request on its ACKs for a while: one per
   * interval is one request */
  if ((ack.flags & OCTO_ACK_FLAG_KEYFRAME_REQUEST) &&
      (s->last_keyframe_request == OCTO_TIME_NONE ||
          now >= s->last_keyframe_request +
          OCTO_SENDER_KEYFRAME_REQUEST_INTERVAL)) {
    s->last_keyframe_request = now;
    s->keyframe_request_pending = TRUE;
    s->keyframe_requests++;
  }
  if (s->mp) {
    octo_mp_session_on_ack (s->mp, path_index, &ack, now);
    return TRUE;
  }
  octo_send_path_on_feedback (path, OCTO_TIME_NONE);
  octo_send_path_on_ack (path, &ack, now);
  octo_send_session_update (s->session);
  return TRUE;
}

gboolean
octo_sender_take_keyframe_request (OctoSender *s)
{
  gboolean pending = s->keyframe_request_pending;

  s->keyframe_request_pending = FALSE;
  return pending;
}

gboolean
octo_sender_take_restart (OctoSender *s, OctoTime now)
{
  return s->session && octo_send_session_take_restart (s->session, now);
}

guint32
octo_sender_queued_packets (const OctoSender *sender)
{
  if (sender->mp)
    return octo_mp_session_queued_packets (sender->mp);
  return octo_send_session_queued_packets (sender->session);
}

guint
octo_sender_n_paths (const OctoSender *sender)
{
  return sender->mp ? octo_mp_session_n_paths (sender->mp) : 1;
}

void
octo_sender_path_stats (const OctoSender *s, guint i,
    OctoSenderPathStats *st)
{
  const OctoSendPath *path;
  OctoFlight *flight;

  g_return_if_fail (s->mp != NULL && i < octo_mp_session_n_paths (s->mp));
  path = octo_mp_session_path (s->mp, i);
  flight = octo_send_path_flight (path);
  octo_mp_session_path_stats (s->mp, i, &st->mp);
  st->pacing_rate = octo_send_path_pacing_rate (path);
  st->bandwidth = octo_send_path_bandwidth (path);
  st->srtt = octo_flight_srtt (flight);
  st->min_rtt = octo_send_path_min_rtt (path);
  st->cwnd = octo_send_path_cwnd (path);
  st->inflight = octo_flight_inflight (flight);
  st->state = octo_send_path_state (path);
  st->flight = octo_flight_get_stats (flight);
}

/* The session's view summed over the paths; RTTs are the least live one's. */
static void
mp_session_stats (const OctoSender *s, OctoSenderStats *st)
{
  OctoSendStats *ss = &st->session;
  OctoSenderPathStats ps;

  ss->bandwidth = octo_mp_session_bandwidth (s->mp);
  ss->app_rate = ss->bandwidth;
  ss->queued_bytes = octo_mp_session_queued_bytes (s->mp);
  ss->queued_packets = octo_mp_session_queued_packets (s->mp);
  ss->state = "multipath";
  ss->flight = &st->flight_sum;
  ss->buffer = octo_mp_session_buffer_stats (s->mp);
  octo_mp_session_get_stats (s->mp, &st->mp);
  st->scheduler = octo_mp_session_scheduler (s->mp);
  for (guint i = 0; i < octo_mp_session_n_paths (s->mp); i++) {
    octo_sender_path_stats (s, i, &ps);
    ss->pacing_rate += ps.pacing_rate;
    if (ps.cwnd != OCTO_CC_NO_WINDOW)
      ss->cwnd += ps.cwnd;
    ss->inflight += ps.inflight;
    if (ps.mp.up && ps.srtt > 0 && (ss->srtt == 0 || ps.srtt < ss->srtt))
      ss->srtt = ps.srtt;
    if (ps.mp.up && ps.min_rtt > 0 &&
        (ss->min_rtt == 0 || ps.min_rtt < ss->min_rtt))
      ss->min_rtt = ps.min_rtt;
    st->flight_sum.packets_sent += ps.flight->packets_sent;
    st->flight_sum.bytes_sent += ps.flight->bytes_sent;
    st->flight_sum.packets_acked += ps.flight->packets_acked;
    st->flight_sum.bytes_acked += ps.flight->bytes_acked;
    st->flight_sum.packets_lost += ps.flight->packets_lost;
    st->flight_sum.bytes_lost += ps.flight->bytes_lost;
    st->flight_sum.acks_ignored += ps.flight->acks_ignored;
  }
}

void
octo_sender_get_stats (const OctoSender *s, OctoSenderStats *st)
{
  memset (st, 0, sizeof (*st));
  if (s->mp)
    mp_session_stats (s, st);
  else
    octo_send_session_get_stats (s->session, &st->session);
  st->messages_submitted = s->messages_submitted;
  st->keyframe_requests = s->keyframe_requests;
  st->messages_rejected = s->messages_rejected;
  st->acks_received = s->acks_received;
  st->acks_invalid = s->acks_invalid;
  st->nacks_received = s->nacks_received;
  st->layers_cut = s->layers_cut;
  st->acks_foreign = s->acks_foreign;
  st->acks_unsent = s->acks_unsent;
  st->padding_packets = s->padding_packets;
  st->padding_bytes = s->padding_bytes;
}
