/* The real elements on loopback UDP: octopussink -> octopussrc in one
 * process, fed by a real-time source at a given offered rate.
 *
 *   octo-bench-loopback --mode goodput [--rate 1200000000] [--size 65536]
 *   octo-bench-loopback --mode pacing --rate 20000000
 *   octo-bench-loopback --mode estimate --shim build/router-shim/octopus-shim
 *                       --link-mbps 12 [--cc bbr] [--seconds 20]
 *
 * goodput: BBR, offered load above what the path carries; prints payload
 * goodput at the receiver and the process's CPU use.
 * pacing: congestion-control=fixed max-bitrate=RATE with twice RATE offered;
 * prints the sender's and the receiver's link rate against RATE.
 * estimate: through octopus-shim on a constant link (a multiple of 12
 * Mbit/s, 40 ms RTT) with twice its rate offered; prints the mean of the
 * sender's bottleneck estimate sampled every 100 ms against the link rate.
 * All skip the first second (estimate: 3 s) and measure --seconds. */
#include <glib/gstdio.h>
#include <gst/gst.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct {
  guint64 delivered, received, packets, sent;
  gint64 t;
  gdouble cpu;
} Sample;

static guint64
stat_u64 (GstElement *e, const gchar *field)
{
  GstStructure *s;
  guint64 v = 0;
  g_object_get (e, "stats", &s, NULL);
  gst_structure_get_uint64 (s, field, &v);
  gst_structure_free (s);
  return v;
}

static void
sample (GstElement *src, GstElement *sink, Sample *out)
{
  struct rusage ru;
  getrusage (RUSAGE_SELF, &ru);
  out->t = g_get_monotonic_time ();
  out->delivered = stat_u64 (src, "bytes-delivered");
  out->received = stat_u64 (src, "bytes-received");
  out->packets = stat_u64 (src, "packets-received");
  out->sent = stat_u64 (sink, "bytes-sent");
  out->cpu = ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
      (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

/* Starts octopus-shim on a constant link of @k x 12 Mbit/s forwarding to
 * @rx_port; returns the port it listens on. */
static gint
start_shim (const gchar *exe, gint k, gint rx_port, GPid *pid, gchar **trace)
{
  GString *lines = g_string_new (NULL);
  gint fd = g_file_open_tmp ("octo-bench-link-XXXXXX", trace, NULL), out;
  gchar line[512];
  gsize n = 0;

  for (gint i = 0; i < k; i++)
    g_string_append (lines, "1\n");
  close (fd);
  g_file_set_contents (*trace, lines->str, -1, NULL);
  g_string_free (lines, TRUE);
  gchar *forward = g_strdup_printf ("--forward=127.0.0.1:%d", rx_port);
  gchar *down = g_strdup_printf ("--down-trace=%s", *trace);
  const gchar *argv[] = { exe, "--listen=127.0.0.1:0", forward, down,
    "--delay-ms=20", "--queue=droptail", NULL
  };
  if (!g_spawn_async_with_pipes (NULL, (gchar **) argv, NULL,
          G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL, pid, NULL, &out, NULL, NULL))
    return -1;
  while (n < sizeof line - 1 && read (out, line + n, 1) == 1 && line[n] != '\n')
    n++;
  line[n] = '\0';
  close (out);
  g_free (forward);
  g_free (down);
  const gchar *at = strstr (line, "listening on 127.0.0.1:");
  return at ? atoi (at + strlen ("listening on 127.0.0.1:")) : -1;
}

int
main (int argc, char **argv)
{
  gchar *mode = NULL, *cc = NULL, *shim = NULL;
  gint seconds = 5, size = 65536, mtu = 1400, link_mbps = 12;
  gint64 rate = 0;
  GOptionEntry entries[] = {
    {"mode", 0, 0, G_OPTION_ARG_STRING, &mode, "goodput or pacing", "MODE"},
    {"seconds", 0, 0, G_OPTION_ARG_INT, &seconds, "Measured seconds", "S"},
    {"rate", 0, 0, G_OPTION_ARG_INT64, &rate,
        "goodput: offered bits/s; pacing: the pacing rate", "BPS"},
    {"size", 0, 0, G_OPTION_ARG_INT, &size, "Message size in bytes", "B"},
    {"mtu", 0, 0, G_OPTION_ARG_INT, &mtu, "Transport MTU", "B"},
    {"cc", 0, 0, G_OPTION_ARG_STRING, &cc, "bbr or delay-bbr", "CC"},
    {"shim", 0, 0, G_OPTION_ARG_FILENAME, &shim, "estimate: octopus-shim",
        "BIN"},
    {"link-mbps", 0, 0, G_OPTION_ARG_INT, &link_mbps,
        "estimate: link rate, a multiple of 12", "M"},
    G_OPTION_ENTRY_NULL
  };
  GOptionContext *ctx = g_option_context_new ("- loopback transport bench");
  GError *err = NULL;

  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_add_group (ctx, gst_init_get_option_group ());
  if (!g_option_context_parse (ctx, &argc, &argv, &err)) {
    g_printerr ("%s\n", err->message);
    return 2;
  }
  g_option_context_free (ctx);
  gboolean pacing = g_strcmp0 (mode, "pacing") == 0;
  gboolean estimate = g_strcmp0 (mode, "estimate") == 0;
  if (!pacing && !estimate &&
      g_strcmp0 (mode ? mode : "goodput", "goodput") != 0) {
    g_printerr ("--mode must be goodput, pacing or estimate\n");
    return 2;
  }
  if (estimate && (!shim || link_mbps < 12 || link_mbps % 12)) {
    g_printerr ("--mode estimate needs --shim and --link-mbps 12, 24, ...\n");
    return 2;
  }
  if (rate <= 0)
    rate = pacing ? 20000000 : estimate ? 2000000LL * link_mbps : 1200000000;

  GstElement *rx = gst_parse_launch ("octopussrc name=src port=0 "
      "stats-interval=0 ! fakesink sync=false", &err);
  if (!rx) {
    g_printerr ("receiver: %s (is GST_PLUGIN_PATH set to the plugin build "
        "directory?)\n", err->message);
    return 1;
  }
  GstElement *src = gst_bin_get_by_name (GST_BIN (rx), "src");
  gint port;
  /* A live source binds in READY->PAUSED; PLAYING only completes with data. */
  gst_element_set_state (rx, GST_STATE_PAUSED);
  g_object_get (src, "bound-port", &port, NULL);
  gst_element_set_state (rx, GST_STATE_PLAYING);
  GPid shim_pid = 0;
  gchar *trace = NULL;
  if (estimate) {
    port = start_shim (shim, link_mbps / 12, port, &shim_pid, &trace);
    if (port < 0) {
      g_printerr ("could not start %s\n", shim);
      return 1;
    }
  }

  /* The source offers in real time: fakesrc stamps buffers at the offered
   * rate in a time segment and waits for each one's clock time. */
  guint64 offered = pacing ? 2 * (guint64) rate : (guint64) rate;
  gchar *cc_opts = pacing ?
      g_strdup_printf ("congestion-control=fixed max-bitrate=%" G_GINT64_FORMAT,
      rate) : g_strdup_printf ("congestion-control=%s", cc ? cc : "bbr");
  gchar *desc = g_strdup_printf ("fakesrc sizetype=fixed sizemax=%d "
      "filltype=nothing format=time sync=true datarate=%" G_GUINT64_FORMAT " ! "
      "octopussink name=sink host=127.0.0.1 port=%d mtu=%d stats-interval=0 "
      "buffer-size=4000000 %s", size, offered / 8, port, mtu, cc_opts);
  GstElement *tx = gst_parse_launch (desc, &err);
  g_free (desc);
  g_free (cc_opts);
  if (!tx) {
    g_printerr ("sender: %s\n", err->message);
    return 1;
  }
  GstElement *sink = gst_bin_get_by_name (GST_BIN (tx), "sink");
  gst_element_set_state (tx, GST_STATE_PLAYING);

  if (estimate) {
    gdouble sum = 0, lo = G_MAXDOUBLE, hi = 0;
    guint n = 0;
    /* Past startup and the first drain. */
    g_usleep (3 * G_USEC_PER_SEC);
    for (gint i = 0; i < seconds * 10; i++) {
      gdouble bw = stat_u64 (sink, "bandwidth");
      sum += bw;
      lo = MIN (lo, bw);
      hi = MAX (hi, bw);
      n++;
      g_usleep (G_USEC_PER_SEC / 10);
    }
    gdouble link = link_mbps * 1e6, mean = sum / n;
    printf ("%s estimate on a constant %d Mbit/s link (40 ms RTT): mean %.2f "
        "Mbit/s (%+.2f %%), min %.2f, max %.2f over %d s\n", cc ? cc : "bbr",
        link_mbps, mean / 1e6, 100 * (mean - link) / link, lo / 1e6, hi / 1e6,
        seconds);
    kill (shim_pid, SIGTERM);
    waitpid (shim_pid, NULL, 0);
    g_unlink (trace);
    g_free (trace);
    gst_element_set_state (tx, GST_STATE_NULL);
    gst_element_set_state (rx, GST_STATE_NULL);
    return 0;
  }

  Sample a, b;
  g_usleep (G_USEC_PER_SEC);
  sample (src, sink, &a);
  g_usleep (seconds * G_USEC_PER_SEC);
  sample (src, sink, &b);

  gdouble dt = (b.t - a.t) / 1e6;
  gdouble goodput = (b.delivered - a.delivered) * 8 / dt;
  gdouble rx_link = ((b.received - a.received) + 28.0 * (b.packets -
          a.packets)) * 8 / dt;
  gdouble tx_link = (b.sent - a.sent) * 8 / dt;
  gdouble cpu = (b.cpu - a.cpu) / dt;
  if (pacing)
    printf ("pacing at %.1f Mbit/s (mtu %d): sender %.3f Mbit/s (%+.2f %%), "
        "receiver %.3f Mbit/s (%+.2f %%)\n", rate / 1e6, mtu, tx_link / 1e6,
        100 * (tx_link - rate) / rate, rx_link / 1e6,
        100 * (rx_link - rate) / rate);
  else
    printf ("goodput %.1f Mbit/s of payload (link %.1f Mbit/s), %d-byte "
        "messages, mtu %d, offered %.0f Mbit/s, cpu %.2f cores\n",
        goodput / 1e6, rx_link / 1e6, size, mtu, offered / 1e6, cpu);

  gst_element_set_state (tx, GST_STATE_NULL);
  gst_element_set_state (rx, GST_STATE_NULL);
  gst_object_unref (src);
  gst_object_unref (sink);
  gst_object_unref (tx);
  gst_object_unref (rx);
  g_free (mode);
  g_free (cc);
  g_free (shim);
  return 0;
}
