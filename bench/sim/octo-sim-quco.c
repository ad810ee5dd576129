/* octo-sim-quco: paper 004's experiments (single flow, two flows, shallow
 * buffer) on a virtual clock with the core's own pieces: backlogged
 * senders of qualitative packets (octo-qpacket.h, three equal chunks per
 * packet as the paper's 3 x 500 B) behind an OctoSendPath with the QUCO,
 * NewReno-like, BBR or trim-aware BBR controller; one bottleneck of
 * constant rate behind an OctoQdisc (quco or droptail); receivers that ACK
 * every packet (OctoAcker) and NACK every trimmed one (Algorithm 2).
 * Propagation delay is the same both ways; ACKs are never queued.
 *
 * Writes one JSON summary line; --series FILE adds a CSV of each flow's
 * window and the queue every 10 ms. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "octo-qdisc.h"
#include "octo-qpacket.h"
#include "octo-acker.h"
#include "octo-send-path.h"

#define MAX_FLOWS 4
#define UDP_PAYLOAD 1472        /* 1500 link bytes */
#define CHUNKS 3
#define JAIN_WINDOW (500 * OCTO_MSECOND)
#define JAIN_STEP (50 * OCTO_MSECOND)
#define JAIN_HOLD (2 * OCTO_SECOND)
#define SAMPLE (1 * OCTO_MSECOND)

typedef struct {
  OctoTime at;
  guint flow;
  gsize len;
  guint8 *bytes;
} InTransit;

typedef struct {
  OctoSendPath *path;
  OctoAcker acker;
  guint32 conn_id;
  guint32 msg_id;
  OctoTime start, wake;
  guint64 sent_packets, nacks, trimmed_chunks;
  guint64 delivered_bytes;      /* chunk bytes that arrived */
  guint64 delivered_link_bytes;
  GArray *window_bytes;         /* delivered chunk bytes per JAIN_STEP */
} Flow;

static gchar *scheme = NULL, *series_path = NULL, *queue_spec = NULL;
static gdouble rate_mbps = 1.5;
static gint rtt_ms = 80, buffer_bytes = 15000, duration_s = 40, flows_n = 1;
static gint second_start_ms = 5000;

static GOptionEntry entries[] = {
  {"scheme", 's', 0, G_OPTION_ARG_STRING, &scheme,
      "quco (quco queue, QUCO window), quco-every-nack (the same, backing "
      "off on every NACK), newreno (droptail, NewReno-like "
      "window), bbr (droptail, BBR) or bbr-quco (quco queue, trim-aware BBR)",
      "NAME"},
  {"rate-mbps", 0, 0, G_OPTION_ARG_DOUBLE, &rate_mbps,
      "Bottleneck rate (default 1.5)", "MBPS"},
  {"rtt-ms", 0, 0, G_OPTION_ARG_INT, &rtt_ms,
      "Round-trip propagation delay (default 80)", "MS"},
  {"buffer", 0, 0, G_OPTION_ARG_INT, &buffer_bytes,
      "Bottleneck buffer in bytes (default 15000, the BDP)", "BYTES"},
  {"duration", 0, 0, G_OPTION_ARG_INT, &duration_s,
      "Simulated seconds (default 40)", "S"},
  {"flows", 0, 0, G_OPTION_ARG_INT, &flows_n,
      "Backlogged flows (default 1, at most 4)", "N"},
  {"second-start-ms", 0, 0, G_OPTION_ARG_INT, &second_start_ms,
      "When flows after the first start (default 5000)", "MS"},
  {"queue", 0, 0, G_OPTION_ARG_STRING, &queue_spec,
      "Bottleneck queue spec instead of the scheme's (e.g. "
      "quco:classes=2)", "SPEC"},
  {"series", 0, 0, G_OPTION_ARG_FILENAME, &series_path,
      "CSV of windows and queue every 10 ms", "FILE"},
  G_OPTION_ENTRY_NULL
};

typedef struct {
  const gchar *name;
  OctoSenderCc cc;
  const gchar *queue;
} Scheme;

static const Scheme schemes[] = {
  {"quco", OCTO_SENDER_QUCO, "quco"},
  /* Algorithm 3 as printed: a back-off for every NACK */
  {"quco-every-nack", OCTO_SENDER_QUCO, "quco"},
  {"newreno", OCTO_SENDER_NEWRENO, "droptail"},
  {"bbr", OCTO_SENDER_BBR, "droptail"},
  {"bbr-quco", OCTO_SENDER_BBR_QUCO, "quco"},
};

static GQueue to_receiver = G_QUEUE_INIT, to_sender = G_QUEUE_INIT;

static void
on_drop (const OctoPacket *packet, OctoDropReason reason,
    G_GNUC_UNUSED gpointer user_data)
{
  if (reason != OCTO_DROP_TRIM)
    g_free (packet->data);
}

static void
send_packets (Flow *f, guint index, OctoQdisc *q, OctoTime now)
{
  static guint8 payload[UDP_PAYLOAD];
  OctoQLayout layout;
  OctoMsgInfo info;
  OctoHeader h = { 0 };
  guint32 room = UDP_PAYLOAD - OCTO_DATA_FIRST_PREFIX_LEN - 4 * CHUNKS -
      octo_chunks_trailer_size (CHUNKS);

  octo_qlayout_equal (&layout, room, CHUNKS);
  layout.equal = FALSE;         /* gold | silver | bronze */
  octo_msg_info_init (&info);
  h.stream_id = index;
  while (octo_send_path_may_send (f->path, now, FALSE, &f->wake)) {
    guint8 *b = g_malloc (UDP_PAYLOAD);
    h.msg_id = f->msg_id++;
    gsize len = octo_qpacket_write (&h, &info, &layout, payload, UDP_PAYLOAD,
        0, 1, b);
    guint64 seq = octo_send_path_on_sent (f->path, len + OCTO_LINK_OVERHEAD,
        TRUE, now);
    octo_data_stamp (b, f->conn_id, (guint32) seq, (guint32) (now / 1000));
    octo_send_path_on_sent_bytes (f->path, seq, b, len);
    f->sent_packets++;
    OctoPacket p = {.data = b,.source = index,
      .size = len + OCTO_LINK_OVERHEAD,.tagged = TRUE
    };
    octo_header_parse (b, len, &p.header);
    gsize plen = len;
    octo_qdisc_enqueue (q, &p, b, &plen, now);
  }
}

/* Returns the chunk bytes that arrived. */
static guint64
receive (Flow *flows, InTransit *t, OctoTime now, OctoTime one_way,
    GArray *delays)
{
  Flow *f = &flows[t->flow];
  OctoDataPacket pkt;
  OctoQFragment frag;
  OctoNack nack;
  OctoAck ack;

  if (octo_data_parse (t->bytes, t->len, &pkt, NULL) != OCTO_DATA_OK ||
      !octo_qpacket_parse (&pkt, &frag))
    g_error ("the simulator's own packet did not parse");
  octo_acker_on_packet (&f->acker, pkt.seq, now);
  guint64 present = 0;
  for (guint i = 0; i < frag.chunks.n_chunks - frag.chunks.trimmed; i++)
    present += frag.chunks.len[i];
  f->delivered_bytes += present;
  f->delivered_link_bytes += t->len + OCTO_LINK_OVERHEAD;
  gdouble delay_ms = (gdouble) (now - (OctoTime) pkt.send_time_us * 1000) /
      OCTO_MSECOND;
  g_array_append_val (delays, delay_ms);

  InTransit *back;
  /* the NACK ahead of the ACK, as octopussrc sends them */
  if (octo_qpacket_nack (&pkt, &frag, &nack)) {
    back = g_new0 (InTransit, 1);
    back->at = now + one_way;
    back->flow = t->flow;
    back->bytes = g_malloc (OCTO_NACK_LEN);
    back->len = octo_nack_write (&nack, back->bytes, OCTO_NACK_LEN);
    g_queue_push_tail (&to_sender, back);
  }
  back = g_new0 (InTransit, 1);
  back->at = now + one_way;
  back->flow = t->flow;
  back->bytes = g_malloc (OCTO_ACK_MAX_LEN);
  octo_acker_build (&f->acker, now, &ack);
  ack.conn_id = f->conn_id;
  back->len = octo_ack_write (&ack, back->bytes, OCTO_ACK_MAX_LEN);
  g_queue_push_tail (&to_sender, back);
  return present;
}

static void
feedback (Flow *f, const InTransit *t, OctoTime now)
{
  OctoAck ack;
  OctoNack nack;

  if (octo_nack_parse (t->bytes, t->len, &nack) == OCTO_NACK_OK) {
    f->nacks++;
    f->trimmed_chunks += nack.trimmed;
    octo_send_path_on_nack (f->path, nack.seq, nack.trimmed, now);
  } else if (octo_ack_parse (t->bytes, t->len, &ack) == OCTO_ACK_OK) {
    octo_send_path_on_feedback (f->path, OCTO_TIME_NONE);
    octo_send_path_on_ack (f->path, &ack, now);
  } else {
    g_error ("the simulator's own feedback did not parse");
  }
  octo_send_path_update_pacer (f->path);
  f->wake = now;
}

static gdouble
jain (const gdouble *x, guint n)
{
  gdouble s = 0, s2 = 0;

  for (guint i = 0; i < n; i++) {
    s += x[i];
    s2 += x[i] * x[i];
  }
  return s2 > 0 ? s * s / (n * s2) : 0;
}

/* Seconds from the last flow's start until Jain's index over 0.5 s windows
 * reaches 0.95 and stays there for 2 s; -1 if it never does. */
static gdouble
time_to_fairness (Flow *flows, guint n, OctoTime last_start, OctoTime end)
{
  guint steps_per_window = JAIN_WINDOW / JAIN_STEP;
  guint hold = JAIN_HOLD / JAIN_STEP;
  guint first = last_start / JAIN_STEP + steps_per_window;
  guint last = end / JAIN_STEP;
  gint fair_since = -1;

  for (guint s = first; s <= last; s++) {
    gdouble x[MAX_FLOWS] = { 0 };
    for (guint i = 0; i < n; i++)
      for (guint k = s - steps_per_window; k < s; k++)
        if (k < flows[i].window_bytes->len)
          x[i] += g_array_index (flows[i].window_bytes, gdouble, k);
    if (jain (x, n) >= 0.95) {
      if (fair_since < 0)
        fair_since = s;
      if (s - fair_since >= hold)
        return (gdouble) (fair_since * JAIN_STEP - last_start) / OCTO_SECOND;
    } else {
      fair_since = -1;
    }
  }
  return -1;
}

static int
compare_double (gconstpointer a, gconstpointer b)
{
  gdouble x = *(const gdouble *) a, y = *(const gdouble *) b;
  return (x > y) - (x < y);
}

int
main (int argc, char **argv)
{
  GError *error = NULL;
  GOptionContext *ctx = g_option_context_new ("- QUCO experiments");
  const Scheme *sc = NULL;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &error)) {
    g_printerr ("octo-sim-quco: %s\n", error->message);
    return 2;
  }
  for (guint i = 0; scheme && i < G_N_ELEMENTS (schemes); i++)
    if (strcmp (schemes[i].name, scheme) == 0)
      sc = &schemes[i];
  if (!sc || flows_n < 1 || flows_n > MAX_FLOWS || rate_mbps <= 0 ||
      buffer_bytes < 1500) {
    g_printerr ("octo-sim-quco: --scheme "
        "quco|quco-every-nack|newreno|bbr|bbr-quco, "
        "--flows 1..4, --rate-mbps > 0 and --buffer >= 1500 required\n");
    return 2;
  }

  OctoQdiscEnv env;
  octo_qdisc_env_init (&env);
  env.limit_bytes = buffer_bytes;
  env.drop_func = on_drop;
  OctoQdisc *q = octo_qdisc_new (queue_spec ? queue_spec : sc->queue, &env,
      &error);
  if (!q) {
    g_printerr ("octo-sim-quco: %s\n", error->message);
    return 2;
  }

  OctoTime one_way = (OctoTime) rtt_ms * OCTO_MSECOND / 2;
  OctoTime end = (OctoTime) duration_s * OCTO_SECOND;
  guint64 rate = (guint64) (rate_mbps * 1e6);
  Flow flows[MAX_FLOWS] = { 0 };
  OctoSendPathConfig pc = { 0 };
  for (gint i = 0; i < flows_n; i++) {
    flows[i].start = i == 0 ? 0 : (OctoTime) second_start_ms * OCTO_MSECOND;
    if (strcmp (sc->name, "quco-every-nack") == 0) {
      OctoQucoConfig qc = {.mss = 1500,.initial_cwnd = 1,.trim_aware = TRUE,
        .every_nack = TRUE
      };
      flows[i].path = octo_send_path_new (&pc, octo_cc_new_quco (&qc));
    } else {
      flows[i].path = octo_send_path_new_for (&pc, sc->cc, 1500, i + 1,
          flows[i].start);
    }
    octo_acker_init (&flows[i].acker, 1, 0);
    flows[i].conn_id = 0x1000 + i;
    flows[i].wake = flows[i].start;
    flows[i].window_bytes = g_array_new (FALSE, TRUE, sizeof (gdouble));
  }

  FILE *series = series_path ? fopen (series_path, "w") : NULL;
  if (series)
    fprintf (series, "t_s,queue_bytes,flow,cwnd_bytes,pacing_bps\n");
  GArray *delays = g_array_new (FALSE, FALSE, sizeof (gdouble));
  OctoTime link_free = 0, next_sample = 0;
  gdouble queue_sum = 0, queue_pkts_sum = 0;
  guint64 samples = 0, link_busy = 0;

  for (OctoTime now = 0; now < end;) {
    /* everything due at now */
    while (!g_queue_is_empty (&to_receiver) &&
        ((InTransit *) g_queue_peek_head (&to_receiver))->at <= now) {
      InTransit *t = g_queue_pop_head (&to_receiver);
      guint64 present = receive (flows, t, now, one_way, delays);
      g_array_set_size (flows[t->flow].window_bytes, now / JAIN_STEP + 1);
      g_array_index (flows[t->flow].window_bytes, gdouble,
          now / JAIN_STEP) += present;
      g_free (t->bytes);
      g_free (t);
    }
    while (!g_queue_is_empty (&to_sender) &&
        ((InTransit *) g_queue_peek_head (&to_sender))->at <= now) {
      InTransit *t = g_queue_pop_head (&to_sender);
      feedback (&flows[t->flow], t, now);
      g_free (t->bytes);
      g_free (t);
    }
    for (gint i = 0; i < flows_n; i++) {
      if (now < flows[i].start)
        continue;
      octo_send_path_on_timer (flows[i].path, now);
      if (flows[i].wake == OCTO_TIME_NONE || flows[i].wake <= now)
        send_packets (&flows[i], i, q, now);
    }
    if (link_free <= now && octo_qdisc_queued_packets (q) > 0) {
      OctoPacket p;
      octo_qdisc_dequeue (q, now, &p);
      OctoTime tx = (OctoTime) p.size * 8 * OCTO_SECOND / rate;
      link_free = now + tx;
      link_busy += tx;
      InTransit *t = g_new0 (InTransit, 1);
      t->at = link_free + one_way;
      t->flow = p.source;
      t->bytes = p.data;
      t->len = p.size - OCTO_LINK_OVERHEAD;
      g_queue_push_tail (&to_receiver, t);
    }
    if (now >= next_sample) {
      queue_sum += octo_qdisc_queued_bytes (q);
      queue_pkts_sum += octo_qdisc_queued_packets (q);
      samples++;
      if (series && now % (10 * OCTO_MSECOND) == 0)
        for (gint i = 0; i < flows_n; i++)
          fprintf (series, "%.3f,%" G_GUINT64_FORMAT ",%d,%" G_GUINT64_FORMAT
              ",%" G_GUINT64_FORMAT "\n", (gdouble) now / OCTO_SECOND,
              octo_qdisc_queued_bytes (q), i,
              octo_send_path_cwnd (flows[i].path),
              octo_send_path_pacing_rate (flows[i].path));
      next_sample += SAMPLE;
    }

    /* the next event */
    OctoTime next = MIN (end, next_sample);
    if (!g_queue_is_empty (&to_receiver))
      next = MIN (next, ((InTransit *) g_queue_peek_head (&to_receiver))->at);
    if (!g_queue_is_empty (&to_sender))
      next = MIN (next, ((InTransit *) g_queue_peek_head (&to_sender))->at);
    if (octo_qdisc_queued_packets (q) > 0)
      next = MIN (next, MAX (link_free, now + 1));
    for (gint i = 0; i < flows_n; i++) {
      OctoTime w = now < flows[i].start ? flows[i].start : flows[i].wake;
      if (w != OCTO_TIME_NONE)
        next = MIN (next, MAX (w, now + 1));
    }
    now = next;
  }

  gdouble mean = 0, var = 0;
  for (guint i = 0; i < delays->len; i++)
    mean += g_array_index (delays, gdouble, i);
  mean /= MAX (delays->len, 1);
  for (guint i = 0; i < delays->len; i++) {
    gdouble d = g_array_index (delays, gdouble, i) - mean;
    var += d * d;
  }
  var /= MAX (delays->len, 1);
  g_array_sort (delays, compare_double);
  gdouble p99 = delays->len ?
      g_array_index (delays, gdouble, (guint) (0.99 * (delays->len - 1))) : 0;
  const OctoQdiscStats *qs = octo_qdisc_get_stats (q);
  guint64 dropped = 0;
  for (guint r = 0; r < OCTO_DROP_N_REASONS; r++)
    dropped += qs->packets_dropped[r];

  gdouble secs = (gdouble) end / OCTO_SECOND;
  printf ("{\"scheme\": \"%s\", \"queue\": \"%s\", \"flows\": %d, "
      "\"rate_mbps\": %.3f, \"rtt_ms\": %d, \"buffer_bytes\": %d, "
      "\"duration_s\": %d, \"goodput_mbps\": [", sc->name,
      queue_spec ? queue_spec : sc->queue, flows_n, rate_mbps, rtt_ms,
      buffer_bytes, duration_s);
  for (gint i = 0; i < flows_n; i++)
    printf ("%s%.4f", i ? ", " : "", flows[i].delivered_bytes * 8 / 1e6 /
        (secs - (gdouble) flows[i].start / OCTO_SECOND));
  /* Reordering (classes=2) can make the flight declare packets lost that
   * the queue never dropped. */
  guint64 declared_lost = 0;
  for (gint i = 0; i < flows_n; i++)
    declared_lost += octo_flight_get_stats (octo_send_path_flight
        (flows[i].path))->packets_lost;
  printf ("], \"packets_declared_lost\": %" G_GUINT64_FORMAT, declared_lost);
  printf (", \"link_utilisation\": %.4f, \"mean_queue_bytes\": %.1f, "
      "\"mean_queue_packets\": %.3f, \"delay_mean_ms\": %.3f, "
      "\"delay_std_ms\": %.3f, \"delay_p99_ms\": %.3f, \"packets_dropped\": %"
      G_GUINT64_FORMAT ", \"packets_trimmed\": %" G_GUINT64_FORMAT
      ", \"chunks_trimmed\": %" G_GUINT64_FORMAT ", \"packets_received\": %u",
      (gdouble) link_busy / end, queue_sum / samples, queue_pkts_sum / samples,
      mean, sqrt (var), p99, dropped, qs->packets_trimmed, qs->chunks_trimmed,
      delays->len);
  if (flows_n > 1) {
    gdouble x[MAX_FLOWS];
    OctoTime tail = end - 10 * OCTO_SECOND;
    for (gint i = 0; i < flows_n; i++) {
      x[i] = 0;
      for (guint k = tail / JAIN_STEP; k < flows[i].window_bytes->len; k++)
        x[i] += g_array_index (flows[i].window_bytes, gdouble, k);
    }
    printf (", \"time_to_jain95_s\": %.2f, \"jain_last_10s\": %.4f",
        time_to_fairness (flows, flows_n, flows[flows_n - 1].start, end),
        jain (x, flows_n));
  }
  printf ("}\n");

  if (series)
    fclose (series);
  for (gint i = 0; i < flows_n; i++) {
    octo_send_path_free (flows[i].path);
    g_array_free (flows[i].window_bytes, TRUE);
  }
  OctoPacket p;
  while (octo_qdisc_dequeue (q, end, &p))
    g_free (p.data);
  octo_qdisc_free (q);
  g_array_free (delays, TRUE);
  g_option_context_free (ctx);
  return 0;
}
