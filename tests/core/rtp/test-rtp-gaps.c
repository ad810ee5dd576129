/* octo-rtp-gaps.h: exact sequence numbers out for scripted arrivals — a gap
 * of whole dropped messages is closed, a packet lost inside a message or
 * next to an untagged packet is kept, reordering keeps the offset, and the
 * numbers wrap. */
#include "octo-rtp-gaps.h"

typedef struct {
  guint16 seq;
  gboolean tagged;
  guint32 msg_id;
  gboolean first, last;
  guint16 stream;
  guint16 expected_out;
} Arrival;

static void
run (const Arrival *a, guint n, guint64 closed, guint64 kept)
{
  OctoRtpGapCloser c;

  octo_rtp_gap_closer_init (&c);
  for (guint i = 0; i < n; i++) {
    OctoHeader h = { .msg_id = a[i].msg_id, .stream_id = a[i].stream,
      .first = a[i].first, .last = a[i].last };
    guint16 out = octo_rtp_gap_closer_map (&c, a[i].seq,
        a[i].tagged ? &h : NULL);
    g_assert_cmpuint (out, ==, a[i].expected_out);
  }
  g_assert_cmpuint (c.gaps_closed, ==, closed);
  g_assert_cmpuint (c.gaps_kept, ==, kept);
}

/* Message 1 (seq 10-11), messages 2-3 (12-16) dropped by a queue, message 4
 * (17-18), message 5 (19) dropped, message 6 (20): 10..14 out. */
static void
test_dropped_messages_are_closed (void)
{
  static const Arrival a[] = {
    {10, TRUE, 1, TRUE, FALSE, 0, 10},
    {11, TRUE, 1, FALSE, TRUE, 0, 11},
    {17, TRUE, 4, TRUE, FALSE, 0, 12},
    {18, TRUE, 4, FALSE, TRUE, 0, 13},
    {20, TRUE, 6, TRUE, TRUE, 0, 14},
  };
  run (a, G_N_ELEMENTS (a), 2, 0);
}

/* A packet lost inside message 1 (seq 11 of 10-12), one lost between a
 * message's middle and the next message, and gaps next to untagged packets
 * or across streams stay: the receiver must see those losses. */
static void
test_other_gaps_are_kept (void)
{
  static const Arrival a[] = {
    {10, TRUE, 1, TRUE, FALSE, 0, 10},
    {12, TRUE, 1, FALSE, TRUE, 0, 12},       /* 11 lost mid-message */
    {13, TRUE, 2, TRUE, FALSE, 0, 13},
    {15, TRUE, 3, TRUE, TRUE, 0, 15},        /* 2's tail and maybe more */
    {17, FALSE, 0, FALSE, FALSE, 0, 17},     /* untagged after a gap */
    {19, TRUE, 4, TRUE, TRUE, 0, 19},        /* untagged before it */
    {21, TRUE, 5, TRUE, TRUE, 1, 21},        /* another stream */
    {23, TRUE, 5, TRUE, TRUE, 1, 23},        /* not a newer message */
  };
  run (a, G_N_ELEMENTS (a), 0, 6);
}

/* After a closed gap a late packet keeps the offset; a duplicate too; the
 * numbers wrap at 2^16 in and out. */
static void
test_reordering_and_wrap (void)
{
  static const Arrival a[] = {
    {65534, TRUE, 7, TRUE, TRUE, 0, 65534},
    {2, TRUE, 9, TRUE, TRUE, 0, 65535},         /* 65535..1 (msg 8) dropped */
    {3, TRUE, 10, TRUE, FALSE, 0, 0},
    {5, TRUE, 10, FALSE, TRUE, 0, 2},           /* 4 lost mid-message: kept */
    {4, TRUE, 10, FALSE, FALSE, 0, 1},          /* ... and arrives late */
    {5, TRUE, 10, FALSE, TRUE, 0, 2},           /* a duplicate */
    {6, TRUE, 11, TRUE, TRUE, 0, 3},
  };
  run (a, G_N_ELEMENTS (a), 1, 1);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/rtp/gaps/dropped-messages-closed",
      test_dropped_messages_are_closed);
  g_test_add_func ("/rtp/gaps/other-gaps-kept", test_other_gaps_are_kept);
  g_test_add_func ("/rtp/gaps/reordering-and-wrap", test_reordering_and_wrap);
  return g_test_run ();
}
