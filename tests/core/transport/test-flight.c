/* Delivery-rate samples from the flight record on scripted ACKs: with the
 * receiver's arrival times (ACK flag TIMESTAMPS) a stalled up link that
 * bunches the ACKs does not stretch the sample; without them, or across an
 * idle gap, the ACK times set it (draft-cheng-iccrg-delivery-rate-
 * estimation). */
#include "transport/octo-flight.h"

#define MS OCTO_MSECOND
/* The receiver's clock runs 1 s ahead of ours: only its differences count. */
#define RECEIVER_OFFSET (1000 * MS)

static void
ack_range (OctoFlight *f, guint32 first, guint32 last, gboolean stamped,
    OctoTime arrival, OctoTime now, OctoRateSample *rs)
{
  OctoAck ack = { .n_ranges = 1,
    .flags = stamped ? OCTO_ACK_FLAG_TIMESTAMPS : 0,
    .arrival_us = (guint32) ((arrival + RECEIVER_OFFSET) / OCTO_USECOND) };

  ack.ranges[0] = (OctoAckRange) { first, last };
  octo_flight_on_ack (f, &ack, now, rs);
}

/* 100 packets of 1000 bytes, one per ms (8 Mbit/s), 20 ms each way: the
 * first 50 are ACKed one by one, then the up link stalls and one ACK at
 * 400 ms covers the rest.  Returns the sample of that ACK. */
static OctoRateSample
bunched_ack_sample (gboolean stamped)
{
  OctoFlight *f = octo_flight_new ();
  OctoRateSample rs;
  guint acked = 0;

  for (guint i = 0; i < 100; i++) {
    OctoTime now = i * MS;

    /* ACKs of packet k arrive at k + 40 ms, before the send at that ms. */
    while (acked < 50 && acked * MS + 40 * MS <= now) {
      ack_range (f, 0, acked, stamped, acked * MS + 20 * MS,
          acked * MS + 40 * MS, &rs);
      acked++;
    }
    g_assert_cmpuint (octo_flight_on_sent (f, 1000, now), ==, i);
  }
  while (acked < 50) {
    ack_range (f, 0, acked, stamped, acked * MS + 20 * MS,
        acked * MS + 40 * MS, &rs);
    acked++;
  }
  ack_range (f, 0, 99, stamped, 99 * MS + 20 * MS, 400 * MS, &rs);
  g_assert_cmpuint (rs.newly_acked, ==, 50 * 1000);
  g_assert_cmpuint (rs.last_acked_seq, ==, 99);
  octo_flight_free (f);
  return rs;
}

static void
test_flight_arrival_times_set_the_rate_when_acks_bunch (void)
{
  OctoRateSample stamped = bunched_ack_sample (TRUE);
  OctoRateSample unstamped = bunched_ack_sample (FALSE);

  /* Packet 99 was sent when packet 49's ACK (at 89 ms) was the newest:
   * 50 000 bytes arrived from packet 49's arrival (69 ms) to 99's (119
   * ms), the path's 8 Mbit/s. */
  g_assert_cmpuint (stamped.delivered, ==, 50 * 1000);
  g_assert_cmpuint (stamped.interval, ==, 50 * MS);
  g_assert_cmpuint (stamped.delivery_rate, ==, 8000000);
  /* By ACK times the same bytes took 89 -> 400 ms. */
  g_assert_cmpuint (unstamped.interval, ==, 311 * MS);
  g_assert_cmpuint (unstamped.delivery_rate, ==,
      G_GUINT64_CONSTANT (50000) * 8 * OCTO_SECOND / (311 * MS));
}

static void
test_flight_a_send_after_idle_starts_the_interval_at_the_send (void)
{
  OctoFlight *f = octo_flight_new ();
  OctoRateSample rs;

  octo_flight_on_sent (f, 1000, 0);
  ack_range (f, 0, 0, TRUE, 20 * MS, 40 * MS, &rs);
  /* Idle for almost a second: the next sample must not span it, though the
   * receiver's stamps (20 ms, then 1020 ms) do. */
  octo_flight_on_sent (f, 1000, 1000 * MS);
  ack_range (f, 1, 1, TRUE, 1020 * MS, 1040 * MS, &rs);
  g_assert_cmpuint (rs.interval, ==, 40 * MS);
  g_assert_cmpuint (rs.delivery_rate, ==, 1000 * 8 * 25);
  octo_flight_free (f);
}

static void
test_flight_an_older_stamp_falls_back_to_ack_times (void)
{
  OctoFlight *f = octo_flight_new ();
  OctoRateSample rs;

  for (guint i = 0; i < 4; i++)
    octo_flight_on_sent (f, 1000, i * 10 * MS);
  ack_range (f, 0, 0, TRUE, 20 * MS, 40 * MS, &rs);
  octo_flight_on_sent (f, 1000, 40 * MS);
  /* Packet 4's stamp claims it arrived before packet 0 (a receiver clock
   * stepped back): the sample takes the ACK times, 40 -> 90 ms. */
  ack_range (f, 1, 4, TRUE, 10 * MS, 90 * MS, &rs);
  g_assert_cmpuint (rs.interval, ==, 50 * MS);
  g_assert_cmpuint (rs.delivery_rate, ==, 4000 * 8 * 20);
  octo_flight_free (f);
}

/* QUCO: a queue trimmed 400 of packet 1's 1000 bytes; its NACK came
 * before its ACK.  The flight holds and then delivers only the 600 that
 * crossed, so the sample is the rate of the bytes that arrived; a trim
 * that leaves nothing, of a packet never sent, or after the ACK changes
 * nothing. */
static void
test_flight_a_trimmed_packet_delivers_what_was_left (void)
{
  OctoFlight *f = octo_flight_new ();
  OctoRateSample rs;

  for (guint i = 0; i < 3; i++)
    octo_flight_on_sent (f, 1000, i * MS);
  g_assert_true (octo_flight_on_trimmed (f, 1, 400));
  g_assert_cmpuint (octo_flight_inflight (f), ==, 2600);
  g_assert_false (octo_flight_on_trimmed (f, 1, 600));
  g_assert_false (octo_flight_on_trimmed (f, 7, 100));
  ack_range (f, 0, 0, FALSE, 0, 40 * MS, &rs);
  ack_range (f, 0, 2, FALSE, 0, 42 * MS, &rs);
  /* packet 2's sample: 2600 bytes (not 3000) since nothing was
   * delivered, over the 42 ms since then */
  g_assert_cmpuint (rs.newly_acked, ==, 1600);
  g_assert_cmpuint (rs.delivered, ==, 2600);
  g_assert_cmpuint (rs.interval, ==, 42 * MS);
  g_assert_false (octo_flight_on_trimmed (f, 2, 100));
  g_assert_cmpuint (octo_flight_inflight (f), ==, 0);
  g_assert_cmpuint (octo_flight_get_stats (f)->bytes_acked, ==, 2600);
  octo_flight_free (f);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/transport/flight/arrival-times-set-the-rate-when-acks-bunch",
      test_flight_arrival_times_set_the_rate_when_acks_bunch);
  g_test_add_func
      ("/transport/flight/a-send-after-idle-starts-the-interval-at-the-send",
      test_flight_a_send_after_idle_starts_the_interval_at_the_send);
  g_test_add_func ("/transport/flight/an-older-stamp-falls-back-to-ack-times",
      test_flight_an_older_stamp_falls_back_to_ack_times);
  g_test_add_func ("/transport/flight/a-trimmed-packet-delivers-what-was-left",
      test_flight_a_trimmed_packet_delivers_what_was_left);
  return g_test_run ();
}
