/* The multipath send session: whole messages from one send buffer onto
 * several paths, path-down detection and rescheduling, on a virtual clock
 * with scripted ACKs (octo-mp-session.h). */
#include "transport/octo-mp-session.h"

#define MS OCTO_MSECOND
#define T0 (1 * OCTO_SECOND)
#define SIZE 1000               /* 1 ms at 8 Mbit/s */

typedef struct {
  OctoMpSession *s;
  GString *log;                 /* "p<path>:<id> " per packet sent */
  guint fates[OCTO_MP_CLOSED + 1];
  GString *released;            /* "<fate letter><id> " */
} Fixture;

static void
on_release (const OctoPacket *packet, OctoMpFate fate, OctoDropReason reason,
    gpointer user_data)
{
  Fixture *f = user_data;

  (void) reason;
  f->fates[fate]++;
  if (fate != OCTO_MP_ACKED && fate != OCTO_MP_CLOSED)
    g_string_append_printf (f->released, "%c%u ", "DAESC"[fate],
        GPOINTER_TO_UINT (packet->data) - 1);
}

/* @n_paths fixed-rate paths of @mbps each. */
static void
setup_full (Fixture *f, guint n_paths, guint mbps, guint64 buffer_bytes,
    const gchar *scheduler, OctoTime commit_ahead, gboolean in_order,
    gboolean resend)
{
  OctoSendPath *paths[OCTO_SCHED_MAX_PATHS];
  OctoSendPathConfig pc = {.max_rate = (guint64) mbps * 1000000 };
  OctoMpSessionConfig c = {
    .buffer_bytes = buffer_bytes,
    .rules = TRUE,
    .scheduler = scheduler,
    .commit_ahead = commit_ahead,
    .in_order_receiver = in_order,
    .resend = resend,
    .release = on_release,
    .user_data = f,
  };

  memset (f, 0, sizeof (*f));
  for (guint i = 0; i < n_paths; i++)
    paths[i] = octo_send_path_new_for (&pc, OCTO_SENDER_FIXED, SIZE, 1, 0);
  f->log = g_string_new ("");
  f->released = g_string_new ("");
  f->s = octo_mp_session_new (&c, paths, n_paths);
  g_assert_nonnull (f->s);
}

static void
setup_ahead (Fixture *f, guint n_paths, guint mbps, guint64 buffer_bytes,
    const gchar *scheduler, OctoTime commit_ahead)
{
  setup_full (f, n_paths, mbps, buffer_bytes, scheduler, commit_ahead, FALSE,
      FALSE);
}

static void
setup (Fixture *f, guint n_paths, guint mbps, guint64 buffer_bytes,
    const gchar *scheduler)
{
  setup_ahead (f, n_paths, mbps, buffer_bytes, scheduler, 0);
}

static void
teardown (Fixture *f)
{
  octo_mp_session_free (f->s);
  g_string_free (f->log, TRUE);
  g_string_free (f->released, TRUE);
}

/* Message @msg of stream @stream, @n packets with ids @first_id..., resent
 * if lost with @resend. */
static void
enqueue_full (Fixture *f, guint16 stream, guint32 msg, guint n,
    guint first_id, OctoTime capture, gboolean resend, OctoTime now)
{
  for (guint i = 0; i < n; i++) {
    OctoPacket p = {
      .data = GUINT_TO_POINTER (first_id + i + 1),
      .size = SIZE,
      .tagged = TRUE,
      .header = {.stream_id = stream,.msg_id = msg,.first = i == 0,
          .last = i == n - 1},
    };
    octo_mp_session_enqueue (f->s, &p, capture, resend, now);
  }
}

static void
enqueue_stream (Fixture *f, guint16 stream, guint32 msg, guint n,
    guint first_id, OctoTime capture, OctoTime now)
{
  enqueue_full (f, stream, msg, n, first_id, capture, FALSE, now);
}

static void
enqueue (Fixture *f, guint32 msg, guint n, guint first_id, OctoTime capture,
    OctoTime now)
{
  enqueue_stream (f, 0, msg, n, first_id, capture, now);
}

/* Sends what may leave at @now; idle paths idle.  Returns the wake. */
static OctoTime
drain (Fixture *f, OctoTime now)
{
  for (;;) {
    OctoPacket p;
    guint path;
    OctoTime wake;

    switch (octo_mp_session_dequeue (f->s, now, &p, &path, &wake)) {
      case OCTO_SEND_PACKET:
        g_string_append_printf (f->log, "p%u:%u ", path,
            GPOINTER_TO_UINT (p.data) - 1);
        octo_mp_session_on_sent (f->s, path, p.size, now);
        break;
      case OCTO_SEND_EMPTY:
        octo_mp_session_idle (f->s, path, now);
        break;
      case OCTO_SEND_HELD:
        return wake;
    }
  }
}

static void
ack (Fixture *f, guint path, guint32 first, guint32 last, OctoTime now)
{
  OctoAck a = {.n_ranges = 1 };

  a.ranges[0].first = first;
  a.ranges[0].last = last;
  octo_mp_session_on_ack (f->s, path, &a, now);
}

static int
by_string (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(const gchar * const *) a, *(const gchar * const *) b);
}

/* The released packets, in id order. */
static gchar *
released_sorted (Fixture *f)
{
  gchar **tokens = g_strsplit (g_strstrip (f->released->str), " ", -1);
  gchar *joined;

  qsort (tokens, g_strv_length (tokens), sizeof (gchar *),
      by_string);
  joined = g_strjoinv (" ", tokens);
  g_strfreev (tokens);
  return joined;
}

static void
expect_log (Fixture *f, const gchar *expect)
{
  g_assert_cmpstr (f->log->str, ==, expect);
  g_string_truncate (f->log, 0);
}

static void
test_a_message_spreads_over_the_paths_by_cost (void)
{
  Fixture f;

  setup (&f, 2, 8, 100000, "min-cost");
  enqueue (&f, 0, 6, 0, T0, T0);
  g_assert_cmpuint (drain (&f, T0), ==, T0 + 1 * MS);
  expect_log (&f, "p0:0 p1:1 ");
  drain (&f, T0 + 1 * MS);
  expect_log (&f, "p0:2 p1:3 ");
  drain (&f, T0 + 2 * MS);
  expect_log (&f, "p0:4 p1:5 ");
  g_assert_cmpuint (octo_mp_session_bandwidth (f.s), ==, 16000000);
  teardown (&f);
}

/* The buffer keeps what the paths cannot take yet, and its rules act on
 * whole uncommitted messages only: a message that does not fit is
 * discarded whole, a committed one leaves whole. */
static void
test_the_send_buffer_decides_whole_messages (void)
{
  Fixture f;

  setup (&f, 2, 8, 5000, "min-cost");
  enqueue (&f, 0, 4, 0, T0, T0);
  drain (&f, T0);
  expect_log (&f, "p0:0 p1:1 ");
  /* message 0 is committed (ids 2, 3 wait in the pacers); messages 1 and
   * 2 wait in the 5000-byte buffer: 2 does not fit and goes whole; 1 is
   * committed when path 0 has sent 2 (path 1 still holds 3): 10 and 11 go
   * to path 0 (cost 0, then a tie), 12 to path 1 */
  enqueue (&f, 1, 3, 10, T0, T0);
  enqueue (&f, 2, 3, 20, T0, T0);
  {
    gchar *released = released_sorted (&f);

    g_assert_cmpstr (released, ==, "D20 D21 D22");
    g_free (released);
  }
  for (OctoTime t = T0 + 1 * MS; t < T0 + 10 * MS; t += MS)
    drain (&f, t);
  expect_log (&f, "p0:2 p1:3 p0:10 p1:12 p0:11 ");
  g_assert_cmpuint (f.fates[OCTO_MP_DROPPED], ==, 3);
  teardown (&f);
}

/* Message 1 is committed when a pacer is empty (after id 2 left: ids 4
 * and 5 both on path 0), or with 2 ms of commit-ahead at once, together
 * with message 0 (4 on path 0, 5 on path 1). */
static void
test_commit_ahead_commits_while_pacers_drain_soon (void)
{
  Fixture f;

  for (guint ahead = 0; ahead <= 2; ahead += 2) {
    setup_ahead (&f, 2, 8, 100000, "min-cost", ahead * MS);
    enqueue (&f, 0, 4, 0, T0, T0);
    enqueue (&f, 1, 2, 4, T0, T0);
    for (OctoTime t = T0; t <= T0 + 3 * MS; t += MS)
      drain (&f, t);
    expect_log (&f, ahead ? "p0:0 p1:1 p0:2 p1:3 p0:4 p1:5 " :
        "p0:0 p1:1 p0:2 p1:3 p0:4 p0:5 ");
    teardown (&f);
  }
}

/* Path 1 stops answering: after max(3 x 20 ms, 100 ms) of silence it is
 * down, its unACKed packets go out again on path 0 and the buffer's
 * bandwidth is path 0's alone. */
static void
test_a_silent_path_goes_down_and_its_packets_move (void)
{
  Fixture f;
  OctoMpPathStats st;

  setup (&f, 2, 8, 100000, "min-cost");
  enqueue (&f, 0, 2, 0, T0, T0);
  drain (&f, T0);
  expect_log (&f, "p0:0 p1:1 ");
  ack (&f, 0, 0, 0, T0 + 20 * MS);
  ack (&f, 1, 0, 0, T0 + 20 * MS);
  enqueue (&f, 1, 4, 2, T0 + 20 * MS, T0 + 20 * MS);
  drain (&f, T0 + 20 * MS);
  drain (&f, T0 + 21 * MS);
  expect_log (&f, "p0:2 p1:3 p0:4 p1:5 ");
  ack (&f, 0, 1, 2, T0 + 41 * MS);
  g_assert_cmpuint (drain (&f, T0 + 41 * MS), ==, T0 + 120 * MS);
  octo_mp_session_path_stats (f.s, 1, &st);
  g_assert_true (st.up);
  drain (&f, T0 + 120 * MS - 1);
  expect_log (&f, "");
  drain (&f, T0 + 120 * MS);
  drain (&f, T0 + 121 * MS);
  expect_log (&f, "p0:3 p0:5 ");
  octo_mp_session_path_stats (f.s, 1, &st);
  g_assert_false (st.up);
  g_assert_cmpuint (st.downs, ==, 1);
  g_assert_cmpuint (st.packets_rescheduled, ==, 2);
  g_assert_cmpuint (octo_mp_session_bandwidth (f.s), ==, 8000000);
  /* new messages go to path 0 only */
  enqueue (&f, 2, 2, 6, T0 + 130 * MS, T0 + 130 * MS);
  drain (&f, T0 + 130 * MS);
  drain (&f, T0 + 131 * MS);
  expect_log (&f, "p0:6 p0:7 ");
  g_assert_cmpstr (f.released->str, ==, "");
  teardown (&f);
}

/* Messages 1 (one packet), 2 (one, of stream @middle_stream) and 3
 * (@last_packets), after message 0 over both paths, ACKed; the others of
 * stream 0.  The scheduler alternates the paths from message 1 on. */
static void
three_messages (Fixture *f, gboolean in_order, guint16 middle_stream,
    guint last_packets)
{
  setup_full (f, 2, 8, 100000, "min-cost", 0, in_order, FALSE);
  enqueue (f, 0, 2, 0, T0, T0);
  drain (f, T0);
  ack (f, 0, 0, 0, T0 + 20 * MS);
  ack (f, 1, 0, 0, T0 + 20 * MS);
  enqueue (f, 1, 1, 2, T0 + 20 * MS, T0 + 20 * MS);
  enqueue_stream (f, middle_stream, 2, 1, 3, T0 + 20 * MS, T0 + 20 * MS);
  enqueue (f, 3, last_packets, 4, T0 + 20 * MS, T0 + 20 * MS);
  for (OctoTime t = T0 + 20 * MS; t <= T0 + (20 + last_packets) * MS; t += MS)
    drain (f, t);
}

/* Path 1 falls silent holding message 2 (whole) and a packet of message
 * 4; message 3 went whole on path 0.  With an in-order receiver,
 * message 2 would arrive after message 3 and be discarded: it is released
 * instead, and only message 4's packet moves.  A receiver that takes
 * messages in any order gets both moved. */
static void
overtaken_script (gboolean in_order, const gchar *moved,
    const gchar *released, guint rescheduled, guint superseded)
{
  Fixture f;
  OctoMpPathStats ps;
  OctoMpStats st;

  three_messages (&f, in_order, 0, 2);
  enqueue (&f, 4, 2, 6, T0 + 22 * MS, T0 + 22 * MS);
  drain (&f, T0 + 22 * MS);
  drain (&f, T0 + 23 * MS);
  expect_log (&f, "p0:0 p1:1 p0:2 p1:3 p0:4 p0:5 p1:7 p0:6 ");
  ack (&f, 0, 1, 2, T0 + 41 * MS);
  /* path 1 silent since 21 ms: down at 121 ms */
  drain (&f, T0 + 121 * MS);
  drain (&f, T0 + 122 * MS);
  expect_log (&f, moved);
  g_assert_cmpstr (f.released->str, ==, released);
  octo_mp_session_path_stats (f.s, 1, &ps);
  g_assert_false (ps.up);
  g_assert_cmpuint (ps.packets_rescheduled, ==, rescheduled);
  octo_mp_session_get_stats (f.s, &st);
  g_assert_cmpuint (st.packets_superseded, ==, superseded);
  g_assert_cmpuint (f.fates[OCTO_MP_SUPERSEDED], ==, superseded);
  teardown (&f);
}

static void
test_a_message_overtaken_on_a_live_path_is_not_rescheduled (void)
{
  overtaken_script (TRUE, "p0:7 ", "S3 ", 1, 1);
  overtaken_script (FALSE, "p0:3 p0:7 ", "", 2, 0);
}

/* Only a newer message of its own stream supersedes one: path 1 holds
 * message 2 of stream 1 while message 3 of stream 0 went on path 0, so it
 * moves. */
static void
test_another_streams_message_supersedes_nothing (void)
{
  Fixture f;

  three_messages (&f, TRUE, 1, 2);
  expect_log (&f, "p0:0 p1:1 p0:2 p1:3 p0:4 p0:5 ");
  ack (&f, 0, 1, 2, T0 + 41 * MS);
  drain (&f, T0 + 121 * MS);
  drain (&f, T0 + 122 * MS);
  expect_log (&f, "p0:3 ");
  g_assert_cmpstr (f.released->str, ==, "");
  teardown (&f);
}

/* A newer message with a packet of its own on the down path supersedes
 * nothing: path 1 holds message 2 whole and a packet of message 3, whose
 * other packets went on path 0, so both move, message 2 first. */
static void
test_a_newer_message_also_on_the_down_path_supersedes_nothing (void)
{
  Fixture f;
  OctoMpStats st;

  three_messages (&f, TRUE, 0, 3);
  expect_log (&f, "p0:0 p1:1 p0:2 p1:3 p0:4 p1:6 p0:5 ");
  ack (&f, 0, 1, 1, T0 + 41 * MS);
  drain (&f, T0 + 121 * MS);
  drain (&f, T0 + 122 * MS);
  expect_log (&f, "p0:3 p0:6 ");
  g_assert_cmpstr (f.released->str, ==, "");
  octo_mp_session_get_stats (f.s, &st);
  g_assert_cmpuint (st.packets_superseded, ==, 0);
  teardown (&f);
}

/* Packets whose deadline (capture + 500 ms) passed are not moved. */
static void
test_packets_past_their_deadline_are_not_rescheduled (void)
{
  Fixture f;
  OctoMpStats st;

  setup (&f, 2, 8, 100000, "min-cost");
  enqueue (&f, 0, 2, 0, T0, T0);
  drain (&f, T0);
  ack (&f, 0, 0, 0, T0 + 20 * MS);
  ack (&f, 1, 0, 0, T0 + 20 * MS);
  /* captured 400 ms before it was queued: deadline T0 + 120 ms - 1 */
  enqueue (&f, 1, 4, 2, T0 - 381 * MS, T0 + 20 * MS);
  drain (&f, T0 + 20 * MS);
  drain (&f, T0 + 21 * MS);
  ack (&f, 0, 1, 2, T0 + 41 * MS);
  g_string_truncate (f.log, 0);
  drain (&f, T0 + 120 * MS);
  drain (&f, T0 + 121 * MS);
  expect_log (&f, "");
  g_assert_cmpstr (f.released->str, ==, "E3 E5 ");
  octo_mp_session_get_stats (f.s, &st);
  g_assert_cmpuint (st.packets_expired, ==, 2);
  teardown (&f);
}

/* A down path is offered for a probe once per silence limit and is up at
 * its next ACK. */
static void
test_a_down_path_is_probed_and_comes_back (void)
{
  Fixture f;
  OctoMpPathStats st;
  OctoPacket p;
  guint path;
  OctoTime wake;

  setup (&f, 2, 8, 100000, "min-cost");
  enqueue (&f, 0, 2, 0, T0, T0);
  drain (&f, T0);
  ack (&f, 0, 0, 0, T0 + 20 * MS);
  /* path 1 never answered: 1 s (no RTT sample yet) */
  g_assert_cmpuint (drain (&f, T0 + 20 * MS), ==, T0 + 1000 * MS);
  drain (&f, T0 + 1000 * MS);
  octo_mp_session_path_stats (f.s, 1, &st);
  g_assert_false (st.up);
  g_assert_cmpuint (octo_mp_session_bandwidth (f.s), ==, 8000000);
  /* the probe is due 1 s later */
  g_assert_cmpint (octo_mp_session_dequeue (f.s, T0 + 1999 * MS, &p, &path,
          &wake), ==, OCTO_SEND_HELD);
  g_assert_cmpuint (wake, ==, T0 + 2000 * MS);
  g_assert_cmpint (octo_mp_session_dequeue (f.s, T0 + 2000 * MS, &p, &path,
          &wake), ==, OCTO_SEND_EMPTY);
  g_assert_cmpuint (path, ==, 1);
  g_assert_cmpuint (octo_mp_session_on_sent (f.s, 1, SIZE, T0 + 2000 * MS),
      ==, 1);
  ack (&f, 1, 1, 1, T0 + 2030 * MS);
  octo_mp_session_path_stats (f.s, 1, &st);
  g_assert_true (st.up);
  g_assert_cmpuint (octo_mp_session_bandwidth (f.s), ==, 16000000);
  teardown (&f);
}

/* Path 1's one sample (300 ms) makes min-cost pass it over; it still
 * answers, so it never goes down.  One silence limit (3 x 300 ms) after it
 * last sent, while data went to path 0, it is due a probe (declined, a
 * silence limit later again); the probe's
 * sample (10 ms) replaces its sRTT instead of being smoothed into it, and
 * the next message takes it.  Once no data goes elsewhere, no more probes. */
static void
test_a_passed_over_path_is_probed_and_chosen_again (void)
{
  Fixture f;
  OctoPacket p;
  guint path;
  OctoTime wake;
  OctoFlight *flight1;

  setup (&f, 2, 8, 100000, "min-cost");
  flight1 = octo_send_path_flight (octo_mp_session_path (f.s, 1));
  enqueue (&f, 0, 2, 0, T0, T0);
  drain (&f, T0);
  expect_log (&f, "p0:0 p1:1 ");
  ack (&f, 0, 0, 0, T0 + 20 * MS);
  ack (&f, 1, 0, 0, T0 + 300 * MS);
  g_assert_cmpuint (octo_flight_srtt (flight1), ==, 300 * MS);
  enqueue (&f, 1, 1, 2, T0 + 400 * MS, T0 + 400 * MS);
  drain (&f, T0 + 400 * MS);
  expect_log (&f, "p0:2 ");
  ack (&f, 0, 1, 1, T0 + 420 * MS);
  g_assert_false (octo_mp_session_probe_due (f.s, 1, T0 + 899 * MS));
  g_assert_cmpint (octo_mp_session_dequeue (f.s, T0 + 899 * MS, &p, &path,
          &wake), ==, OCTO_SEND_HELD);
  g_assert_cmpuint (wake, ==, T0 + 900 * MS);
  g_assert_true (octo_mp_session_probe_due (f.s, 1, T0 + 900 * MS));
  /* declined (drain idles it): due again one silence limit later */
  g_assert_cmpuint (drain (&f, T0 + 900 * MS), ==, T0 + 1800 * MS);
  g_assert_cmpint (octo_mp_session_dequeue (f.s, T0 + 1800 * MS, &p, &path,
          &wake), ==, OCTO_SEND_EMPTY);
  g_assert_cmpuint (path, ==, 1);
  g_assert_cmpuint (octo_mp_session_on_sent (f.s, 1, SIZE, T0 + 1800 * MS),
      ==, 1);
  ack (&f, 1, 1, 1, T0 + 1810 * MS);
  g_assert_cmpuint (octo_flight_srtt (flight1), ==, 10 * MS);
  /* path 1 sent after the last data: nothing more to measure it for */
  g_assert_cmpint (octo_mp_session_dequeue (f.s, T0 + 2800 * MS, &p, &path,
          &wake), ==, OCTO_SEND_HELD);
  g_assert_cmpuint (wake, ==, OCTO_TIME_NONE);
  g_assert_false (octo_mp_session_probe_due (f.s, 1, T0 + 2800 * MS));
  enqueue (&f, 2, 1, 3, T0 + 2800 * MS, T0 + 2800 * MS);
  drain (&f, T0 + 2800 * MS);
  expect_log (&f, "p1:3 ");
  teardown (&f);
}

/* With every path down nothing is lost: the waiting packets stay until a
 * path is up, then leave on it. */
static void
test_packets_wait_while_no_path_is_up (void)
{
  Fixture f;
  OctoPacket p;
  guint path;
  OctoTime wake;

  setup (&f, 1, 8, 100000, "wrr");
  enqueue (&f, 0, 1, 0, T0, T0);
  drain (&f, T0);
  expect_log (&f, "p0:0 ");
  ack (&f, 0, 0, 0, T0 + 10 * MS);
  enqueue (&f, 1, 3, 1, T0 + 10 * MS, T0 + 10 * MS);
  drain (&f, T0 + 10 * MS);
  /* the pacer's 1 ms of credit lets two leave */
  expect_log (&f, "p0:1 p0:2 ");
  /* silent from 10 ms: down at 110 ms; all three wait */
  drain (&f, T0 + 110 * MS);
  expect_log (&f, "");
  g_assert_cmpuint (octo_mp_session_queued_packets (f.s), ==, 3);
  /* the probe at 210 ms is answered: all three leave */
  g_assert_cmpint (octo_mp_session_dequeue (f.s, T0 + 210 * MS, &p, &path,
          &wake), ==, OCTO_SEND_EMPTY);
  g_assert_cmpuint (octo_mp_session_on_sent (f.s, 0, SIZE, T0 + 210 * MS),
      ==, 3);
  ack (&f, 0, 3, 3, T0 + 215 * MS);
  for (OctoTime t = T0 + 215 * MS; t <= T0 + 218 * MS; t += MS)
    drain (&f, t);
  expect_log (&f, "p0:1 p0:2 p0:3 ");
  g_assert_cmpstr (f.released->str, ==, "");
  teardown (&f);
}

/* Both paths fall silent together: nothing is rescheduled (there is
 * nowhere to go), so no path counts a rescheduled packet, and the four
 * wait where they were. */
static void
test_paths_down_together_count_nothing_rescheduled (void)
{
  Fixture f;
  OctoMpPathStats st;

  setup (&f, 2, 8, 100000, "min-cost");
  enqueue (&f, 0, 2, 0, T0, T0);
  drain (&f, T0);
  ack (&f, 0, 0, 0, T0 + 20 * MS);
  ack (&f, 1, 0, 0, T0 + 20 * MS);
  enqueue (&f, 1, 4, 2, T0 + 20 * MS, T0 + 20 * MS);
  drain (&f, T0 + 20 * MS);
  drain (&f, T0 + 21 * MS);
  expect_log (&f, "p0:0 p1:1 p0:2 p1:3 p0:4 p1:5 ");
  drain (&f, T0 + 120 * MS);
  expect_log (&f, "");
  for (guint i = 0; i < 2; i++) {
    octo_mp_session_path_stats (f.s, i, &st);
    g_assert_false (st.up);
    g_assert_cmpuint (st.packets_rescheduled, ==, 0);
  }
  g_assert_cmpuint (octo_mp_session_queued_packets (f.s), ==, 4);
  g_assert_cmpstr (f.released->str, ==, "");
  teardown (&f);
}

/* Two paths, path 1 the faster (sRTT 20 ms against 21), with lost packets
 * resent; message 0 measured them. */
static void
setup_resend (Fixture *f)
{
  setup_full (f, 2, 8, 100000, "min-cost", 0, FALSE, TRUE);
  enqueue (f, 0, 2, 0, T0, T0);
  drain (f, T0);
  expect_log (f, "p0:0 p1:1 ");
  ack (f, 1, 0, 0, T0 + 20 * MS);
  ack (f, 0, 0, 0, T0 + 21 * MS);
}

/* Key frame 1 (resent if lost) goes over both paths; path 0 loses id 2
 * (its seq 1).  Once three newer packets of path 0 are ACKed its flight
 * declares it lost, and since a packet of message 1 on path 0 was ACKed
 * (its queue did not drop the message), id 2 goes again, on path 1, ahead
 * of what waits there.  Message 2, not a key frame, loses id 21 the same
 * way: it is not resent. */
static void
test_a_lost_key_frame_packet_is_resent_on_the_fastest_path (void)
{
  Fixture f;
  OctoMpStats st;

  setup_resend (&f);
  enqueue_full (&f, 0, 1, 10, 2, T0 + 21 * MS, TRUE, T0 + 21 * MS);
  for (OctoTime t = T0 + 21 * MS; t <= T0 + 26 * MS; t += MS)
    drain (&f, t);
  expect_log (&f, "p0:3 p1:2 p0:5 p1:4 p0:7 p1:6 p0:9 p1:8 p0:11 p1:10 ");
  enqueue (&f, 2, 10, 20, T0 + 41 * MS, T0 + 41 * MS);
  drain (&f, T0 + 41 * MS);
  expect_log (&f, "p0:21 p1:20 p0:23 p1:22 ");
  ack (&f, 1, 1, 5, T0 + 41 * MS);
  ack (&f, 0, 2, 5, T0 + 42 * MS);
  for (OctoTime t = T0 + 42 * MS; t <= T0 + 47 * MS; t += MS)
    drain (&f, t);
  /* id 3 went ahead of ids 24, 26 and 28, which waited on path 1 */
  expect_log (&f, "p0:25 p1:3 p0:27 p1:24 p0:29 p1:26 p1:28 ");
  ack (&f, 1, 6, 11, T0 + 67 * MS);
  ack (&f, 0, 7, 10, T0 + 68 * MS);
  drain (&f, T0 + 68 * MS);
  expect_log (&f, "");
  octo_mp_session_get_stats (f.s, &st);
  g_assert_cmpuint (st.packets_resent, ==, 1);
  teardown (&f);
}

/* Key frame 1 loses both its packets on path 0 (ids 3 and 5): path 0's
 * queue dropped it by its rules, so nothing of it is resent, though the
 * packets after it on path 0 are ACKed.  Key frame 3 (captured 450 ms
 * before it is sent) loses id 31 on path 0 when its deadline has passed:
 * not resent either. */
static void
test_a_key_frame_a_queue_dropped_stays_dropped (void)
{
  Fixture f;
  OctoMpStats st;

  setup_resend (&f);
  enqueue_full (&f, 0, 1, 4, 2, T0 + 21 * MS, TRUE, T0 + 21 * MS);
  enqueue (&f, 2, 10, 10, T0 + 21 * MS, T0 + 21 * MS);
  for (OctoTime t = T0 + 21 * MS; t <= T0 + 30 * MS; t += MS)
    drain (&f, t);
  expect_log (&f, "p0:3 p1:2 p0:5 p1:4 p0:10 p1:11 p0:12 p1:13 p0:14 p1:15 "
      "p0:16 p1:17 p0:18 p1:19 ");
  ack (&f, 1, 1, 7, T0 + 51 * MS);
  ack (&f, 0, 3, 7, T0 + 52 * MS);
  drain (&f, T0 + 52 * MS);
  expect_log (&f, "");
  enqueue_full (&f, 0, 3, 10, 30, T0 - 398 * MS, TRUE, T0 + 52 * MS);
  for (OctoTime t = T0 + 52 * MS; t <= T0 + 57 * MS; t += MS)
    drain (&f, t);
  expect_log (&f, "p0:31 p1:30 p0:33 p1:32 p0:35 p1:34 p0:37 p1:36 p0:39 p1:38 ");
  ack (&f, 1, 8, 12, T0 + 103 * MS);
  ack (&f, 0, 9, 12, T0 + 103 * MS);
  drain (&f, T0 + 103 * MS);
  expect_log (&f, "");
  octo_mp_session_get_stats (f.s, &st);
  g_assert_cmpuint (st.packets_resent, ==, 0);
  teardown (&f);
}

static void
test_an_unknown_scheduler_is_refused (void)
{
  OctoSendPathConfig pc = {.max_rate = 1000000 };
  OctoSendPath *path = octo_send_path_new_for (&pc, OCTO_SENDER_FIXED, SIZE,
      1, 0);
  OctoMpSessionConfig c = {.scheduler = "fastest",.release = on_release };

  g_assert_null (octo_mp_session_new (&c, &path, 1));
  octo_send_path_free (path);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/transport/mp-session/a-message-spreads-over-the-paths-by-cost",
      test_a_message_spreads_over_the_paths_by_cost);
  g_test_add_func ("/transport/mp-session/the-send-buffer-decides-whole-messages",
      test_the_send_buffer_decides_whole_messages);
  g_test_add_func ("/transport/mp-session/commit-ahead-commits-while-pacers-drain-soon",
      test_commit_ahead_commits_while_pacers_drain_soon);
  g_test_add_func ("/transport/mp-session/a-silent-path-goes-down-and-its-packets-move",
      test_a_silent_path_goes_down_and_its_packets_move);
  g_test_add_func ("/transport/mp-session/a-message-overtaken-on-a-live-path-is-not-rescheduled",
      test_a_message_overtaken_on_a_live_path_is_not_rescheduled);
  g_test_add_func ("/transport/mp-session/a-newer-message-also-on-the-down-path-supersedes-nothing",
      test_a_newer_message_also_on_the_down_path_supersedes_nothing);
  g_test_add_func ("/transport/mp-session/another-streams-message-supersedes-nothing",
      test_another_streams_message_supersedes_nothing);
  g_test_add_func ("/transport/mp-session/packets-past-their-deadline-are-not-rescheduled",
      test_packets_past_their_deadline_are_not_rescheduled);
  g_test_add_func ("/transport/mp-session/a-down-path-is-probed-and-comes-back",
      test_a_down_path_is_probed_and_comes_back);
  g_test_add_func
      ("/transport/mp-session/a-passed-over-path-is-probed-and-chosen-again",
      test_a_passed_over_path_is_probed_and_chosen_again);
  g_test_add_func ("/transport/mp-session/paths-down-together-count-nothing",
      test_paths_down_together_count_nothing_rescheduled);
  g_test_add_func ("/transport/mp-session/packets-wait-while-no-path-is-up",
      test_packets_wait_while_no_path_is_up);
  g_test_add_func
      ("/transport/mp-session/a-lost-key-frame-packet-is-resent-on-the-fastest-path",
      test_a_lost_key_frame_packet_is_resent_on_the_fastest_path);
  g_test_add_func
      ("/transport/mp-session/a-key-frame-a-queue-dropped-stays-dropped",
      test_a_key_frame_a_queue_dropped_stays_dropped);
  g_test_add_func ("/transport/mp-session/an-unknown-scheduler-is-refused",
      test_an_unknown_scheduler_is_refused);
  return g_test_run ();
}
