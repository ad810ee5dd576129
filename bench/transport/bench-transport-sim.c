/* Transport measurements on the deterministic simulator (virtual clock):
 * BBR / Delay-BBR bandwidth estimate, link utilisation and queueing on
 * constant-rate links, and pacing accuracy of a fixed-rate sender.
 *
 *   octo-bench-transport-sim [--seconds 30] [--rtt-ms 40]
 *
 * Prints one line per case; the estimate is averaged over every 100 ms
 * after the first 2 s. */
#include "sim-world.h"

#include <stdio.h>

typedef struct {
  guint32 size;
  OctoTime interval;
} Backlog;

static OctoTime
backlog_app (SimWorld *sim, OctoTime now, gpointer user_data)
{
  Backlog *b = user_data;
  OctoHeader h = { 0 };
  OctoMsgInfo info;
  octo_msg_info_init (&info);
  info.capture_time = now;
  sim_world_submit (sim, &h, &info, b->size);
  return now + b->interval;
}

typedef struct {
  GArray *latency;              /* OctoTime */
  guint64 bytes;
} Delivered;

static void
on_message (OctoMessage *msg, gpointer user_data)
{
  Delivered *d = user_data;
  OctoTime l = msg->complete_time - msg->info.capture_time;
  g_array_append_val (d->latency, l);
  d->bytes += msg->len;
  g_free (msg->data);
}

static gint
cmp_time (gconstpointer a, gconstpointer b)
{
  OctoTime x = *(const OctoTime *) a, y = *(const OctoTime *) b;
  return x < y ? -1 : x > y;
}

static void
run_link (guint k, OctoSenderCc cc, guint seconds, OctoTime rtt)
{
  SimWorldConfig c;
  OctoTrace *trace;
  guint64 link = k * 12000000ull;
  /* Offered: twice the link in 10 kB messages, always backlogged. */
  Backlog b = { 10000, 10000ull * 8 * OCTO_SECOND / (2 * link) };
  Delivered d = { g_array_new (FALSE, FALSE, sizeof (OctoTime)), 0 };
  gdouble sum = 0;
  guint n = 0;

  sim_world_config_init (&c);
  c.sender.cc = cc;
  c.down_trace = trace = sim_constant_trace (k);
  c.one_way_delay = rtt / 2;
  SimWorld *sim = sim_world_new (&c, on_message, &d, NULL);
  sim_world_set_app (sim, backlog_app, &b, 0);
  for (OctoTime t = 2 * OCTO_SECOND; t <= seconds * OCTO_SECOND;
      t += 100 * OCTO_MSECOND) {
    sim_world_run_until (sim, t);
    sum += octo_sender_bandwidth (sim_world_sender (sim));
    n++;
  }
  OctoSenderStats st;
  octo_sender_get_stats (sim_world_sender (sim), &st);
  g_array_sort (d.latency, cmp_time);
  OctoTime p50 = g_array_index (d.latency, OctoTime, d.latency->len / 2);
  OctoTime p99 = g_array_index (d.latency, OctoTime, d.latency->len * 99 / 100);
  gdouble mean = sum / n;
  /* Goodput of payload vs. the link's capacity in payload terms. */
  gdouble util = (gdouble) st.session.flight->bytes_acked * 8 /
      ((gdouble) link * seconds);
  printf ("%-9s link %2u Mbit/s rtt %3" G_GUINT64_FORMAT " ms: estimate %.2f "
      "Mbit/s (%+.2f %%), link bytes acked %.1f %% of capacity, message "
      "latency p50 %" G_GUINT64_FORMAT " ms p99 %" G_GUINT64_FORMAT " ms, "
      "send-buffer drops %" G_GUINT64_FORMAT " pkts\n",
      cc == OCTO_SENDER_BBR ? "bbr" : "delay-bbr", k * 12,
      rtt / OCTO_MSECOND, mean / 1e6, 100 * (mean - link) / link, 100 * util,
      p50 / OCTO_MSECOND, p99 / OCTO_MSECOND,
      st.session.buffer->packets_dropped[OCTO_DROP_OVERFLOW]);
  g_array_unref (d.latency);
  sim_world_free (sim);
  octo_trace_free (trace);
}

static void
run_pacing (guint64 rate, guint seconds)
{
  SimWorldConfig c;
  OctoTrace *trace;
  Backlog b = { 20000, 20000ull * 8 * OCTO_SECOND / (2 * rate) };
  SimSendMeter m = SIM_SEND_METER_INIT;
  Delivered d = { g_array_new (FALSE, FALSE, sizeof (OctoTime)), 0 };

  sim_world_config_init (&c);
  c.sender.cc = OCTO_SENDER_FIXED;
  c.sender.max_rate = rate;
  c.down_trace = trace = sim_constant_trace (0);
  SimWorld *sim = sim_world_new (&c, on_message, &d, NULL);
  sim_world_set_app (sim, backlog_app, &b, 0);
  sim_world_set_sent_func (sim, sim_send_meter_sent, &m);
  sim_world_run_until (sim, seconds * OCTO_SECOND);
  gdouble got = sim_send_meter_rate (&m);
  printf ("fixed pacing at %6.1f Mbit/s: sent %.3f Mbit/s (%+.3f %%)\n",
      rate / 1e6, got / 1e6, 100 * (got - rate) / rate);
  g_array_unref (d.latency);
  sim_world_free (sim);
  octo_trace_free (trace);
}

int
main (int argc, char **argv)
{
  gint seconds = 30, rtt_ms = 40;
  GOptionEntry entries[] = {
    {"seconds", 0, 0, G_OPTION_ARG_INT, &seconds, "Simulated seconds", "S"},
    {"rtt-ms", 0, 0, G_OPTION_ARG_INT, &rtt_ms, "Base round-trip time", "MS"},
    G_OPTION_ENTRY_NULL
  };
  GOptionContext *ctx = g_option_context_new ("- transport simulation bench");
  GError *err = NULL;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &err)) {
    g_printerr ("%s\n", err->message);
    return 2;
  }
  g_option_context_free (ctx);
  if (seconds < 3 || rtt_ms < 1) {
    g_printerr ("--seconds must be >= 3 and --rtt-ms >= 1\n");
    return 2;
  }
  for (guint k = 1; k <= 2; k++) {
    run_link (k, OCTO_SENDER_BBR, seconds, rtt_ms * OCTO_MSECOND);
    run_link (k, OCTO_SENDER_DELAY_BBR, seconds, rtt_ms * OCTO_MSECOND);
  }
  run_pacing (1000000, seconds);
  run_pacing (12000000, seconds);
  run_pacing (100000000, seconds);
  return 0;
}
