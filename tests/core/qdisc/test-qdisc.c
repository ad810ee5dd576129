/* Every queue discipline on a fake clock against hand-computed outcomes. */
#include "qdisc/octo-qdisc.h"
#include "qdisc/octo-chunks.h"

#include <string.h>

#define MS OCTO_MSECOND

typedef struct {
  guint id;
  OctoDropReason reason;
  guint32 size;
} Drop;

static GArray *drops;

static void
record_drop (const OctoPacket *packet, OctoDropReason reason,
    G_GNUC_UNUSED gpointer user_data)
{
  Drop d = { GPOINTER_TO_UINT (packet->data), reason, packet->size };
  g_array_append_val (drops, d);
}

static OctoQdisc *
make (const gchar *spec)
{
  OctoQdiscEnv env;
  GError *error = NULL;

  octo_qdisc_env_init (&env);
  env.drop_func = record_drop;
  if (drops)
    g_array_free (drops, TRUE);
  drops = g_array_new (FALSE, FALSE, sizeof (Drop));
  OctoQdisc *q = octo_qdisc_new (spec, &env, &error);
  g_assert_no_error (error);
  return q;
}

static OctoPacket
packet (guint id, guint32 size)
{
  return (OctoPacket) { .data = GUINT_TO_POINTER (id), .size = size };
}

static OctoPacket
tagged (guint id, guint32 size, guint8 priority)
{
  OctoPacket p = packet (id, size);
  p.tagged = TRUE;
  p.header.priority = priority;
  p.header.msg_id = id;
  p.header.first = p.header.last = 1;
  return p;
}

static gboolean
put (OctoQdisc *q, OctoPacket p, OctoTime now)
{
  return octo_qdisc_enqueue (q, &p, NULL, NULL, now);
}

static guint
take (OctoQdisc *q, OctoTime now)
{
  OctoPacket out;
  if (!octo_qdisc_dequeue (q, now, &out))
    return 0;
  return GPOINTER_TO_UINT (out.data);
}

static void
expect_drops (const guint *ids, OctoDropReason reason, guint n)
{
  g_assert_cmpuint (drops->len, ==, n);
  for (guint i = 0; i < n; i++) {
    Drop *d = &g_array_index (drops, Drop, i);
    g_assert_cmpuint (d->id, ==, ids[i]);
    g_assert_cmpint (d->reason, ==, reason);
  }
}

static void
expect_spec_error (const gchar *spec, gint code, const gchar *message)
{
  OctoQdiscEnv env;
  GError *error = NULL;

  octo_qdisc_env_init (&env);
  g_assert_null (octo_qdisc_new (spec, &env, &error));
  g_assert_error (error, OCTO_QDISC_ERROR, code);
  g_assert_cmpstr (error->message, ==, message);
  g_error_free (error);
}

static void
test_qdisc_spec_errors_are_clear (void)
{
  expect_spec_error ("codel:taget=5ms", OCTO_QDISC_ERROR_UNKNOWN_ARGUMENT,
      "codel: unknown argument 'taget' (expected limit, target, interval)");
  expect_spec_error ("fifo", OCTO_QDISC_ERROR_UNKNOWN_NAME,
      "unknown queue discipline 'fifo' (expected one of octopus, droptail, "
      "drophead, codel, pie, bode, pdrop, quco)");
  expect_spec_error ("bode:target=soon", OCTO_QDISC_ERROR_BAD_VALUE,
      "bode: bad value 'soon' for target (expected a time like 5ms, 500us "
      "or 1s)");
  expect_spec_error ("droptail:limit=12XB", OCTO_QDISC_ERROR_BAD_VALUE,
      "droptail: bad value '12XB' for limit (expected a size like 375000, "
      "375KB or 64KiB)");
  expect_spec_error ("droptail:limit", OCTO_QDISC_ERROR_BAD_VALUE,
      "droptail: argument 'limit' is not key=value");
  expect_spec_error ("quco:light=80,medium=70", OCTO_QDISC_ERROR_BAD_VALUE,
      "quco: thresholds must satisfy light <= medium <= high");
  expect_spec_error ("pdrop:limit=1,limit=2", OCTO_QDISC_ERROR_BAD_VALUE,
      "pdrop: argument 'limit' given twice");
}

static void
test_qdisc_spec_units (void)
{
  OctoQdisc *q = make ("droptail:limit=64KiB");
  g_assert_cmpuint (octo_qdisc_limit_bytes (q), ==, 65536);
  octo_qdisc_free (q);
  q = make ("pdrop:limit=50KB");
  g_assert_cmpuint (octo_qdisc_limit_bytes (q), ==, 50000);
  octo_qdisc_free (q);
  q = make ("codel:");
  g_assert_cmpuint (octo_qdisc_limit_bytes (q), ==, 375000);
  octo_qdisc_free (q);
}

static void
test_droptail_drops_arrivals_that_do_not_fit (void)
{
  OctoQdisc *q = make ("droptail:limit=3000");
  g_assert_true (put (q, packet (1, 1000), 0));
  g_assert_true (put (q, packet (2, 1000), 0));
  g_assert_true (put (q, packet (3, 1000), 0));
  g_assert_false (put (q, packet (4, 1), 0));
  expect_drops ((guint[]) { 4 }, OCTO_DROP_OVERFLOW, 1);
  g_assert_cmpuint (octo_qdisc_queued_bytes (q), ==, 3000);
  g_assert_cmpuint (take (q, 0), ==, 1);
  g_assert_cmpuint (take (q, 0), ==, 2);
  g_assert_cmpuint (take (q, 0), ==, 3);
  g_assert_cmpuint (take (q, 0), ==, 0);
  const OctoQdiscStats *s = octo_qdisc_get_stats (q);
  g_assert_cmpuint (s->packets_in, ==, 4);
  g_assert_cmpuint (s->packets_out, ==, 3);
  g_assert_cmpuint (s->bytes_out, ==, 3000);
  g_assert_cmpuint (s->packets_dropped[OCTO_DROP_OVERFLOW], ==, 1);
  octo_qdisc_free (q);
}

static void
test_drophead_evicts_the_oldest (void)
{
  OctoQdisc *q = make ("drophead:limit=3000");
  for (guint i = 1; i <= 3; i++)
    g_assert_true (put (q, packet (i, 1000), 0));
  g_assert_true (put (q, packet (4, 1500), 0));
  expect_drops ((guint[]) { 1, 2 }, OCTO_DROP_OVERFLOW, 2);
  g_assert_false (put (q, packet (5, 3001), 0));
  g_assert_cmpuint (take (q, 0), ==, 3);
  g_assert_cmpuint (take (q, 0), ==, 4);
  octo_qdisc_free (q);
}

static void
test_bode_bounds_sojourn_but_keeps_last_packets (void)
{
  OctoQdisc *q = make ("bode:target=10ms,min_thr=3");
  for (guint i = 1; i <= 5; i++)
    put (q, packet (i, 1000), 0);
  put (q, packet (6, 1000), 5 * MS);
  /* At 9 ms nobody waited the target. */
  g_assert_cmpuint (take (q, 9 * MS), ==, 1);
  /* At 12 ms: 2, 3, 4 waited 12 ms; drop while >= 3 queued -> 2, 3, 4 go, 5
   * stays because only 5 and 6 are left. */
  g_assert_cmpuint (take (q, 12 * MS), ==, 5);
  expect_drops ((guint[]) { 2, 3, 4 }, OCTO_DROP_AQM, 3);
  g_assert_cmpuint (take (q, 40 * MS), ==, 6);
  octo_qdisc_free (q);
}

static void
test_bode_serves_only_below_the_target (void)
{
  OctoQdisc *q = make ("bode:target=10ms,min_thr=0");
  put (q, packet (1, 1000), 0);
  put (q, packet (2, 1000), 1 * MS);
  /* Paper 002: serve if sojourn < BoundedDelay, else drop: 1 waited exactly
   * 10 ms and goes, 2 waited 9 ms and is served. */
  g_assert_cmpuint (take (q, 10 * MS), ==, 2);
  expect_drops ((guint[]) { 1 }, OCTO_DROP_AQM, 1);
  octo_qdisc_free (q);
}

static void
test_pdrop_full_buffer_evicts_lower_priority (void)
{
  OctoQdisc *q = make ("pdrop:limit=4000");
  put (q, tagged (1, 1000, 2), 0);
  put (q, tagged (2, 1000, 1), 0);
  put (q, packet (3, 1000), 0);
  put (q, tagged (4, 1000, 2), 0);
  /* Full: a priority-1 arrival evicts the priority-2 packets only. */
  g_assert_true (put (q, tagged (5, 1000, 1), 0));
  expect_drops ((guint[]) { 1, 4 }, OCTO_DROP_AQM, 2);
  put (q, tagged (6, 1000, 1), 0);
  /* Full of priority <= 1 and untagged: a priority-1 arrival is dropped. */
  g_assert_false (put (q, tagged (7, 1000, 1), 0));
  g_assert_cmpint (g_array_index (drops, Drop, 2).reason, ==,
      OCTO_DROP_OVERFLOW);
  /* Untagged arrivals never evict. */
  g_assert_false (put (q, packet (8, 1000), 0));
  g_assert_cmpuint (take (q, 0), ==, 2);
  g_assert_cmpuint (take (q, 0), ==, 3);
  g_assert_cmpuint (take (q, 0), ==, 5);
  g_assert_cmpuint (take (q, 0), ==, 6);
  octo_qdisc_free (q);
}

/* A message packet: @id, message @msg of stream 0, @priority; @first and
 * @last mark its position. */
static OctoPacket
part (guint id, guint32 msg, guint8 priority, gboolean first, gboolean last,
    guint32 size)
{
  OctoPacket p = tagged (id, size, priority);
  p.header.msg_id = msg;
  p.header.first = first;
  p.header.last = last;
  return p;
}

static void
expect_drop_list (const guint *ids, const OctoDropReason *reasons, guint n)
{
  g_assert_cmpuint (drops->len, ==, n);
  for (guint i = 0; i < n; i++) {
    Drop *d = &g_array_index (drops, Drop, i);
    g_assert_cmpuint (d->id, ==, ids[i]);
    g_assert_cmpint (d->reason, ==, reasons[i]);
  }
}

static void
test_pdrop_works_on_whole_messages (void)
{
  OctoQdisc *q = make ("pdrop:limit=6000");
  const OctoDropReason A = OCTO_DROP_AQM, O = OCTO_DROP_OVERFLOW;

  /* Message 10 (priority 2) has two of its three packets queued. */
  put (q, part (1, 10, 2, TRUE, FALSE, 1000), 0);
  put (q, part (2, 10, 2, FALSE, FALSE, 1000), 0);
  put (q, part (3, 11, 1, TRUE, FALSE, 1000), 0);
  put (q, part (4, 11, 1, FALSE, FALSE, 1000), 0);
  put (q, part (5, 12, 2, TRUE, TRUE, 1000), 0);
  /* 5000 + 1500 > 6000: the priority-1 tail evicts messages 10 and 12
   * (3000 bytes), which makes room. */
  g_assert_true (put (q, part (6, 11, 1, FALSE, TRUE, 1500), 0));
  /* Message 10's tail fits but its message is gone. */
  g_assert_false (put (q, part (7, 10, 2, FALSE, TRUE, 500), 0));
  /* 3500 + 2000 + 400 = 5900 queued. */
  put (q, part (8, 13, 3, TRUE, TRUE, 2000), 0);
  put (q, part (9, 14, 2, TRUE, FALSE, 400), 0);
  /* 6900: evicting message 13 (priority 3) makes room. */
  g_assert_true (put (q, part (10, 15, 2, TRUE, TRUE, 1000), 0));
  /* 4900 + 3000: evicting 14 and 15 (priority 2) would leave 6500, too
   * much: nothing is evicted and message 16 is dropped, tail included. */
  g_assert_false (put (q, part (11, 16, 1, TRUE, FALSE, 3000), 0));
  g_assert_false (put (q, part (12, 16, 1, FALSE, TRUE, 100), 0));
  /* 4900 + 1200 with nothing evictable: message 14 goes whole, its queued
   * head first, and its tail after it. */
  g_assert_false (put (q, part (13, 14, 2, FALSE, FALSE, 1200), 0));
  g_assert_false (put (q, part (14, 14, 2, FALSE, TRUE, 100), 0));
  expect_drop_list ((guint[]) { 1, 2, 5, 7, 8, 11, 12, 9, 13, 14 },
      (OctoDropReason[]) { A, A, A, A, A, O, O, O, O, O }, 10);

  g_assert_cmpuint (octo_qdisc_queued_bytes (q), ==, 4500);
  g_assert_cmpuint (take (q, 0), ==, 3);
  g_assert_cmpuint (take (q, 0), ==, 4);
  g_assert_cmpuint (take (q, 0), ==, 6);
  g_assert_cmpuint (take (q, 0), ==, 10);
  g_assert_cmpuint (take (q, 0), ==, 0);
  /* A tail ends the memory of its message: the message id may come back. */
  g_assert_true (put (q, part (15, 14, 2, TRUE, TRUE, 100), 0));
  octo_qdisc_free (q);
}

/* Every discipline holds at most limit / 64 packets however small they are
 * (the engine's default), so memory follows the configured buffer. */
static void
test_every_queue_bounds_its_packets (void)
{
  const gchar *const specs[] = { "droptail", "drophead", "codel", "pie",
    "bode", "pdrop", "quco", "octopus" };

  for (guint i = 0; i < G_N_ELEMENTS (specs); i++) {
    /* 128 packets: the engine rounds its bound up to a power of two. */
    gchar *spec = g_strdup_printf ("%s:limit=8KiB", specs[i]);
    OctoQdisc *q = make (spec);
    g_assert_cmpuint (octo_qdisc_limit_packets (q), ==, 128);
    for (guint id = 1; id <= 200; id++)
      put (q, packet (id, 29), 0);
    g_assert_cmpuint (octo_qdisc_queued_packets (q), ==, 128);
    g_assert_cmpuint (drops->len, ==, 72);
    g_free (spec);
    octo_qdisc_free (q);
  }
}

static void
test_codel_follows_rfc8289_control_law (void)
{
  OctoQdisc *q = make ("codel:target=5ms,interval=100ms");
  for (guint i = 1; i <= 10; i++)
    put (q, packet (i, 1000), 0);
  /* 10 ms: sojourn above target: first_above_time = 110 ms. */
  g_assert_cmpuint (take (q, 10 * MS), ==, 1);
  /* 110 ms: above for an interval: drop 2, enter dropping, next drop at
   * 110 + 100/sqrt(1) = 210 ms. */
  g_assert_cmpuint (take (q, 110 * MS), ==, 3);
  expect_drops ((guint[]) { 2 }, OCTO_DROP_AQM, 1);
  g_assert_cmpuint (take (q, 120 * MS), ==, 4);
  /* 210 ms: drop 5, count 2, next drop at 210 + 70.7 ms. */
  g_assert_cmpuint (take (q, 210 * MS), ==, 6);
  g_assert_cmpuint (take (q, 280 * MS), ==, 7);
  /* 281 ms: past 280.7 ms: drop 8. */
  g_assert_cmpuint (take (q, 281 * MS), ==, 9);
  expect_drops ((guint[]) { 2, 5, 8 }, OCTO_DROP_AQM, 3);
  /* Only one packet (< 1 MTU) left: not standing, leaves dropping. */
  g_assert_cmpuint (take (q, 282 * MS), ==, 10);
  g_assert_cmpuint (drops->len, ==, 3);
  g_assert_cmpuint (octo_qdisc_queued_packets (q), ==, 0);
  octo_qdisc_free (q);
}

static void
test_codel_reentry_resumes_the_drop_rate (void)
{
  OctoQdisc *q = make ("codel:target=5ms,interval=100ms");
  OctoTime at[] = { 10, 110, 120, 210, 280, 281, 282 };

  /* The control-law test's run: drops at 110, 210, 280.7 ms (count 3),
   * then the queue empties and CoDel leaves dropping. */
  for (guint i = 1; i <= 10; i++)
    put (q, packet (i, 1000), 0);
  for (guint i = 0; i < G_N_ELEMENTS (at); i++)
    take (q, at[i] * MS);
  g_assert_cmpuint (drops->len, ==, 3);
  for (guint i = 11; i <= 20; i++)
    put (q, packet (i, 1000), 300 * MS);
  /* 310 ms: above target again, first_above_time = 410 ms. */
  g_assert_cmpuint (take (q, 310 * MS), ==, 11);
  /* 410 ms: re-entry within 16 intervals of the last drop_next, so count
   * resumes at count - lastcount = 3 - 1 = 2: drop 12, next drop at
   * 410 + 100/sqrt(2) = 480.7 ms (a fresh count 1 would wait to 510). */
  g_assert_cmpuint (take (q, 410 * MS), ==, 13);
  g_assert_cmpuint (take (q, 480 * MS), ==, 14);
  g_assert_cmpuint (take (q, 481 * MS), ==, 16);
  g_assert_cmpuint (drops->len, ==, 5);
  g_assert_cmpuint (g_array_index (drops, Drop, 3).id, ==, 12);
  g_assert_cmpuint (g_array_index (drops, Drop, 4).id, ==, 15);
  octo_qdisc_free (q);
}

static void
test_codel_decides_again_when_the_packet_leaves_later (void)
{
  OctoQdisc *q = make ("codel:target=5ms,interval=100ms");
  for (guint i = 1; i <= 10; i++)
    put (q, packet (i, 1000), 0);
  /* 10 ms: above target, first_above_time = 110 ms. */
  g_assert_cmpuint (take (q, 10 * MS), ==, 1);
  /* 20 ms: 2 would be sent, but the link serves another queue first. */
  const OctoPacket *p = octo_qdisc_peek (q, 20 * MS);
  g_assert_cmpuint (GPOINTER_TO_UINT (p->data), ==, 2);
  /* 120 ms: 2 leaves only now, above target for an interval: dropped. */
  g_assert_cmpuint (take (q, 120 * MS), ==, 3);
  expect_drops ((guint[]) { 2 }, OCTO_DROP_AQM, 1);
  octo_qdisc_free (q);
}

static void
test_codel_peek_then_dequeue_agree (void)
{
  OctoQdisc *q = make ("codel");
  put (q, packet (1, 1000), 0);
  put (q, packet (2, 1000), 0);
  const OctoPacket *p = octo_qdisc_peek (q, 1 * MS);
  g_assert_cmpuint (GPOINTER_TO_UINT (p->data), ==, 1);
  g_assert_cmpuint (octo_qdisc_queued_packets (q), ==, 2);
  g_assert_cmpuint (octo_qdisc_queued_bytes (q), ==, 2000);
  g_assert_cmpuint (take (q, 1 * MS), ==, 1);
  g_assert_cmpuint (octo_qdisc_queued_bytes (q), ==, 1000);
  octo_qdisc_free (q);
}

/* Offers 1500-byte packets every @gap and serves one every @service for
 * @duration; returns the AQM drops. */
static guint
run_pie (OctoQdisc *q, OctoTime gap, OctoTime service, OctoTime duration)
{
  OctoTime next_in = 0, next_out = service;
  guint id = 1, aqm = 0;

  while (next_in < duration) {
    if (next_in <= next_out) {
      put (q, packet (id++, 1500), next_in);
      next_in += gap;
    } else {
      take (q, next_out);
      next_out += service;
    }
  }
  for (guint i = 0; i < drops->len; i++)
    aqm += g_array_index (drops, Drop, i).reason == OCTO_DROP_AQM;
  return aqm;
}

static void
test_pie_tolerates_bursts_then_drops_early (void)
{
  OctoQdisc *q = make ("pie:seed=7");
  /* Twice the service rate for 140 ms: within max_burst, no early drop. */
  g_assert_cmpuint (run_pie (q, 1 * MS, 2 * MS, 140 * MS), ==, 0);
  octo_qdisc_free (q);

  q = make ("pie:seed=7");
  guint first = run_pie (q, 1 * MS, 2 * MS, 3000 * MS);
  g_assert_cmpuint (first, >, 100);
  /* No overflow: early drops kept the 375 KB buffer from filling. */
  g_assert_cmpuint (octo_qdisc_get_stats (q)->packets_dropped
      [OCTO_DROP_OVERFLOW], ==, 0);
  octo_qdisc_free (q);

  /* Same seed, same drops. */
  q = make ("pie:seed=7");
  g_assert_cmpuint (run_pie (q, 1 * MS, 2 * MS, 3000 * MS), ==, first);
  octo_qdisc_free (q);
}

/* Drives PIE through @steps updates, 15 ms apart, with the front packet
 * 45 ms old and at most two packets (3000 bytes, too few for an early drop)
 * behind it when one arrives: the drop probability rises without a drop.
 * Returns the time of the last update. */
static OctoTime
pie_hold_45ms (OctoQdisc *q, guint steps, guint *id)
{
  OctoTime t = 0;

  put (q, packet ((*id)++, 1500), 0);
  for (guint k = 1; k <= steps; k++) {
    t = k * 15 * MS;
    octo_qdisc_peek (q, t);
    if (octo_qdisc_queued_packets (q) == 3)
      take (q, t);
    put (q, packet ((*id)++, 1500), t);
  }
  g_assert_cmpuint (drops->len, ==, 0);
  return t;
}

/* Early drops among 200 arrivals at @t. */
static guint
pie_early_drops_at (OctoQdisc *q, OctoTime t, guint *id)
{
  guint before = drops->len;

  for (guint i = 0; i < 200; i++)
    put (q, packet ((*id)++, 1500), t);
  for (guint i = before; i < drops->len; i++)
    g_assert_cmpint (g_array_index (drops, Drop, i).reason, ==,
        OCTO_DROP_AQM);
  return drops->len - before;
}

/* 70 updates at 45 ms (no burst allowance) raise the drop probability to
 * about 0.085; then one update sees @final_delay with three packets
 * queued.  Returns the early drops among 200 arrivals right after it. */
static guint
pie_drops_after (OctoTime final_delay)
{
  OctoQdisc *q = make ("pie:max_burst=0,seed=3");
  guint id = 1, early;
  OctoTime t = pie_hold_45ms (q, 70, &id);

  t += 15 * MS;
  while (take (q, t - final_delay) != 0);
  for (guint i = 0; i < 3; i++)
    put (q, packet (id++, 1500), t - final_delay);
  octo_qdisc_peek (q, t);
  early = pie_early_drops_at (q, t, &id);
  octo_qdisc_free (q);
  return early;
}

static void
test_pie_caps_each_increase_at_two_percent (void)
{
  OctoQdisc *q = make ("pie:max_burst=0,seed=3");
  guint id = 1;
  /* 80 updates at 45 ms: probability about 0.104. */
  OctoTime t = pie_hold_45ms (q, 80, &id);

  /* No call for 150 ms: the next one runs the ten updates missed, the
   * front then 180 ms old.  Above 0.1 each may add 0.02 at most (RFC 8033
   * §4.2): about 0.30 instead of 0.48 uncapped. */
  t += 150 * MS;
  octo_qdisc_peek (q, t);
  guint early = pie_early_drops_at (q, t, &id);
  /* Seeded, so exact: 71 here, 105 without the cap. */
  g_test_message ("early drops among 200: %u", early);
  g_assert_cmpuint (early, >=, 40);
  g_assert_cmpuint (early, <=, 88);
  octo_qdisc_free (q);
}

static void
test_pie_never_drops_below_half_reference (void)
{
  /* The update at 10 ms (>= qdelay_ref / 2) leaves the probability at about
   * 0.063: early drops go on.  At 5 ms (< 7.5 ms) with the probability
   * below 0.2, RFC 8033 §4.1 forbids them. */
  guint above = pie_drops_after (10 * MS);
  guint below = pie_drops_after (5 * MS);
  g_test_message ("early drops after 10 ms: %u, after 5 ms: %u", above,
      below);
  g_assert_cmpuint (above, >, 0);
  g_assert_cmpuint (below, ==, 0);
}

/* 12-byte prefix, four 100-byte chunks, trailer: 423 bytes. */
static gsize
chunked (guint8 *buf)
{
  guint16 lens[4] = { 100, 100, 100, 100 };
  memset (buf, 0xaa, 12);
  for (guint c = 0; c < 4; c++)
    memset (buf + 12 + 100 * c, c, 100);
  octo_chunks_write_trailer (buf + 412, lens, 4);
  return 412 + octo_chunks_trailer_size (4);
}

static gsize
put_chunked (OctoQdisc *q, guint id, guint8 *buf, OctoTime now,
    guint32 *size)
{
  gsize len = chunked (buf);
  OctoPacket p = tagged (id, len + 28, 3);
  g_assert_true (octo_qdisc_enqueue (q, &p, buf, &len, now));
  g_assert_cmpuint (p.size, ==, len + 28);
  *size = p.size;
  return len;
}

static void
test_quco_trims_by_occupancy (void)
{
  OctoQdisc *q = make ("quco:limit=10000");
  guint8 buf[4][512];
  guint32 size;
  OctoChunks c;

  /* Empty buffer: untouched. */
  g_assert_cmpuint (put_chunked (q, 1, buf[0], 0, &size), ==, 423);
  /* 451 + 4549 = 5000 bytes = 50 %: one chunk goes. */
  put (q, packet (2, 4549), 0);
  g_assert_cmpuint (put_chunked (q, 3, buf[1], 0, &size), ==, 323);
  g_assert_true (octo_chunks_parse (buf[1], 323, &c));
  g_assert_cmpuint (c.n_chunks, ==, 4);
  g_assert_cmpuint (c.trimmed, ==, 1);
  g_assert_cmpuint (c.chunks_offset, ==, 12);
  g_assert_cmpuint (buf[1][12 + 299], ==, 2);
  /* 5351 + 2149 = 7500 = 75 %: two chunks go. */
  put (q, packet (4, 2149), 0);
  g_assert_cmpuint (put_chunked (q, 5, buf[2], 0, &size), ==, 223);
  /* 7751 + 1249 = 9000 = 90 %: every chunk goes, the prefix stays. */
  put (q, packet (6, 1249), 0);
  g_assert_cmpuint (put_chunked (q, 7, buf[3], 0, &size), ==, 23);
  g_assert_true (octo_chunks_parse (buf[3], 23, &c));
  g_assert_cmpuint (c.trimmed, ==, 4);
  g_assert_cmpuint (c.chunks_offset, ==, 12);

  g_assert_cmpuint (drops->len, ==, 3);
  g_assert_cmpint (g_array_index (drops, Drop, 0).reason, ==, OCTO_DROP_TRIM);
  g_assert_cmpuint (g_array_index (drops, Drop, 0).size, ==, 100);
  g_assert_cmpuint (g_array_index (drops, Drop, 2).size, ==, 400);
  const OctoQdiscStats *s = octo_qdisc_get_stats (q);
  g_assert_cmpuint (s->packets_trimmed, ==, 3);
  g_assert_cmpuint (s->chunks_trimmed, ==, 7);
  g_assert_cmpuint (s->bytes_trimmed, ==, 700);
  /* Trimmed packets are still sent: not counted as drops. */
  for (guint r = 0; r < OCTO_DROP_N_REASONS; r++)
    g_assert_cmpuint (s->packets_dropped[r], ==, 0);
  while (take (q, 0) != 0);
  g_assert_cmpuint (s->packets_in, ==, 7);
  g_assert_cmpuint (s->packets_out, ==, 7);
  octo_qdisc_free (q);
}

/* A threshold is a share of the buffer: with a limit that 100 does not
 * divide, 50 % of 1001 bytes is 500.5, so 500 queued bytes trim nothing and
 * 501 trim one chunk. */
static void
test_quco_threshold_is_exact_share_of_buffer (void)
{
  OctoQdisc *q = make ("quco:limit=1001,light=50,medium=100,high=100");
  guint8 buf[2][512];
  guint32 size;

  put (q, packet (1, 500), 0);
  g_assert_cmpuint (put_chunked (q, 2, buf[0], 0, &size), ==, 423);
  while (take (q, 0) != 0);
  put (q, packet (3, 501), 0);
  g_assert_cmpuint (put_chunked (q, 4, buf[1], 0, &size), ==, 323);
  g_assert_cmpuint (octo_qdisc_get_stats (q)->packets_trimmed, ==, 1);
  while (take (q, 0) != 0);
  octo_qdisc_free (q);
}

/* The paper's fairness mechanism: a trimmed packet moves to a higher class,
 * served first; both classes share the buffer. */
static void
check_quco_classes (const gchar *spec, const guint *order)
{
  OctoQdisc *q = make (spec);
  guint8 buf[2][512];
  guint32 size;

  put_chunked (q, 1, buf[0], 0, &size);       /* untrimmed */
  put (q, packet (2, 4549), 0);               /* 5000 bytes: 50 % */
  g_assert_cmpuint (put_chunked (q, 3, buf[1], 0, &size), ==, 323);
  g_assert_cmpuint (octo_qdisc_queued_bytes (q), ==, 5351);
  g_assert_cmpuint (octo_qdisc_queued_packets (q), ==, 3);
  /* 5351 + 4650 > 10000: no room in either class */
  g_assert_false (put (q, packet (4, 4650), 0));
  g_assert_cmpuint (GPOINTER_TO_UINT (octo_qdisc_peek (q, 0)->data), ==,
      order[0]);
  for (guint i = 0; i < 3; i++)
    g_assert_cmpuint (take (q, 0), ==, order[i]);
  g_assert_cmpuint (take (q, 0), ==, 0);
  g_assert_cmpuint (octo_qdisc_queued_bytes (q), ==, 0);
  octo_qdisc_free (q);
}

static void
test_quco_serves_trimmed_packets_first_with_two_classes (void)
{
  const guint fifo[] = { 1, 2, 3 }, classes[] = { 3, 1, 2 };

  check_quco_classes ("quco:limit=10000", fifo);
  g_array_set_size (drops, 0);
  check_quco_classes ("quco:limit=10000,classes=2", classes);
}

static void
test_quco_passes_untagged_and_unchunked (void)
{
  OctoQdisc *q = make ("quco:limit=1000,light=0,medium=0,high=0");
  guint8 buf[512];
  gsize len = chunked (buf);
  OctoPacket p = packet (1, len + 28);

  g_assert_true (octo_qdisc_enqueue (q, &p, buf, &len, 0));
  g_assert_cmpuint (len, ==, 423);
  memset (buf, 0, sizeof buf);
  len = 100;
  p = tagged (2, len + 28, 0);
  g_assert_true (octo_qdisc_enqueue (q, &p, buf, &len, 0));
  g_assert_cmpuint (len, ==, 100);
  g_assert_cmpuint (drops->len, ==, 0);
  octo_qdisc_free (q);
}

static void
test_chunks_reject_inconsistent_trailers (void)
{
  guint8 buf[512];
  OctoChunks c;
  gsize len = chunked (buf);

  g_assert_true (octo_chunks_parse (buf, len, &c));
  /* Chunks longer than the datagram. */
  g_assert_false (octo_chunks_parse (buf + 100, len - 100, &c));
  buf[len - 1] = 'X';
  g_assert_false (octo_chunks_parse (buf, len, &c));
  len = chunked (buf);
  buf[len - 3] = 0x45;          /* 5 trimmed of 4 */
  g_assert_false (octo_chunks_parse (buf, len, &c));
  buf[len - 3] = 0x00;          /* no chunk */
  g_assert_false (octo_chunks_parse (buf, len, &c));
  g_assert_false (octo_chunks_parse (buf, 2, &c));
}

static void
test_octopus_applies_dropper_at_the_front (void)
{
  OctoQdisc *q = make ("octopus:limit=10000");
  OctoPacket old = tagged (1, 1000, 1);
  OctoPacket dropper = tagged (2, 1000, 0);

  dropper.header.drop = 1;
  dropper.header.priority_threshold = 1;
  put (q, old, 0);
  put (q, packet (3, 1000), 0);
  put (q, dropper, 0);
  /* Message 1 (priority 1) is older than a dropper covering priority >= 1. */
  g_assert_cmpuint (take (q, 1 * MS), ==, 3);
  expect_drops ((guint[]) { 1 }, OCTO_DROP_DROPPER, 1);
  g_assert_cmpuint (take (q, 1 * MS), ==, 2);
  g_assert_cmpuint (take (q, 1 * MS), ==, 0);
  g_assert_cmpuint (octo_qdisc_get_stats (q)->packets_dropped
      [OCTO_DROP_DROPPER], ==, 1);
  octo_qdisc_free (q);
}

static void
test_octopus_untagged_is_droptail (void)
{
  OctoQdisc *q = make ("octopus:limit=2000");
  g_assert_true (put (q, packet (1, 1000), 0));
  g_assert_true (put (q, packet (2, 1000), 0));
  g_assert_false (put (q, packet (3, 1000), 0));
  expect_drops ((guint[]) { 3 }, OCTO_DROP_OVERFLOW, 1);
  g_assert_cmpuint (take (q, 0), ==, 1);
  g_assert_cmpuint (take (q, 0), ==, 2);
  octo_qdisc_free (q);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/shim/qdisc/spec-errors-are-clear",
      test_qdisc_spec_errors_are_clear);
  g_test_add_func ("/shim/qdisc/spec-units", test_qdisc_spec_units);
  g_test_add_func ("/shim/qdisc/droptail-drops-arrivals-that-do-not-fit",
      test_droptail_drops_arrivals_that_do_not_fit);
  g_test_add_func ("/shim/qdisc/drophead-evicts-the-oldest",
      test_drophead_evicts_the_oldest);
  g_test_add_func ("/shim/qdisc/bode-bounds-sojourn-but-keeps-last-packets",
      test_bode_bounds_sojourn_but_keeps_last_packets);
  g_test_add_func ("/shim/qdisc/bode-serves-only-below-the-target",
      test_bode_serves_only_below_the_target);
  g_test_add_func ("/shim/qdisc/pdrop-full-buffer-evicts-lower-priority",
      test_pdrop_full_buffer_evicts_lower_priority);
  g_test_add_func ("/shim/qdisc/pdrop-works-on-whole-messages",
      test_pdrop_works_on_whole_messages);
  g_test_add_func ("/shim/qdisc/every-queue-bounds-its-packets",
      test_every_queue_bounds_its_packets);
  g_test_add_func ("/shim/qdisc/codel-decides-again-when-the-packet-leaves-"
      "later", test_codel_decides_again_when_the_packet_leaves_later);
  g_test_add_func ("/shim/qdisc/codel-reentry-resumes-the-drop-rate",
      test_codel_reentry_resumes_the_drop_rate);
  g_test_add_func ("/shim/qdisc/codel-follows-rfc8289-control-law",
      test_codel_follows_rfc8289_control_law);
  g_test_add_func ("/shim/qdisc/codel-peek-then-dequeue-agree",
      test_codel_peek_then_dequeue_agree);
  g_test_add_func ("/shim/qdisc/pie-tolerates-bursts-then-drops-early",
      test_pie_tolerates_bursts_then_drops_early);
  g_test_add_func ("/shim/qdisc/pie-caps-each-increase-at-two-percent",
      test_pie_caps_each_increase_at_two_percent);
  g_test_add_func ("/shim/qdisc/pie-never-drops-below-half-reference",
      test_pie_never_drops_below_half_reference);
  g_test_add_func ("/shim/qdisc/quco-trims-by-occupancy",
      test_quco_trims_by_occupancy);
  g_test_add_func ("/shim/qdisc/quco-threshold-is-exact-share-of-buffer",
      test_quco_threshold_is_exact_share_of_buffer);
  g_test_add_func ("/shim/qdisc/quco-serves-trimmed-first-with-two-classes",
      test_quco_serves_trimmed_packets_first_with_two_classes);
  g_test_add_func ("/shim/qdisc/quco-passes-untagged-and-unchunked",
      test_quco_passes_untagged_and_unchunked);
  g_test_add_func ("/shim/qdisc/chunks-reject-inconsistent-trailers",
      test_chunks_reject_inconsistent_trailers);
  g_test_add_func ("/shim/qdisc/octopus-applies-dropper-at-the-front",
      test_octopus_applies_dropper_at_the_front);
  g_test_add_func ("/shim/qdisc/octopus-untagged-is-droptail",
      test_octopus_untagged_is_droptail);
  return g_test_run ();
}
