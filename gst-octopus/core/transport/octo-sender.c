/* gst-octopus core: the sending side of a connection (see octo-sender.h). */
#include "octo-sender.h"

#include "octo-rate.h"

#include <string.h>

typedef struct {
  guint32 len;
  guint8 bytes[];
} OutPacket;

struct _OctoSender {
  OctoSenderConfig config;
  OctoEngine *engine;
  OctoFlight *flight;
  OctoBbr *bbr;                 /* NULL for OCTO_SENDER_FIXED */
  guint64 fixed_bandwidth;      /* FIXED: the bandwidth reported; 0 = max_rate */
  OctoPacer pacer;
  GHashTable *next_msg_id;      /* stream_id -> next msg_id */
  guint64 messages_submitted, messages_rejected;
  guint64 acks_received, acks_invalid;
  guint64 last_bandwidth;
  guint8 *padding;              /* zero payload of a padding message */
  guint16 last_stream;          /* padding joins the stream last submitted */
  OctoArrivalMeter app_rate;    /* link bytes the app submitted */
  guint64 padding_packets, padding_bytes;
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

static void
free_dropped (const OctoPacket *packet, OctoDropReason reason,
    gpointer user_data)
{
  (void) reason;
  (void) user_data;
  g_free (packet->data);
}

static guint64
current_rate (const OctoSender *s)
{
  guint64 rate = s->bbr ? octo_bbr_pacing_rate (s->bbr) : s->config.max_rate;
  if (s->config.max_rate && rate > s->config.max_rate)
    rate = s->config.max_rate;
  return rate;
}

guint64
octo_sender_bandwidth (const OctoSender *sender)
{
  guint64 bw;

  if (!sender->bbr && sender->fixed_bandwidth)
    return sender->fixed_bandwidth;
  bw = sender->bbr ? octo_bbr_bandwidth (sender->bbr) : sender->config.max_rate;
  if (sender->config.max_rate && bw > sender->config.max_rate)
    bw = sender->config.max_rate;
  return bw;
}

static void
update_control (OctoSender *s)
{
  guint64 bw = octo_sender_bandwidth (s);
  octo_pacer_set_rate (&s->pacer, current_rate (s));
  if (bw != s->last_bandwidth) {
    octo_engine_set_bandwidth (s->engine, bw);
    s->last_bandwidth = bw;
  }
}

OctoSender *
octo_sender_new (const OctoSenderConfig *config, OctoTime now)
{
  OctoSender *s = g_new0 (OctoSender, 1);
  OctoEngineConfig ec;

  s->config = *config;
  octo_engine_config_init (&ec);
  ec.limit_bytes = config->buffer_bytes;
  ec.rules = config->rules;
  ec.bw_source = OCTO_BW_EXTERNAL;
  s->engine = octo_engine_new (&ec, free_dropped, s);
  s->flight = octo_flight_new ();
  if (config->cc != OCTO_SENDER_FIXED) {
    OctoBbrConfig bc = {
      .algorithm = config->cc == OCTO_SENDER_DELAY_BBR ?
          OCTO_CC_DELAY_BBR : OCTO_CC_BBR,
      .mss = config->mtu + OCTO_LINK_OVERHEAD,
      .seed = config->seed,
    };
    s->bbr = octo_bbr_new (&bc, now);
  }
  octo_pacer_init (&s->pacer, OCTO_PACER_DEFAULT_BURST);
  s->next_msg_id = g_hash_table_new (NULL, NULL);
  s->padding = g_malloc0 (s->config.mtu);
  octo_arrival_meter_init (&s->app_rate);
  s->last_bandwidth = OCTO_BW_UNKNOWN;
  update_control (s);
  return s;
}

void
octo_sender_set_fixed_rates (OctoSender *s, guint64 pacing_rate,
    guint64 bandwidth)
{
  g_return_if_fail (s->bbr == NULL);
  s->config.max_rate = pacing_rate;
  s->fixed_bandwidth = bandwidth;
  update_control (s);
}

void
octo_sender_free (OctoSender *sender)
{
  OctoPacket p;

  if (!sender)
    return;
  while (octo_engine_dequeue (sender->engine, G_MAXUINT64 / 2, &p))
    g_free (p.data);
  octo_engine_free (sender->engine);
  octo_flight_free (sender->flight);
  octo_bbr_free (sender->bbr);
  g_hash_table_unref (sender->next_msg_id);
  g_free (sender->padding);
  g_free (sender);
}

guint32
octo_sender_submit (OctoSender *s, const OctoHeader *params,
    const OctoMsgInfo *info, const guint8 *data, gsize len, OctoTime now,
    gboolean *accepted)
{
  guint32 count = octo_fragment_count (len, s->config.mtu);
  gpointer key = GUINT_TO_POINTER ((guint) params->stream_id);
  guint32 msg_id = GPOINTER_TO_UINT (g_hash_table_lookup (s->next_msg_id, key));
  OctoHeader header = *params;
  guint8 check[OCTO_WIRE_HEADER_LEN];

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
    out->len = octo_fragment_write (&header, info, data, len, s->config.mtu,
        i, count, out->bytes);
    header.first = i == 0;
    header.last = i == count - 1;
    p.header = header;
    p.size = out->len + OCTO_LINK_OVERHEAD;
    /* A rejected packet was freed by the drop callback. */
    octo_arrival_meter_add (&s->app_rate, p.size, now);
    octo_engine_enqueue (s->engine, &p, now);
  }
  *accepted = TRUE;
  return msg_id;
}

/* Whether an idle sender should pad now to measure the path. */
static gboolean
wants_probe (const OctoSender *s, OctoTime now)
{
  guint64 ceiling = s->config.probe_ceiling;

  if (!s->bbr || !s->config.probe)
    return FALSE;
  if (ceiling == 0) {
    OctoTime start = now > OCTO_SENDER_APP_RATE_WINDOW ?
        now - OCTO_SENDER_APP_RATE_WINDOW : 0;
    ceiling = OCTO_SENDER_PROBE_HEADROOM *
        octo_arrival_meter_rate (&s->app_rate, start, now);
  }
  if (ceiling == 0 || octo_bbr_bandwidth (s->bbr) >= ceiling)
    return FALSE;
  OctoBbrMode mode = octo_bbr_mode (s->bbr);
  return mode == OCTO_BBR_STARTUP ||
      (mode == OCTO_BBR_PROBE_BW && octo_bbr_pacing_gain (s->bbr) > 1.0);
}

/* One full-size single-packet message of the padding stream. */
static gsize
write_padding (OctoSender *s, guint8 *out)
{
  gpointer key = GUINT_TO_POINTER ((guint) s->last_stream);
  guint32 msg_id = GPOINTER_TO_UINT (g_hash_table_lookup (s->next_msg_id, key));
  OctoHeader header = {
    .stream_id = s->last_stream,
    .msg_id = msg_id,
    .priority = OCTO_PRIORITY_MAX,
    .link_bitrate_threshold_bps = MIN (current_rate (s), OCTO_BITRATE_MAX_BPS),
  };
  OctoMsgInfo info;

  g_hash_table_insert (s->next_msg_id, key, GUINT_TO_POINTER (msg_id + 1));
  octo_msg_info_init (&info);
  info.flags = OCTO_MSG_FLAG_PADDING;
  return octo_fragment_write (&header, &info, s->padding,
      s->config.mtu - OCTO_DATA_FIRST_PREFIX_LEN, s->config.mtu, 0, 1, out);
}

/* Hands @len bytes in @out to the flight, the controller and the pacer. */
static void
transmit (OctoSender *s, guint8 *out, gsize len, OctoTime now)
{
  guint32 size = len + OCTO_LINK_OVERHEAD;
  guint64 inflight = octo_flight_inflight (s->flight);
  gboolean app_limited = octo_flight_is_app_limited (s->flight);
  guint64 seq = octo_flight_on_sent (s->flight, size, now);

  if (s->bbr)
    octo_bbr_on_send (s->bbr, seq, inflight, app_limited, now);
  octo_data_stamp (out, (guint32) seq, (guint32) (now / OCTO_USECOND));
  octo_pacer_on_sent (&s->pacer, size, now);
}

gsize
octo_sender_poll (OctoSender *s, OctoTime now, guint8 *out, OctoTime *wake)
{
  OctoPacket p;
  gsize len;

  if (octo_flight_on_timer (s->flight, now) > 0)
    update_control (s);

  if (s->bbr && octo_flight_inflight (s->flight) >= octo_bbr_cwnd (s->bbr)) {
    *wake = octo_flight_next_timeout (s->flight);
    return 0;
  }
  OctoTime next = octo_pacer_next_send_time (&s->pacer, now);
  if (next > now) {
    *wake = next;
    return 0;
  }
  if (!octo_engine_dequeue (s->engine, now, &p)) {
    if (wants_probe (s, now)) {
      len = write_padding (s, out);
      transmit (s, out, len, now);
      s->padding_packets++;
      s->padding_bytes += len + OCTO_LINK_OVERHEAD;
      return len;
    }
    octo_flight_mark_app_limited (s->flight);
    *wake = octo_flight_next_timeout (s->flight);
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
  OctoAck ack;
  OctoRateSample rs;

  if (octo_ack_parse (data, len, &ack) != OCTO_ACK_OK) {
    s->acks_invalid++;
    return FALSE;
  }
  s->acks_received++;
  octo_flight_on_ack (s->flight, &ack, now, &rs);
  if (s->bbr && (rs.newly_acked > 0 || rs.newly_lost > 0))
    octo_bbr_on_ack (s->bbr, &rs, octo_flight_get_stats (s->flight)->bytes_acked,
        octo_flight_inflight (s->flight), now);
  update_control (s);
  return TRUE;
}

guint32
octo_sender_queued_packets (const OctoSender *sender)
{
  return octo_engine_queued_packets (sender->engine);
}

void
octo_sender_get_stats (const OctoSender *s, OctoSenderStats *st)
{
  memset (st, 0, sizeof (*st));
  st->pacing_rate = current_rate (s);
  st->bandwidth = octo_sender_bandwidth (s);
  st->srtt = octo_flight_srtt (s->flight);
  st->min_rtt = s->bbr ? octo_bbr_min_rtt (s->bbr) :
      octo_flight_min_rtt (s->flight);
  st->cwnd = s->bbr ? octo_bbr_cwnd (s->bbr) : 0;
  st->inflight = octo_flight_inflight (s->flight);
  st->queued_bytes = octo_engine_queued_bytes (s->engine);
  st->queued_packets = octo_engine_queued_packets (s->engine);
  st->mode = s->bbr ? octo_bbr_mode (s->bbr) : OCTO_BBR_PROBE_BW;
  st->messages_submitted = s->messages_submitted;
  st->messages_rejected = s->messages_rejected;
  st->acks_received = s->acks_received;
  st->acks_invalid = s->acks_invalid;
  st->padding_packets = s->padding_packets;
  st->padding_bytes = s->padding_bytes;
  st->flight = octo_flight_get_stats (s->flight);
  st->buffer = octo_engine_get_stats (s->engine);
}
