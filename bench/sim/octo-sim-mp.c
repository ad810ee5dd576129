/* octo-sim-mp: multipath topologies (sim-mp.h) from the command line; one
 * JSON object per flow on stdout. */
#include "octo-metrics.h"
#include "sim-mp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static gboolean
parse_link (const gchar *arg, SimMpLink *link)
{
  gdouble mbps, owd_ms, buffer_ms;

  if (sscanf (arg, "%lf,%lf,%lf", &mbps, &owd_ms, &buffer_ms) != 3 ||
      mbps <= 0 || owd_ms < 0 || buffer_ms <= 0)
    return FALSE;
  link->rate_bps = mbps * 1e6;
  link->one_way = owd_ms * OCTO_MSECOND;
  link->buffer_bytes = mbps * 1e6 / 8 * buffer_ms / 1000;
  return TRUE;
}

static gboolean
parse_flow (const gchar *arg, guint n_links, SimMpFlow *flow)
{
  gchar **parts = g_strsplit (arg, ",", -1);
  gboolean ok = g_strv_length (parts) == 5;
  gchar **links = NULL;

  if (ok) {
    links = g_strsplit (parts[0], "+", -1);
    flow->n_paths = g_strv_length (links);
    ok = flow->n_paths >= 1 && flow->n_paths <= SIM_MP_MAX_LINKS;
    for (guint p = 0; ok && p < flow->n_paths; p++) {
      flow->links[p] = atoi (links[p]);
      ok = flow->links[p] < n_links;
    }
  }
  if (ok) {
    if (strcmp (parts[1], "bbr") == 0)
      flow->cc = OCTO_SENDER_BBR;
    else if (strcmp (parts[1], "delay-bbr") == 0)
      flow->cc = OCTO_SENDER_DELAY_BBR;
    else if (strcmp (parts[1], "gcc") == 0)
      flow->gcc = TRUE;
    else
      ok = FALSE;
    flow->scheduler = g_strdup (parts[2]);
    flow->start = g_ascii_strtod (parts[3], NULL) * OCTO_SECOND;
    flow->video_max_bps = g_ascii_strtod (parts[4], NULL) * 1e6;
  }
  g_strfreev (links);
  g_strfreev (parts);
  return ok && !(flow->gcc && flow->n_paths > 1);
}

int
main (int argc, char **argv)
{
  gchar **link_args = NULL, **flow_args = NULL;
  gdouble duration_s = 300, window_from = 0, window_to = 0;
  gint seed = 1;
  gdouble commit_ahead_ms = 0;
  gchar **outage_args = NULL;
  GOptionEntry entries[] = {
    {"link", 0, 0, G_OPTION_ARG_STRING_ARRAY, &link_args,
        "A link (repeat): capacity in Mbit/s, one-way delay in ms, drop-tail "
          "buffer in ms of its rate", "MBPS,OWD_MS,BUFFER_MS"},
    {"flow", 0, 0, G_OPTION_ARG_STRING_ARRAY, &flow_args,
          "A flow (repeat): its links joined by +, bbr, delay-bbr or gcc "
          "(single path), the "
          "scheduler (min-cost, wrr, edcld, sfl, min-rtt), start in s, video "
          "maximum in Mbit/s (0: backlogged)",
        "LINKS,CC,SCHED,START_S,VIDEO_MBPS"},
    {"duration", 0, 0, G_OPTION_ARG_DOUBLE, &duration_s, "Seconds (300)",
        "S"},
    {"window-from", 0, 0, G_OPTION_ARG_DOUBLE, &window_from,
        "Throughput window start, s (0)", "S"},
    {"window-to", 0, 0, G_OPTION_ARG_DOUBLE, &window_to,
        "Throughput window end, s (0: the end)", "S"},
    {"seed", 0, 0, G_OPTION_ARG_INT, &seed, "Controller seeds (1)", "N"},
    {"commit-ahead-ms", 0, 0, G_OPTION_ARG_DOUBLE, &commit_ahead_ms,
          "Commit a message while a path's pacer drains within this (0: "
          "when one is empty)", "MS"},
    {"outage", 0, 0, G_OPTION_ARG_STRING_ARRAY, &outage_args,
          "A link outage (repeat): the link, its start and length in s",
        "LINK,FROM_S,SECONDS"},
    G_OPTION_ENTRY_NULL
  };
  GOptionContext *ctx = g_option_context_new ("- multipath simulator");
  GError *error = NULL;
  SimMpConfig config = { 0 };
  SimMpResult result;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &error)) {
    fprintf (stderr, "octo-sim-mp: %s\n", error->message);
    return 2;
  }
  g_option_context_free (ctx);
  for (guint i = 0; link_args && link_args[i]; i++) {
    if (config.n_links == SIM_MP_MAX_LINKS ||
        !parse_link (link_args[i], &config.links[config.n_links++])) {
      fprintf (stderr, "octo-sim-mp: --link %s: expected MBPS,OWD_MS,"
          "BUFFER_MS (at most %d links)\n", link_args[i], SIM_MP_MAX_LINKS);
      return 2;
    }
  }
  for (guint i = 0; flow_args && flow_args[i]; i++) {
    if (config.n_flows == SIM_MP_MAX_FLOWS ||
        !parse_flow (flow_args[i], config.n_links,
            &config.flows[config.n_flows++])) {
      fprintf (stderr, "octo-sim-mp: --flow %s: expected LINKS,CC,SCHED,"
          "START_S,VIDEO_MBPS with known links (at most %d flows)\n",
          flow_args[i], SIM_MP_MAX_FLOWS);
      return 2;
    }
    if (!octo_sched_new (config.flows[config.n_flows - 1].scheduler)) {
      fprintf (stderr, "octo-sim-mp: --flow %s: unknown scheduler\n",
          flow_args[i]);
      return 2;
    }
  }
  for (guint i = 0; outage_args && outage_args[i]; i++) {
    guint link;
    gdouble from, len;

    if (sscanf (outage_args[i], "%u,%lf,%lf", &link, &from, &len) != 3 ||
        link >= config.n_links || from < 0 || len <= 0) {
      fprintf (stderr, "octo-sim-mp: --outage %s: expected LINK,FROM_S,"
          "SECONDS with a known link\n", outage_args[i]);
      return 2;
    }
    config.links[link].down_from = from * OCTO_SECOND;
    config.links[link].down_until = (from + len) * OCTO_SECOND;
  }
  for (guint f = 0; f < config.n_flows; f++)
    config.flows[f].commit_ahead = commit_ahead_ms * OCTO_MSECOND;
  if (config.n_flows == 0) {
    fprintf (stderr, "octo-sim-mp: give at least one --link and --flow\n");
    return 2;
  }
  config.duration = duration_s * OCTO_SECOND;
  config.seed = seed;
  if (window_to <= 0)
    window_to = duration_s;
  sim_mp_run (&config, window_from * OCTO_SECOND, window_to * OCTO_SECOND,
      &result);

  for (guint f = 0; f < result.n_flows; f++) {
    SimMpFlowResult *r = &result.flows[f];
    guint n = r->frame_delays->len;
    gdouble *ms = g_new (gdouble, MAX (n, 1)), mean = 0, p99 = 0;

    for (guint i = 0; i < n; i++) {
      ms[i] = (gdouble) g_array_index (r->frame_delays, OctoTime, i) /
          OCTO_MSECOND;
      mean += ms[i] / n;
    }
    if (n)
      p99 = octo_percentile (ms, n, 99);
    printf ("{\"flow\": %u, \"packets_sent\": %" G_GUINT64_FORMAT
        ", \"packets_lost\": %" G_GUINT64_FORMAT ", \"packets_delivered\": %"
        G_GUINT64_FORMAT ", \"owd_ms\": %.3f, \"window_mbps\": %.4f"
        ", \"frames\": %" G_GUINT64_FORMAT ", \"frames_complete\": %"
        G_GUINT64_FORMAT ", \"frame_delay_mean_ms\": %.3f"
        ", \"frame_delay_p99_ms\": %.3f, \"rescheduled\": %" G_GUINT64_FORMAT
        ", \"padding_packets\": %" G_GUINT64_FORMAT
        ", \"path_packets\": [", f, r->packets_sent, r->packets_lost, r->packets_delivered,
        r->packets_delivered ? (gdouble) r->owd_sum / r->packets_delivered /
        OCTO_MSECOND : 0, r->window_bytes * 8 / (window_to - window_from) /
        1e6, r->frames, r->frames_complete, mean, p99,
        r->packets_rescheduled, r->padding_packets);
    for (guint p = 0; p < config.flows[f].n_paths; p++)
      printf ("%s%" G_GUINT64_FORMAT, p ? ", " : "", r->path_packets[p]);
    printf ("]}\n");
    g_free (ms);
  }
  sim_mp_result_clear (&result);
  g_strfreev (link_args);
  g_strfreev (flow_args);
  g_strfreev (outage_args);
  return 0;
}
