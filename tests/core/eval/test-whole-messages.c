/* The whole-message tally behind live utilisation (octo-whole-messages.h). */
#include "octo-whole-messages.h"

static OctoHeader
packet_of (guint32 msg_id, gboolean first, gboolean last)
{
  OctoHeader h = { .msg_id = msg_id, .first = first, .last = last };
  return h;
}

static void
test_only_messages_without_a_lost_packet_count (void)
{
  OctoWholeMessages t = OCTO_WHOLE_MESSAGES_INIT;
  OctoHeader a0 = packet_of (1, TRUE, FALSE), a1 = packet_of (1, FALSE, TRUE);
  OctoHeader b0 = packet_of (2, TRUE, FALSE), b1 = packet_of (2, FALSE, FALSE);
  OctoHeader b2 = packet_of (2, FALSE, TRUE), c = packet_of (3, TRUE, TRUE);
  OctoHeader d0 = packet_of (4, TRUE, FALSE), d1 = packet_of (4, FALSE, TRUE);

  /* 1: two packets, both delivered */
  octo_whole_messages_delivered (&t, &a0, 1000);
  octo_whole_messages_delivered (&t, &a1, 400);
  /* 2: its middle packet lost, interleaved with 3 (one packet) */
  octo_whole_messages_delivered (&t, &b0, 1000);
  octo_whole_messages_lost (&t, &b1);
  octo_whole_messages_delivered (&t, &c, 300);
  octo_whole_messages_delivered (&t, &b2, 200);
  /* 4: its first packet lost */
  octo_whole_messages_lost (&t, &d0);
  octo_whole_messages_delivered (&t, &d1, 500);
  g_assert_cmpuint (t.whole_bytes, ==, 1700);
  g_assert_cmpuint (t.whole_messages, ==, 2);
  octo_whole_messages_clear (&t);
}

/* A tally that starts mid-message (its first packet unseen) skips it, and
 * a message whose last packet is lost never counts. */
static void
test_unseen_starts_and_lost_ends_do_not_count (void)
{
  OctoWholeMessages t = OCTO_WHOLE_MESSAGES_INIT;
  OctoHeader tail = packet_of (7, FALSE, TRUE);
  OctoHeader e0 = packet_of (8, TRUE, FALSE), e1 = packet_of (8, FALSE, TRUE);

  octo_whole_messages_delivered (&t, &tail, 900);
  octo_whole_messages_delivered (&t, &e0, 900);
  octo_whole_messages_lost (&t, &e1);
  g_assert_cmpuint (t.whole_bytes, ==, 0);
  g_assert_cmpuint (g_hash_table_size (t.open), ==, 0);
  octo_whole_messages_clear (&t);
}

/* Messages whose last packet never comes do not grow the tally forever. */
static void
test_open_messages_are_bounded (void)
{
  OctoWholeMessages t = OCTO_WHOLE_MESSAGES_INIT;

  for (guint32 i = 0; i < 3 * OCTO_WHOLE_MESSAGES_MAX_OPEN; i++) {
    OctoHeader h = packet_of (i, TRUE, FALSE);
    octo_whole_messages_delivered (&t, &h, 100);
  }
  g_assert_cmpuint (g_hash_table_size (t.open), <=,
      OCTO_WHOLE_MESSAGES_MAX_OPEN);
  octo_whole_messages_clear (&t);
  g_assert_null (t.open);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/whole-messages/only-messages-without-a-lost-packet-count",
      test_only_messages_without_a_lost_packet_count);
  g_test_add_func ("/whole-messages/unseen-starts-and-lost-ends-do-not-count",
      test_unseen_starts_and_lost_ends_do_not_count);
  g_test_add_func ("/whole-messages/open-messages-are-bounded",
      test_open_messages_are_bounded);
  return g_test_run ();
}
