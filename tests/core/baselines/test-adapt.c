/* The endpoint baselines' controllers on scripted inputs: AWStream's state
 * machine, Salsify's estimate and frame choice, ViVo's harmonic mean and
 * the reliable TCP CUBIC stream. */
#include "baselines/octo-awstream.h"
#include "baselines/octo-salsify.h"
#include "baselines/octo-tcp.h"
#include "baselines/octo-vivo.h"

#define MBPS 1000000
#define FRAME (OCTO_SECOND / 30)

static const guint64 ladder[] = { 1 * MBPS, 2 * MBPS, 4 * MBPS };

static OctoAwstream *
new_awstream (guint initial)
{
  OctoAwstreamConfig config;

  octo_awstream_config_init (&config);
  return octo_awstream_new (&config, ladder, G_N_ELEMENTS (ladder), initial);
}

static void
test_awstream_probes_only_after_two_idle_seconds (void)
{
  OctoAwstream *aw = new_awstream (0);
  OctoTime t = 0;

  /* an empty queue and a large estimate: still no probe before 2 s */
  for (; t < 2 * OCTO_SECOND; t += FRAME) {
    g_assert_cmpuint (octo_awstream_update (aw, t, 0, 10 * MBPS), ==, 0);
    g_assert_cmpint (octo_awstream_state (aw), ==, OCTO_AWSTREAM_STEADY);
    g_assert_cmpuint (octo_awstream_probe_bps (aw), ==, 0);
  }
  g_assert_cmpuint (octo_awstream_update (aw, t, 0, 10 * MBPS), ==, 0);
  g_assert_cmpint (octo_awstream_state (aw), ==, OCTO_AWSTREAM_PROBE);
  /* it probes at the next configuration's extra rate */
  g_assert_cmpuint (octo_awstream_probe_bps (aw), ==, 1 * MBPS);
  /* the probe runs its second, then the app moves up one step */
  octo_awstream_update (aw, t + OCTO_SECOND - 1, 0, 10 * MBPS);
  g_assert_cmpuint (octo_awstream_level (aw), ==, 0);
  g_assert_cmpuint (octo_awstream_update (aw, t + OCTO_SECOND, 0, 10 * MBPS),
      ==, 1);
  g_assert_cmpint (octo_awstream_state (aw), ==, OCTO_AWSTREAM_STEADY);
  /* and waits two more idle seconds before the next probe */
  octo_awstream_update (aw, t + 3 * OCTO_SECOND - 1, 0, 10 * MBPS);
  g_assert_cmpint (octo_awstream_state (aw), ==, OCTO_AWSTREAM_STEADY);
  octo_awstream_update (aw, t + 3 * OCTO_SECOND, 0, 10 * MBPS);
  g_assert_cmpint (octo_awstream_state (aw), ==, OCTO_AWSTREAM_PROBE);
  octo_awstream_free (aw);
}

static void
test_awstream_queue_resets_the_idle_clock (void)
{
  OctoAwstream *aw = new_awstream (0);

  octo_awstream_update (aw, 0, 0, 10 * MBPS);
  /* a few bytes queued (not congestion) at 1.5 s restart the wait */
  octo_awstream_update (aw, 1500 * OCTO_MSECOND, 1000, 10 * MBPS);
  octo_awstream_update (aw, 1600 * OCTO_MSECOND, 0, 10 * MBPS);
  octo_awstream_update (aw, 3500 * OCTO_MSECOND, 0, 10 * MBPS);
  g_assert_cmpint (octo_awstream_state (aw), ==, OCTO_AWSTREAM_STEADY);
  octo_awstream_update (aw, 3600 * OCTO_MSECOND, 0, 10 * MBPS);
  g_assert_cmpint (octo_awstream_state (aw), ==, OCTO_AWSTREAM_PROBE);
  octo_awstream_free (aw);
}

static void
test_awstream_degrades_at_once_to_the_estimate (void)
{
  OctoAwstream *aw = new_awstream (2);

  /* 30 KB is 60 ms at the 4 Mbit/s in use: congestion; 2 Mbit/s fits the
   * 3 Mbit/s estimate */
  g_assert_cmpuint (octo_awstream_update (aw, 0, 30000, 3 * MBPS), ==, 1);
  /* 12 KB is 48 ms at 2 Mbit/s: not congestion, it holds */
  g_assert_cmpuint (octo_awstream_update (aw, FRAME, 12000, 3 * MBPS), ==, 1);
  /* below every rung: the lowest */
  g_assert_cmpuint (octo_awstream_update (aw, 2 * FRAME, 50000, 500000), ==,
      0);
  octo_awstream_free (aw);
}

static void
test_awstream_steps_down_when_the_estimate_misses_the_queue (void)
{
  OctoAwstream *aw = new_awstream (2);

  /* the estimate affords the top rung, yet the queue builds: one down */
  g_assert_cmpuint (octo_awstream_update (aw, 0, 30000, 10 * MBPS), ==, 1);
  /* while that queue drains, only a falling estimate goes further */
  g_assert_cmpuint (octo_awstream_update (aw, FRAME, 30000, 10 * MBPS), ==,
      1);
  g_assert_cmpuint (octo_awstream_update (aw, 2 * FRAME, 30000, 1500000),
      ==, 0);
  /* a new episode after the queue drained steps down again */
  aw = (octo_awstream_free (aw), new_awstream (2));
  octo_awstream_update (aw, 0, 30000, 10 * MBPS);
  octo_awstream_update (aw, FRAME, 1000, 10 * MBPS);
  g_assert_cmpuint (octo_awstream_update (aw, 2 * FRAME, 30000, 10 * MBPS),
      ==, 0);
  octo_awstream_free (aw);
}

static void
test_awstream_failed_probe_does_not_upgrade (void)
{
  OctoAwstream *aw = new_awstream (0);

  octo_awstream_update (aw, 0, 0, 10 * MBPS);
  octo_awstream_update (aw, 2 * OCTO_SECOND, 0, 10 * MBPS);
  g_assert_cmpint (octo_awstream_state (aw), ==, OCTO_AWSTREAM_PROBE);
  /* the probe builds a queue: back to steady at the same level */
  octo_awstream_update (aw, 2500 * OCTO_MSECOND, 4000, 10 * MBPS);
  g_assert_cmpint (octo_awstream_state (aw), ==, OCTO_AWSTREAM_STEADY);
  g_assert_cmpuint (octo_awstream_update (aw, 3 * OCTO_SECOND, 0, 10 * MBPS),
      ==, 0);
  /* a clean probe upgrades even when the estimate lags (an app-limited
   * transport measures only what it was given) */
  octo_awstream_update (aw, 5 * OCTO_SECOND, 0, 1500000);
  g_assert_cmpint (octo_awstream_state (aw), ==, OCTO_AWSTREAM_PROBE);
  g_assert_cmpuint (octo_awstream_update (aw, 6 * OCTO_SECOND, 0, 1500000),
      ==, 1);
  octo_awstream_free (aw);
}

static void
test_salsify_estimator_ignores_the_grace_period (void)
{
  OctoSalsifyEstimator est;

  octo_salsify_estimator_init (&est);
  octo_salsify_estimator_on_arrival (&est, 0, 0);
  g_assert_cmpfloat (est.mean_interval_ns, ==, 0);
  octo_salsify_estimator_on_arrival (&est, 1 * OCTO_MSECOND, 0);
  g_assert_cmpfloat (est.mean_interval_ns, ==, 1e6);
  /* the next frame's first packet: the sender idled 30 ms of the 31 */
  octo_salsify_estimator_on_arrival (&est, 32 * OCTO_MSECOND,
      30 * OCTO_MSECOND);
  g_assert_cmpfloat (est.mean_interval_ns, ==, 1e6);
  /* a 3 ms gap moves the mean by a tenth of the difference */
  octo_salsify_estimator_on_arrival (&est, 35 * OCTO_MSECOND, 0);
  g_assert_cmpfloat_with_epsilon (est.mean_interval_ns, 1.2e6, 1e-3);
}

static void
test_salsify_skips_a_frame_the_link_cannot_absorb (void)
{
  /* one packet per ms and 90 in flight: 10 more packets in 100 ms */
  guint64 budget = octo_salsify_budget (1e6, 90, 1400);
  const guint32 too_big[] = { 20000, 15000 };
  const guint32 one_fits[] = { 20000, 12000 };
  const guint32 both_fit[] = { 9000, 14000 };

  g_assert_cmpuint (budget, ==, 14000);
  g_assert_cmpint (octo_salsify_choose (budget, too_big, 2, FALSE), ==, -1);
  g_assert_cmpint (octo_salsify_choose (budget, one_fits, 2, FALSE), ==, 1);
  g_assert_cmpint (octo_salsify_choose (budget, both_fit, 2, FALSE), ==, 1);
  /* an idle path takes the smallest version even over budget */
  g_assert_cmpint (octo_salsify_choose (budget, too_big, 2, TRUE), ==, 1);
  g_assert_cmpint (octo_salsify_choose (budget, one_fits, 2, TRUE), ==, 1);
  /* more in flight than the target allows: nothing fits */
  g_assert_cmpuint (octo_salsify_budget (1e6, 120, 1400), ==, 0);
  /* before any measurement: 100 ms at 500 kbit/s */
  g_assert_cmpuint (octo_salsify_budget (0, 0, 1400), ==, 6250);
}

static void
test_vivo_harmonic_mean_of_the_last_twenty_frames (void)
{
  OctoVivoEstimator vivo;

  octo_vivo_init (&vivo);
  g_assert_cmpuint (octo_vivo_estimate (&vivo), ==, 0);
  /* 30 frames of 250 KB over 1 s (2 Mbit/s): only the last 20 count */
  for (guint i = 0; i < 30; i++)
    octo_vivo_on_frame (&vivo, 250000, i * OCTO_SECOND,
        (i + 1) * OCTO_SECOND);
  g_assert_cmpuint (octo_vivo_estimate (&vivo), ==, 2 * MBPS);
  /* ten at 8 Mbit/s replace ten at 2: 20 / (10/2 + 10/8) = 3.2 Mbit/s,
   * where the arithmetic mean would say 5 */
  for (guint i = 0; i < 10; i++)
    octo_vivo_on_frame (&vivo, 1000000, 0, OCTO_SECOND);
  g_assert_cmpuint (octo_vivo_estimate (&vivo), ==, 3200000);
  /* ten more at 8: all twenty are 8 */
  for (guint i = 0; i < 10; i++)
    octo_vivo_on_frame (&vivo, 1000000, 0, OCTO_SECOND);
  g_assert_cmpuint (octo_vivo_estimate (&vivo), ==, 8 * MBPS);
}

/* The client asks for a frame while fewer than two of its requests are
 * unanswered; a frame downloaded answers one. */
static void
test_vivo_fetches_at_most_two_frames_ahead (void)
{
  OctoVivoEstimator vivo;

  octo_vivo_init (&vivo);
  g_assert_true (octo_vivo_may_send (&vivo));
  octo_vivo_on_send (&vivo);
  g_assert_true (octo_vivo_may_send (&vivo));
  octo_vivo_on_send (&vivo);
  g_assert_false (octo_vivo_may_send (&vivo));
  octo_vivo_on_frame (&vivo, 1000, 0, OCTO_SECOND);
  g_assert_true (octo_vivo_may_send (&vivo));
  octo_vivo_on_frame (&vivo, 1000, 0, OCTO_SECOND);
  octo_vivo_on_frame (&vivo, 1000, 0, OCTO_SECOND);
  octo_vivo_on_send (&vivo);
  octo_vivo_on_send (&vivo);
  g_assert_false (octo_vivo_may_send (&vivo));
}

/* A scripted path: every segment sent at @t arrives at t + 50 ms and its
 * ACK returns at t + 100 ms, except the transmissions @lose names. */
typedef struct {
  OctoTcpSender *tx;
  OctoTcpReceiver *rx;
  guint64 delivered;
  guint sent;
} Path;

static void
run_rounds (Path *p, guint rounds, gint lose)
{
  OctoTime t = 0;

  for (guint r = 0; r < rounds; r++, t += 100 * OCTO_MSECOND) {
    OctoTcpSegment segs[512];
    OctoTcpAck ack;
    OctoTime wake;
    guint n = 0;

    while (n < G_N_ELEMENTS (segs)
        && octo_tcp_sender_poll (p->tx, t, &segs[n], &wake))
      n++;
    for (guint i = 0; i < n; i++, p->sent++) {
      if ((gint) p->sent == lose)
        continue;
      p->delivered = octo_tcp_receiver_on_segment (p->rx, segs[i].seq,
          segs[i].len, &ack);
      octo_tcp_sender_on_ack (p->tx, &ack, t + 100 * OCTO_MSECOND);
    }
  }
}

static void
test_tcp_slow_start_doubles_the_window_each_round (void)
{
  Path p = { octo_tcp_sender_new (), octo_tcp_receiver_new (), 0, 0 };
  OctoTcpStats st;

  octo_tcp_sender_write (p.tx, 100 * OCTO_TCP_MSS);
  run_rounds (&p, 1, -1);
  octo_tcp_sender_get_stats (p.tx, &st);
  /* ten segments in the first round, all ACKed: the window is 20 */
  g_assert_cmpuint (st.segments_sent, ==, 10);
  g_assert_cmpfloat (st.cwnd, ==, 20);
  run_rounds (&p, 1, -1);
  octo_tcp_sender_get_stats (p.tx, &st);
  g_assert_cmpuint (st.segments_sent, ==, 30);
  g_assert_cmpfloat (st.cwnd, ==, 40);
  g_assert_cmpuint (p.delivered, ==, 30 * OCTO_TCP_MSS);
  octo_tcp_sender_free (p.tx);
  octo_tcp_receiver_free (p.rx);
}

static void
test_tcp_retransmits_a_lost_segment_and_backs_off (void)
{
  Path p = { octo_tcp_sender_new (), octo_tcp_receiver_new (), 0, 0 };
  OctoTcpStats st;

  octo_tcp_sender_write (p.tx, 60 * OCTO_TCP_MSS + 100);
  /* the 5th segment of the second round is lost: three SACKed segments
   * above it mark it lost, once; by then six ACKs of the round grew the
   * window from 20 to 26, and CUBIC cuts it to 0.7x */
  run_rounds (&p, 2, 14);
  octo_tcp_sender_get_stats (p.tx, &st);
  g_assert_cmpuint (st.loss_events, ==, 1);
  g_assert_cmpuint (p.delivered, ==, 14 * OCTO_TCP_MSS);
  g_assert_cmpfloat_with_epsilon (st.cwnd, 0.7 * 26, 1e-9);
  /* the retransmission goes first in the next round; everything arrives
   * in order, the last segment short */
  run_rounds (&p, 4, -1);
  octo_tcp_sender_get_stats (p.tx, &st);
  g_assert_cmpuint (st.segments_retransmitted, ==, 1);
  g_assert_cmpuint (st.segments_sent, ==, 62);
  g_assert_cmpuint (p.delivered, ==, 60 * OCTO_TCP_MSS + 100);
  g_assert_cmpuint (st.unsent_bytes + st.in_flight_bytes, ==, 0);
  octo_tcp_sender_free (p.tx);
  octo_tcp_receiver_free (p.rx);
}

static void
test_tcp_timeout_retransmits_when_no_ack_returns (void)
{
  OctoTcpSender *tx = octo_tcp_sender_new ();
  OctoTcpSegment seg;
  OctoTcpStats st;
  OctoTime wake = 0;
  guint n = 0;

  octo_tcp_sender_write (tx, 3 * OCTO_TCP_MSS);
  while (octo_tcp_sender_poll (tx, 0, &seg, &wake))
    n++;
  g_assert_cmpuint (n, ==, 3);
  /* no RTT sample yet: the initial 1 s timeout */
  g_assert_cmpuint (wake, ==, OCTO_SECOND);
  g_assert_true (octo_tcp_sender_poll (tx, OCTO_SECOND, &seg, &wake));
  g_assert_cmpuint (seg.seq, ==, 0);
  g_assert_true (seg.retransmission);
  octo_tcp_sender_get_stats (tx, &st);
  g_assert_cmpuint (st.timeouts, ==, 1);
  g_assert_cmpfloat (st.cwnd, ==, 1);
  /* one segment of window: the rest waits for an ACK */
  g_assert_false (octo_tcp_sender_poll (tx, OCTO_SECOND, &seg, &wake));
  g_assert_cmpuint (wake, ==, 3 * OCTO_SECOND);
  octo_tcp_sender_free (tx);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/adapt/awstream/probe-after-two-idle-seconds",
      test_awstream_probes_only_after_two_idle_seconds);
  g_test_add_func ("/adapt/awstream/queue-resets-idle-clock",
      test_awstream_queue_resets_the_idle_clock);
  g_test_add_func ("/adapt/awstream/degrade-to-estimate",
      test_awstream_degrades_at_once_to_the_estimate);
  g_test_add_func ("/adapt/awstream/step-down-when-estimate-misses",
      test_awstream_steps_down_when_the_estimate_misses_the_queue);
  g_test_add_func ("/adapt/awstream/failed-probe-stays",
      test_awstream_failed_probe_does_not_upgrade);
  g_test_add_func ("/adapt/salsify/grace-period",
      test_salsify_estimator_ignores_the_grace_period);
  g_test_add_func ("/adapt/salsify/skip-frame",
      test_salsify_skips_a_frame_the_link_cannot_absorb);
  g_test_add_func ("/adapt/vivo/harmonic-mean",
      test_vivo_harmonic_mean_of_the_last_twenty_frames);
  g_test_add_func ("/adapt/vivo/fetch-window",
      test_vivo_fetches_at_most_two_frames_ahead);
  g_test_add_func ("/adapt/tcp/slow-start",
      test_tcp_slow_start_doubles_the_window_each_round);
  g_test_add_func ("/adapt/tcp/retransmit-and-back-off",
      test_tcp_retransmits_a_lost_segment_and_backs_off);
  g_test_add_func ("/adapt/tcp/timeout",
      test_tcp_timeout_retransmits_when_no_ack_returns);
  return g_test_run ();
}
