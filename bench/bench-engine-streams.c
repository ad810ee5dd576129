/* Engine cost per packet vs. the number of streams in one queue.
 *
 * Workload: the quality preset's tags as in octo-bench-engine (3 layers of 4
 * packets per frame, GoP 10, the GoP's first Q0 a dropper, bitrate thresholds
 * on Q1 and Q2 checked against the measured rate), one packet per µs, the
 * queue held at 16 packets, descriptors only.
 *  - active: messages go round-robin over N streams, so every stream has
 *    arrivals in each 50 ms rate window (up to 10,000 streams);
 *  - idle: N - 1 streams each sent one message 5 s before the run, which then
 *    carries one stream only.
 * Each figure is the best of --repeat rounds (default 3) that run every
 * configuration once, the descriptor at another page offset in each round
 * (bench-descriptors.h); ratios are to the 1-stream figure of the same
 * invocation. */
#include "bench-descriptors.h"
#include "octo-engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PACKETS_PER_RUN 2000000
#define PACKET_BYTES 1200
#define BACKLOG 16
#define PACKETS_PER_MSG 4
#define IDLE_BEFORE (5 * OCTO_SECOND)

static void
on_drop (const OctoPacket *packet, OctoDropReason reason, gpointer user_data)
{
  (void) packet;
  (void) reason;
  (*(guint64 *) user_data)++;
}

/* Packet @pkt of the stream's @msg-th message, tagged as bench-engine.c. */
static void
make_header (OctoHeader *h, guint16 stream, guint32 msg, guint32 pkt)
{
  guint layer = msg % 3, frame = msg / 3;

  memset (h, 0, sizeof (*h));
  h->stream_id = stream;
  h->msg_id = msg;
  h->first = pkt == 0;
  h->last = pkt == PACKETS_PER_MSG - 1;
  h->priority = layer;
  h->drop = layer == 0 && frame % 10 == 0;
  h->link_bitrate_threshold_bps = layer == 1 ? 700000 : layer == 2 ? 1200000 : 0;
}

/* Stream k is (source k / 65536, stream_id k % 65536). */
static void
set_stream (OctoPacket *p, guint32 k)
{
  p->source = k >> 16;
  p->header.stream_id = k & 0xffff;
}

/* Returns ns per packet. */
static gdouble
run (guint32 n_streams, gboolean idle, guint round, guint64 *dropped_out)
{
  OctoEngineConfig config;
  OctoEngine *engine;
  guint64 dropped = 0;
  OctoPacket *p = bench_descriptors (round), *out = p + 1;
  guint32 active = idle ? 1 : n_streams;
  gint64 start, end;

  octo_engine_config_init (&config);
  config.max_streams = n_streams + 1;
  engine = octo_engine_new (&config, on_drop, &dropped);
  p->size = PACKET_BYTES;
  p->tagged = TRUE;

  /* the idle streams' one message each, long before the run */
  for (guint32 k = 1; idle && k < n_streams; k++) {
    for (guint32 pkt = 0; pkt < PACKETS_PER_MSG; pkt++) {
      make_header (&p->header, 0, 0, pkt);
      set_stream (p, k);
      octo_engine_enqueue (engine, p, 0);
    }
    while (octo_engine_dequeue (engine, 0, out));
  }

  start = g_get_monotonic_time ();
  for (guint32 i = 0; i < PACKETS_PER_RUN; i++) {
    OctoTime now = IDLE_BEFORE + (OctoTime) i * OCTO_USECOND;
    guint32 message = i / PACKETS_PER_MSG;

    make_header (&p->header, 0, message / active, i % PACKETS_PER_MSG);
    set_stream (p, message % active);
    octo_engine_enqueue (engine, p, now);
    if (octo_engine_queued_packets (engine) > BACKLOG)
      octo_engine_dequeue (engine, now, out);
  }
  end = g_get_monotonic_time ();
  octo_engine_free (engine);
  *dropped_out = dropped;
  return (gdouble) (end - start) * 1000.0 / PACKETS_PER_RUN;
}

int
main (int argc, char **argv)
{
  static const guint32 counts[] = { 1, 100, 1000, 10000 };
  gdouble best[G_N_ELEMENTS (counts)][2];
  guint64 dropped[G_N_ELEMENTS (counts)][2];
  guint repeat = 3;

  if (argc > 2 && strcmp (argv[1], "--repeat") == 0)
    repeat = MAX (1, atoi (argv[2]));
  else if (argc > 1) {
    fprintf (stderr, "usage: %s [--repeat N]\n", argv[0]);
    return 2;
  }

  /* every configuration once per round, so load on the machine spreads
   * over all of them alike */
  for (guint c = 0; c < G_N_ELEMENTS (counts); c++)
    best[c][0] = best[c][1] = G_MAXDOUBLE;
  for (guint r = 0; r < repeat; r++)
    for (guint c = 0; c < G_N_ELEMENTS (counts); c++)
      for (guint idle = 0; idle < (counts[c] > 1 ? 2u : 1u); idle++)
        best[c][idle] = MIN (best[c][idle],
            run (counts[c], idle, r, &dropped[c][idle]));

  printf ("Octopus engine: enqueue+dequeue cost per packet vs. streams in one "
      "queue (%d packets, best of %u)\n\n", PACKETS_PER_RUN, repeat);
  printf ("%8s %-8s %10s %10s %10s\n", "streams", "variant", "ns/packet",
      "dropped", "ratio");
  for (guint c = 0; c < G_N_ELEMENTS (counts); c++)
    for (guint idle = 0; idle < (counts[c] > 1 ? 2u : 1u); idle++)
      printf ("%8u %-8s %10.1f %10" G_GUINT64_FORMAT " %10.2f\n", counts[c],
          idle ? "idle" : "active", best[c][idle], dropped[c][idle],
          best[c][idle] / best[0][0]);
  return 0;
}
