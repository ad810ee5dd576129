/* Cost per packet of the trimming queue (quco) against drop-tail, in the
 * same run.
 *
 * Workload: qualitative packets of 1472 bytes (three chunks, octo-qpacket.h)
 * copied into a slot as the shim stores datagrams, header parsed, enqueued,
 * and one dequeued per arrival, the queue held at a fixed backlog.  Two
 * loads: "trimming" (80 packets: 55 % of the buffer once trimmed; quco cuts the
 * last chunk of every arrival) and "calm" (20 %: quco only checks the
 * occupancy).  Drop-tail and quco runs alternate; each figure is the best
 * of 5.
 *
 * With arguments "droptail|quco trimming|calm" it runs that one case once,
 * for instruction counters (perf stat -e instructions:u), which the load
 * of a shared machine does not move. */
#include "octo-qdisc.h"
#include "octo-qpacket.h"

#include <stdio.h>
#include <string.h>

#define PACKETS_PER_RUN 2000000
#define UDP_PAYLOAD 1472
#define SLOTS 64

static guint8 slots[SLOTS][UDP_PAYLOAD];
static guint8 template[UDP_PAYLOAD];
static gsize template_len;

static void
on_drop (G_GNUC_UNUSED const OctoPacket *packet,
    G_GNUC_UNUSED OctoDropReason reason, G_GNUC_UNUSED gpointer user_data)
{
}

static void
make_template (void)
{
  static guint8 msg[UDP_PAYLOAD];
  OctoQLayout layout;
  OctoMsgInfo info;
  OctoHeader h = { 0 };

  octo_qlayout_equal (&layout, 1391, 3);
  layout.equal = FALSE;
  octo_msg_info_init (&info);
  template_len = octo_qpacket_write (&h, &info, &layout, msg, UDP_PAYLOAD, 0,
      1, template);
  g_assert (template_len > 0);
}

/* ns per packet (enqueue + dequeue) with @backlog packets held. */
static gdouble
run (const gchar *spec, guint backlog, guint64 *trimmed)
{
  OctoQdiscEnv env;
  GError *error = NULL;
  OctoPacket out;

  octo_qdisc_env_init (&env);
  env.limit_bytes = 100 * 1500;
  env.drop_func = on_drop;
  OctoQdisc *q = octo_qdisc_new (spec, &env, &error);
  g_assert_no_error (error);
  gint64 t0 = g_get_monotonic_time ();
  for (guint32 i = 0; i < PACKETS_PER_RUN; i++) {
    guint8 *slot = slots[i % SLOTS];
    gsize len = template_len;
    memcpy (slot, template, len);
    OctoPacket p = {.data = slot,.size = len + 28 };
    p.tagged = octo_header_parse (slot, len, &p.header) == OCTO_PARSE_OK;
    octo_qdisc_enqueue (q, &p, slot, &len, i);
    if (octo_qdisc_queued_packets (q) > backlog)
      octo_qdisc_dequeue (q, i, &out);
  }
  gint64 t1 = g_get_monotonic_time ();
  *trimmed = octo_qdisc_get_stats (q)->packets_trimmed;
  while (octo_qdisc_dequeue (q, 0, &out));
  octo_qdisc_free (q);
  return (gdouble) (t1 - t0) * 1000.0 / PACKETS_PER_RUN;
}

int
main (int argc, char **argv)
{
  const struct {
    const gchar *name;
    guint backlog;
  } loads[] = { {"trimming", 80}, {"calm", 20} };

  make_template ();
  if (argc == 3) {
    guint64 trimmed;
    guint backlog = strcmp (argv[2], "calm") == 0 ? 20 : 80;
    printf ("%s %s %.1f ns/packet\n", argv[1], argv[2],
        run (argv[1], backlog, &trimmed));
    return 0;
  }
  for (guint l = 0; l < G_N_ELEMENTS (loads); l++) {
    gdouble best_tail = G_MAXDOUBLE, best_quco = G_MAXDOUBLE;
    guint64 trimmed_tail = 0, trimmed_quco = 0;
    for (guint rep = 0; rep < 5; rep++) {
      best_tail = MIN (best_tail, run ("droptail", loads[l].backlog,
              &trimmed_tail));
      best_quco = MIN (best_quco, run ("quco", loads[l].backlog,
              &trimmed_quco));
    }
    printf ("%-8s droptail %.1f ns/packet, quco %.1f ns/packet (%.2fx); "
        "quco trimmed %" G_GUINT64_FORMAT " of %d packets\n", loads[l].name,
        best_tail, best_quco, best_quco / best_tail, trimmed_quco,
        PACKETS_PER_RUN);
    g_assert_cmpuint (trimmed_tail, ==, 0);
  }
  return 0;
}
