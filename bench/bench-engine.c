/* Engine cost per packet: the Octopus rules vs. the same queue with rules off
 * (drop-tail), in the same run.
 *
 * Workload: one stream tagged like the quality preset (3 layers of 4 packets
 * per frame, GoP 10, the GoP's first Q0 a dropper, bitrate thresholds on Q1
 * and Q2 checked against the measured rate), the queue held at 16 packets, so
 * each GoP start drops the older layers still queued (~13 % of packets).  Two
 * storages: bare descriptors, and 1200-byte datagrams copied into a slab as
 * the shim stores them (there the Octopus variant also parses each header,
 * with the shim classifier's cache of the last header).
 * Drop-tail and Octopus runs alternate; each figure is the best of --repeat
 * rounds (default 5), the descriptor at another page offset in each
 * (bench-descriptors.h). */
#include "bench-descriptors.h"
#include "octo-engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PACKETS_PER_RUN 4000000
#define PAYLOAD 1200
#define BACKLOG 16
#define PACKETS_PER_MSG 4
#define SLAB_SLOTS 1024

typedef struct {
  guint8 (*slab)[PAYLOAD];
  guint32 next;
  guint8 sink[PAYLOAD];
} Storage;

static void
on_drop (const OctoPacket *packet, OctoDropReason reason, gpointer user_data)
{
  (void) packet;
  (void) reason;
  (*(guint64 *) user_data)++;
}

static void
make_header (OctoHeader *h, guint32 msg, guint32 pkt)
{
  guint layer = msg % 3, frame = msg / 3;

  memset (h, 0, sizeof (*h));
  h->msg_id = msg;
  h->first = pkt == 0;
  h->last = pkt == PACKETS_PER_MSG - 1;
  h->priority = layer;
  h->drop = layer == 0 && frame % 10 == 0;
  h->link_bitrate_threshold_bps =
      layer == 1 ? 700000 : layer == 2 ? 1200000 : 0;
}

/* Headers of every packet of a run, packed ahead of time so the timed loop
 * only stores datagrams, as a receiving shim would. */
static guint8 (*wire_headers)[OCTO_WIRE_HEADER_LEN];

static void
pack_all_headers (void)
{
  wire_headers = g_malloc ((gsize) PACKETS_PER_RUN * OCTO_WIRE_HEADER_LEN);
  for (guint32 i = 0; i < PACKETS_PER_RUN; i++) {
    OctoHeader h;
    make_header (&h, i / PACKETS_PER_MSG, i % PACKETS_PER_MSG);
    octo_header_pack (&h, wire_headers[i]);
  }
}

/* Returns ns per packet. */
static gdouble
run (gboolean rules, gboolean with_storage, guint round,
    guint64 *dropped_out)
{
  OctoEngineConfig config;
  OctoEngine *engine;
  guint64 dropped = 0;
  Storage storage = { 0 };
  OctoHeaderCache header_cache;
  guint8 payload[PAYLOAD];
  OctoPacket *p = bench_descriptors (round), *out = p + 1;
  gint64 start, end;

  octo_engine_config_init (&config);
  config.rules = rules;
  engine = octo_engine_new (&config, on_drop, &dropped);
  storage.slab = g_malloc (SLAB_SLOTS * PAYLOAD);
  memset (payload, 0x5a, sizeof payload);
  p->size = PAYLOAD;
  p->tagged = TRUE;
  octo_header_cache_init (&header_cache);

  start = g_get_monotonic_time ();
  for (guint32 i = 0; i < PACKETS_PER_RUN; i++) {
    OctoTime now = (OctoTime) i * OCTO_USECOND;

    if (with_storage) {
      guint8 *slot = storage.slab[storage.next++ % SLAB_SLOTS];
      memcpy (slot, payload, PAYLOAD);
      memcpy (slot, wire_headers[i], OCTO_WIRE_HEADER_LEN);
      p->data = slot;
      if (rules)
        p->tagged = octo_header_parse_cached (&header_cache, slot, PAYLOAD,
            &p->header) == OCTO_PARSE_OK;
    } else {
      make_header (&p->header, i / PACKETS_PER_MSG, i % PACKETS_PER_MSG);
    }
    octo_engine_enqueue (engine, p, now);
    if (octo_engine_queued_packets (engine) > BACKLOG
        && octo_engine_dequeue (engine, now, out) && with_storage)
      memcpy (storage.sink, out->data, PAYLOAD);
  }
  end = g_get_monotonic_time ();
  octo_engine_free (engine);
  g_free (storage.slab);
  *dropped_out = dropped;
  return (gdouble) (end - start) * 1000.0 / PACKETS_PER_RUN;
}

int
main (int argc, char **argv)
{
  const gchar *names[2] = { "descriptors", "1200-byte datagrams" };
  guint repeat = 5;

  if (argc > 2 && strcmp (argv[1], "--repeat") == 0)
    repeat = MAX (1, atoi (argv[2]));
  else if (argc > 1) {
    fprintf (stderr, "usage: %s [--repeat N]\n", argv[0]);
    return 2;
  }

  pack_all_headers ();

  printf ("Octopus engine: enqueue+dequeue cost per packet (%d packets, "
      "best of %u)\n\n", PACKETS_PER_RUN, repeat);
  printf ("%-22s %-14s %10s %10s %10s %8s\n", "storage", "queue", "ns/packet",
      "Mpkt/s", "dropped", "ratio");
  for (guint s = 0; s < 2; s++) {
    guint64 dropped_tail = 0, dropped_rules = 0;
    gdouble tail = G_MAXDOUBLE, rules = G_MAXDOUBLE;

    for (guint i = 0; i < repeat; i++) {
      tail = MIN (tail, run (FALSE, s == 1, i, &dropped_tail));
      rules = MIN (rules, run (TRUE, s == 1, i, &dropped_rules));
    }
    printf ("%-22s %-14s %10.1f %10.2f %10" G_GUINT64_FORMAT " %8s\n",
        names[s], "drop-tail", tail, 1000.0 / tail, dropped_tail, "1.00");
    printf ("%-22s %-14s %10.1f %10.2f %10" G_GUINT64_FORMAT " %8.2f\n",
        names[s], "octopus rules", rules, 1000.0 / rules, dropped_rules,
        rules / tail);
  }
  g_free (wire_headers);
  return 0;
}
