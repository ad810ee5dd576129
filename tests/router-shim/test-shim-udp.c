/* octopus-shim over real loopback UDP: delivered rate and added delay on a
 * constant-rate trace, ACKs through the up link, and per-user isolation.
 *
 * Real time is unavoidable here, so runs are short, bounded, and compared
 * with generous tolerances that a loaded 2-core machine still meets. */
#include "shim-test-socket.h"
#include "octo-wire.h"

#include <arpa/inet.h>
#include <errno.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MS G_GUINT64_CONSTANT (1000000)
#define SEC G_GUINT64_CONSTANT (1000000000)
#define PAYLOAD 1472            /* 1500-byte IP datagrams */

/* Latency is kernel receive timestamp minus send time, both on the real-
 * time clock, so the test's own scheduling delays do not count. */
static guint64
realtime_ns (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_REALTIME, &ts);
  return (guint64) ts.tv_sec * SEC + (guint64) ts.tv_nsec;
}

static guint64
now_ns (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (guint64) ts.tv_sec * SEC + (guint64) ts.tv_nsec;
}

typedef struct {
  GPid pid;
  gchar *dir;
  gchar *stats;
  guint16 listen_port[2];
  guint16 forward_port[2];      /* the shim's own socket towards the sink */
} Shim;

/* Starts the shim with @extra arguments and one --route per receiver
 * port; waits for its "listening on" lines. */
static void
shim_start (Shim *shim, const gchar *trace_text, const guint16 *sink_ports,
    guint n_users, const gchar *const *extra)
{
  GPtrArray *argv = g_ptr_array_new_with_free_func (g_free);
  GError *error = NULL;
  gint out_fd;
  gchar *trace;

  shim->dir = g_dir_make_tmp ("shim-udp-XXXXXX", &error);
  g_assert_no_error (error);
  trace = g_build_filename (shim->dir, "link.trace", NULL);
  g_file_set_contents (trace, trace_text, -1, &error);
  g_assert_no_error (error);
  shim->stats = g_build_filename (shim->dir, "stats.json", NULL);

  g_ptr_array_add (argv, g_strdup (g_getenv ("OCTOPUS_SHIM")));
  g_ptr_array_add (argv, g_strdup_printf ("--down-trace=%s", trace));
  g_ptr_array_add (argv, g_strdup_printf ("--stats=%s", shim->stats));
  /* Real-time priority where permitted: what the emulator is measured on
   * must not be other processes' CPU use (a warning otherwise). */
  g_ptr_array_add (argv, g_strdup ("--rt-priority=10"));
  for (guint i = 0; i < n_users; i++)
    g_ptr_array_add (argv, g_strdup_printf ("--route=127.0.0.1:0="
            "127.0.0.1:%u", sink_ports[i]));
  for (guint i = 0; extra[i]; i++)
    g_ptr_array_add (argv, g_strdup (extra[i]));
  g_ptr_array_add (argv, NULL);
  g_spawn_async_with_pipes (NULL, (gchar **) argv->pdata, NULL,
      G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL, &shim->pid, NULL, &out_fd, NULL,
      &error);
  g_assert_no_error (error);

  FILE *out = fdopen (out_fd, "r");
  for (guint i = 0; i < n_users; i++) {
    gchar line[256];
    guint user, port, from;
    g_assert_nonnull (fgets (line, sizeof line, out));
    g_assert_cmpint (sscanf (line, "octopus-shim: user %u: listening on "
            "127.0.0.1:%u, forwarding to %*s from 127.0.0.1:%u", &user, &port,
            &from), ==, 3);
    shim->listen_port[user] = port;
    shim->forward_port[user] = from;
  }
  fclose (out);
  g_free (trace);
  g_ptr_array_unref (argv);
}

/* SIGTERM, wait (bounded), and return the stats file's contents. */
static gchar *
shim_stop (Shim *shim)
{
  gchar *stats = NULL;
  int status = -1;

  kill (shim->pid, SIGTERM);
  for (guint i = 0; i < 500; i++) {
    if (waitpid (shim->pid, &status, WNOHANG) == shim->pid)
      break;
    g_usleep (10000);
  }
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
  g_assert_true (g_file_get_contents (shim->stats, &stats, NULL, NULL));
  g_spawn_close_pid (shim->pid);
  g_unlink (shim->stats);
  gchar *trace = g_build_filename (shim->dir, "link.trace", NULL);
  g_unlink (trace);
  g_free (trace);
  g_rmdir (shim->dir);
  g_free (shim->dir);
  g_free (shim->stats);
  return stats;
}

/* "KEY": {... "WHICH": X, with WHICH p50 or p99. */
static gdouble
stats_quantile (const gchar *stats, const gchar *key, const gchar *which)
{
  const gchar *at = strstr (stats, key);
  gchar *field = g_strdup_printf ("\"%s\": ", which);
  gdouble value = -1;

  g_assert_nonnull (at);
  at = strstr (at, field);
  g_assert_nonnull (at);
  value = g_ascii_strtod (at + strlen (field), NULL);
  g_free (field);
  return value;
}

/* The number after "KEY": following the first @anchor; "KEY.packets" reads
 * the packets of a {"packets": N, "bytes": M} member. */
static guint64
stats_number (const gchar *stats, const gchar *anchor, const gchar *key)
{
  const gchar *at = strstr (stats, anchor);
  gchar **path = g_strsplit (key, ".", 2);
  gchar *quoted = path[1] ? g_strdup_printf ("\"%s\": {\"%s\": ", path[0],
      path[1]) : g_strdup_printf ("\"%s\": ", key);
  guint64 value = 0;

  g_assert_nonnull (at);
  at = strstr (at, quoted);
  g_assert_nonnull (at);
  value = g_ascii_strtoull (at + strlen (quoted), NULL, 10);
  g_free (quoted);
  g_strfreev (path);
  return value;
}

typedef struct {
  int fd;                       /* sends; receives the ACKs */
  guint16 dest_port;
  guint64 interval;
  guint64 next;
  guint64 sent, acks;
  guint64 max_lateness;         /* ns a send came after its time */
  gboolean tagged;              /* one-packet Octopus messages, see flow_send */
  guint32 msg_id;
} Flow;

typedef struct {
  int fd;
  guint16 port;
  guint64 received, bytes_in_window;
  guint64 window_start;         /* receive-rate window */
  guint64 first_in_window, last;
  GArray *latency;              /* us, doubles, from window_start on */
} Sink;

static void
flow_send (Flow *f, guint64 now)
{
  guint8 buf[PAYLOAD] = { 0 };
  struct sockaddr_in to = { .sin_family = AF_INET,
    .sin_addr.s_addr = htonl (INADDR_LOOPBACK),
    .sin_port = htons (f->dest_port) };
  guint64 stamp = realtime_ns ();

  (void) now;
  memcpy (buf, &stamp, sizeof stamp);
  if (f->tagged) {
    /* Every 10th message a dropper for all older ones; the rest priority 3
     * and asking for 100 Mbit/s, more than the link ever has. */
    gboolean dropper = f->msg_id % 10 == 0;
    OctoHeader h = { .msg_id = f->msg_id++, .stream_id = 7,
      .priority = dropper ? 0 : 3, .drop = dropper,
      .link_bitrate_threshold_bps = dropper ? 0 : 100000000, .first = 1,
      .last = 1 };
    g_assert_true (octo_header_pack (&h, buf));
  }
  if (sendto (f->fd, buf, sizeof buf, 0, (struct sockaddr *) &to,
          sizeof to) == sizeof buf)
    f->sent++;
}

static void
sink_read (Sink *s, guint64 now)
{
  guint8 buf[2048];
  guint8 control[CMSG_SPACE (sizeof (struct timespec))];
  struct sockaddr_storage from;
  struct iovec iov = { buf, sizeof buf };
  struct msghdr msg = { .msg_name = &from, .msg_namelen = sizeof from,
    .msg_iov = &iov, .msg_iovlen = 1, .msg_control = control,
    .msg_controllen = sizeof control };
  socklen_t len;
  ssize_t n;

  while ((n = recvmsg (s->fd, &msg, 0)) >= 8) {
    struct cmsghdr *c = CMSG_FIRSTHDR (&msg);
    struct timespec ts;
    guint64 sent;

    g_assert_true (c && c->cmsg_type == SCM_TIMESTAMPNS);
    memcpy (&ts, CMSG_DATA (c), sizeof ts);
    memcpy (&sent, buf, sizeof sent);
    gdouble us = ((gdouble) ts.tv_sec * SEC + ts.tv_nsec - (gdouble) sent) /
        1000.0;
    len = msg.msg_namelen;
    s->received++;
    /* Rate and latency samples only after the start-up half second. */
    if (now >= s->window_start) {
      g_array_append_val (s->latency, us);
      if (s->first_in_window == 0)
        s->first_in_window = now;
      else
        s->bytes_in_window += (guint64) n + 28;
      s->last = now;
    }
    /* A small ACK back through the shim's up link. */
    sendto (s->fd, buf, 16, 0, (struct sockaddr *) &from, len);
    msg.msg_namelen = sizeof from;
    msg.msg_controllen = sizeof control;
  }
}

static void
flow_read_acks (Flow *f)
{
  guint8 buf[64];
  while (recv (f->fd, buf, sizeof buf, 0) > 0)
    f->acks++;
}

/* Paces every flow for @duration, then keeps reading for @drain. */
static void
run (Flow *flows, guint n_flows, Sink *sinks, guint n_sinks,
    guint64 duration, guint64 drain)
{
  guint64 start = now_ns ();
  struct pollfd pfd[8];

  for (guint i = 0; i < n_flows; i++)
    flows[i].next = start;
  for (guint i = 0; i < n_sinks; i++)
    sinks[i].window_start = start + SEC / 2;
  for (;;) {
    guint64 now = now_ns ();
    guint64 wake = start + duration + drain;
    if (now >= wake)
      break;
    for (guint i = 0; i < n_flows; i++) {
      while (flows[i].next <= now && now < start + duration) {
        flows[i].max_lateness = MAX (flows[i].max_lateness,
            now - flows[i].next);
        flow_send (&flows[i], now);
        flows[i].next += flows[i].interval;
      }
      if (now < start + duration)
        wake = MIN (wake, flows[i].next);
    }
    guint n = 0;
    for (guint i = 0; i < n_sinks; i++)
      pfd[n++] = (struct pollfd) { .fd = sinks[i].fd, .events = POLLIN };
    for (guint i = 0; i < n_flows; i++)
      pfd[n++] = (struct pollfd) { .fd = flows[i].fd, .events = POLLIN };
    struct timespec ts = { .tv_sec = (wake - now) / SEC,
      .tv_nsec = (wake - now) % SEC };
    ppoll (pfd, n, wake > now ? &ts : &(struct timespec) { 0 }, NULL);
    now = now_ns ();
    for (guint i = 0; i < n_sinks; i++)
      sink_read (&sinks[i], now);
    for (guint i = 0; i < n_flows; i++)
      flow_read_acks (&flows[i]);
  }
}

static gint
compare_doubles (gconstpointer a, gconstpointer b)
{
  gdouble x = *(const gdouble *) a, y = *(const gdouble *) b;
  return x < y ? -1 : x > y;
}

/* In ms, over the samples after the first half second (start-up). */
static gdouble
percentile_ms (GArray *us, gdouble q)
{
  g_assert_cmpuint (us->len, >, 100);
  g_array_sort (us, compare_doubles);
  return g_array_index (us, gdouble, (guint) (q * (us->len - 1))) / 1000.0;
}

static void
flow_init (Flow *f, guint16 dest_port, gdouble mbps)
{
  guint16 port;
  *f = (Flow) { .fd = shim_test_udp_socket (&port, TRUE),
    .dest_port = dest_port,
    .interval = (guint64) (PAYLOAD * 8 * 1e9 / (mbps * 1e6)) };
}

static void
sink_init (Sink *s)
{
  guint16 port;
  int on = 1;
  *s = (Sink) { .fd = shim_test_udp_socket (&port, TRUE),
    .latency = g_array_new (FALSE, FALSE, sizeof (gdouble)) };
  s->port = port;
  setsockopt (s->fd, SOL_SOCKET, SO_TIMESTAMPNS, &on, sizeof on);
}

static void
sink_clear (Sink *s)
{
  close (s->fd);
  g_array_free (s->latency, TRUE);
}

static gdouble
sink_mbps (const Sink *s)
{
  return s->bytes_in_window * 8 * 1e3 / (gdouble) (s->last -
      s->first_in_window);
}

/* Two opportunities per ms: 24 Mbit/s of IP datagrams. */
#define TRACE_24MBPS "1\n1\n"
/* One per ms: 12 Mbit/s. */
#define TRACE_12MBPS "1\n"

/* A run in which the test's sender or the shim fell behind real time by
 * more than these is not a measurement of the shim, so it is repeated, up
 * to CONSTANT_RATE_ATTEMPTS times.  The sender's limit is loose because
 * this VM stalls processes for 10-20 ms even when idle; a longer stall's
 * burst, on a link 83 % loaded, queues for five times the stall (it drains
 * at the 4 Mbit/s left over) and would reach the p99 bound.  The shim's
 * limit is the live runs' load guard (design 8): a run at p99 1.6 ms, with
 * the host stealing CPU, had a p50 of 22.75 ms where quiet runs have
 * 20.6-20.8. */
#define SENDER_LATENESS_LIMIT (25 * MS)
#define SHIM_TIMING_ERROR_LIMIT_MS 1.0
#define CONSTANT_RATE_ATTEMPTS 5

/* Frees one constant-rate run's sink, socket and shim stats. */
static void
constant_rate_run_clear (Sink *sink, Flow *flow, gchar *stats)
{
  g_free (stats);
  close (flow->fd);
  sink_clear (sink);
}

static void
test_loopback_constant_rate_adds_only_the_delay (void)
{
  const gchar *const args[] = { "--delay-ms=20", "--queue=octopus", NULL };
  const gchar *timing = "\"departure_timing_error_ms\"";
  Sink sink;
  Flow flow;
  Shim shim;
  gchar *stats = NULL;
  gdouble timing_p99 = 0;
  gboolean valid = FALSE;

  for (guint attempt = 0; !valid && attempt < CONSTANT_RATE_ATTEMPTS;
      attempt++) {
    if (attempt > 0) {
      g_test_message ("invalid run (sender %.1f ms late, shim departure "
          "timing error p99 %.3f ms): repeated",
          flow.max_lateness / 1e6, timing_p99);
      constant_rate_run_clear (&sink, &flow, stats);
    }
    sink_init (&sink);
    shim_start (&shim, TRACE_24MBPS, &sink.port, 1, args);
    flow_init (&flow, shim.listen_port[0], 20);
    run (&flow, 1, &sink, 1, 3 * SEC, SEC / 5);
    stats = shim_stop (&shim);
    timing_p99 = stats_quantile (stats, timing, "p99");
    valid = flow.max_lateness <= SENDER_LATENESS_LIMIT &&
        timing_p99 <= SHIM_TIMING_ERROR_LIMIT_MS;
  }
  /* A run that fell behind real time is not data (design §8): a host that
   * never gives a valid one leaves nothing to assert. */
  if (!valid) {
    gchar *why = g_strdup_printf ("no valid run in %u attempts (last: sender "
        "%.1f ms late, shim departure timing error p99 %.3f ms): the host "
        "fell behind real time", CONSTANT_RATE_ATTEMPTS,
        flow.max_lateness / 1e6, timing_p99);
    g_test_skip (why);
    g_free (why);
    constant_rate_run_clear (&sink, &flow, stats);
    return;
  }

  gdouble mbps = sink_mbps (&sink);
  gdouble p50 = percentile_ms (sink.latency, 0.5);
  gdouble p99 = percentile_ms (sink.latency, 0.99);
  gdouble timing_p50 = stats_quantile (stats, timing, "p50");
  g_test_message ("offered 20 Mbit/s on 24: delivered %.2f Mbit/s, one-way "
      "delay p50 %.2f ms p99 %.2f ms, departure timing error p50 %.3f ms "
      "p99 %.3f ms, sender at most %.2f ms late, %" G_GUINT64_FORMAT "/%"
      G_GUINT64_FORMAT " ACKs", mbps, p50, p99, timing_p50, timing_p99,
      flow.max_lateness / 1e6, flow.acks, flow.sent);
  /* Below capacity: everything arrives, at the offered rate. */
  g_assert_cmpuint (sink.received, >=, flow.sent * 99 / 100);
  g_assert_cmpfloat (mbps, >, 19.0);
  g_assert_cmpfloat (mbps, <, 21.0);
  /* 20 ms propagation + up to one opportunity of queueing + serialisation.
   * Tails are only bounded loosely: a VM whose host steals its CPU stalls
   * for tens of ms, which no code of ours can prevent. */
  g_assert_cmpfloat (p50, >=, 20.0);
  g_assert_cmpfloat (p50, <, 22.5);
  g_assert_cmpfloat (p99, <, 60.0);
  g_assert_cmpuint (stats_number (stats, timing, "count"), ==, sink.received);
  g_assert_cmpfloat (timing_p50, <, 1.0);
  /* ACKs return through the (unconstrained, delayed) up link. */
  g_assert_cmpuint (flow.acks, >=, sink.received * 95 / 100);
  constant_rate_run_clear (&sink, &flow, stats);
}

static void
test_loopback_overload_delivers_trace_capacity (void)
{
  gchar *dir = g_dir_make_tmp ("shim-log-XXXXXX", NULL);
  gchar *log = g_build_filename (dir, "events.log", NULL);
  gchar *log_arg = g_strdup_printf ("--log=%s", log);
  const gchar *const args[] = { "--delay-ms=5", "--queue=droptail:limit=60KB",
    log_arg, NULL };
  Sink sink;
  Flow flow;
  Shim shim;

  sink_init (&sink);
  shim_start (&shim, TRACE_12MBPS, &sink.port, 1, args);
  flow_init (&flow, shim.listen_port[0], 20);
  run (&flow, 1, &sink, 1, 3 * SEC, 0);
  gchar *stats = shim_stop (&shim);

  gdouble mbps = sink_mbps (&sink);
  gdouble p99 = percentile_ms (sink.latency, 0.99);
  g_test_message ("offered 20 Mbit/s on 12: delivered %.2f Mbit/s, p99 "
      "%.1f ms", mbps, p99);
  g_assert_cmpfloat (mbps, >, 11.4);
  g_assert_cmpfloat (mbps, <, 12.6);
  /* A full 60 KB buffer drains in 40 ms at 12 Mbit/s, plus 5 ms (and
   * room for stalls of a busy host; an unbounded queue would reach s). */
  g_assert_cmpfloat (p99, <, 100.0);
  g_assert_nonnull (strstr (stats, "\"overflow\": {\"packets\": "));
  g_free (stats);

  /* One line per event, Mahimahi-like. */
  gchar *text = NULL;
  g_assert_true (g_file_get_contents (log, &text, NULL, NULL));
  g_assert_true (g_str_has_prefix (text, "# octopus-shim event log"));
  g_assert_true (g_regex_match_simple ("^[0-9]+\\.[0-9]{3} # 1500 down$", text,
          G_REGEX_MULTILINE, 0));
  g_assert_true (g_regex_match_simple ("^[0-9.]+ \\+ 1500 down 0 -@127",
          text, G_REGEX_MULTILINE, 0));
  g_assert_true (g_regex_match_simple ("^[0-9.]+ - 1500 [0-9.]+ down 0 -@",
          text, G_REGEX_MULTILINE, 0));
  g_assert_true (g_regex_match_simple ("^[0-9.]+ d 1500 overflow down 0 -@",
          text, G_REGEX_MULTILINE, 0));
  g_free (text);
  g_unlink (log);
  g_rmdir (dir);
  g_free (log_arg);
  g_free (log);
  g_free (dir);
  close (flow.fd);
  sink_clear (&sink);
}

/* p99 latency of a 4 Mbit/s user, alone or beside a 40 Mbit/s flood, on a
 * shared 24 Mbit/s link; the share of its packets that arrived in
 * @received_share. */
static gdouble
isolated_user_p99 (gboolean flood, gdouble *received_share)
{
  const gchar *const args[] = { "--delay-ms=10", "--queue=droptail", NULL };
  Sink sinks[2];
  Flow flows[2];
  Shim shim;
  guint16 ports[2];

  for (guint i = 0; i < 2; i++) {
    sink_init (&sinks[i]);
    ports[i] = sinks[i].port;
  }
  shim_start (&shim, TRACE_24MBPS, ports, 2, args);
  flow_init (&flows[0], shim.listen_port[0], 4);
  flow_init (&flows[1], shim.listen_port[1], 40);
  run (flows, flood ? 2 : 1, sinks, 2, 3 * SEC, SEC / 5);
  gchar *stats = shim_stop (&shim);

  gdouble p99 = percentile_ms (sinks[0].latency, 0.99);
  *received_share = (gdouble) sinks[0].received / flows[0].sent;
  g_test_message ("%s: user 0 p99 %.2f ms, %" G_GUINT64_FORMAT "/%"
      G_GUINT64_FORMAT " packets (in the shim: queue p99 %.2f ms, departure "
      "timing error p99 %.3f ms); flood delivered %" G_GUINT64_FORMAT
      " packets", flood ? "with flood" : "solo", p99, sinks[0].received,
      flows[0].sent, stats_quantile (stats, "\"queue_delay_ms\"", "p99"),
      stats_quantile (stats, "\"departure_timing_error_ms\"", "p99"),
      sinks[1].received);
  g_free (stats);
  if (flood)
    g_assert_cmpuint (sinks[1].received, >, 1000);
  for (guint i = 0; i < 2; i++) {
    close (flows[i].fd);
    sink_clear (&sinks[i]);
  }
  return p99;
}

/* That the shim gives each user its own queue, over real sockets.  How
 * little the flood adds (nothing, by deficit round robin) is asserted on
 * the link core's fake clock (/shim/link/a-flood-in-its-own-queue-leaves-
 * a-light-user-alone); here the bound only tells one queue per user (10 ms
 * and what a busy host's stalls add) from one shared FIFO (the flood's
 * full 375 KB buffer: 125 ms more), which real time on a loaded 2-core
 * machine cannot blur. */
static void
test_two_users_flood_does_not_hurt_the_other (void)
{
  gdouble solo_share, flooded_share;
  gdouble solo = isolated_user_p99 (FALSE, &solo_share);
  gdouble flooded = isolated_user_p99 (TRUE, &flooded_share);

  g_assert_cmpfloat (solo, <, 60.0);
  g_assert_cmpfloat (flooded, <, 60.0);
  g_assert_cmpfloat (solo_share, >=, 0.99);
  g_assert_cmpfloat (flooded_share, >=, 0.99);
}

static void
test_octopus_queue_applies_the_rules_over_udp (void)
{
  const gchar *const args[] = { "--delay-ms=5", "--queue=octopus", NULL };
  Sink sink;
  Flow flow;
  Shim shim;

  sink_init (&sink);
  shim_start (&shim, TRACE_12MBPS, &sink.port, 1, args);
  flow_init (&flow, shim.listen_port[0], 20);
  flow.tagged = TRUE;
  run (&flow, 1, &sink, 1, 2 * SEC, SEC / 5);
  gchar *stats = shim_stop (&shim);

  const gchar *stream = "\"stream\": 7,";
  guint64 dropper = stats_number (stats, stream, "dropper.packets");
  guint64 bitrate = stats_number (stats, stream, "bitrate.packets");
  g_test_message ("octopus over UDP: %" G_GUINT64_FORMAT " sent, %"
      G_GUINT64_FORMAT " delivered, %" G_GUINT64_FORMAT " dropper and %"
      G_GUINT64_FORMAT " bitrate drops", flow.sent, sink.received, dropper,
      bitrate);
  g_assert_cmpuint (stats_number (stats, "\"parse\": {\"down\"",
          "octopus"), ==, flow.sent);
  /* Overloaded 20 on 12: the rules, not the buffer, shed the excess. */
  g_assert_cmpuint (dropper + bitrate, >, flow.sent / 5);
  g_assert_cmpuint (stats_number (stats, stream, "overflow.packets"), ==, 0);
  /* every message is one packet, dropped or delivered whole: each link
   * byte out counts towards utilisation */
  g_assert_cmpuint (stats_number (stats, stream, "bytes_out"), >, 0);
  g_assert_cmpuint (stats_number (stats, stream, "whole_message_bytes_out"),
      ==, stats_number (stats, stream, "bytes_out"));
  g_free (stats);
  close (flow.fd);
  sink_clear (&sink);
}

/* @n datagrams of @len bytes from @fd to 127.0.0.1:@port, in bursts that
 * the shim's socket buffer absorbs. */
static void
send_datagrams (int fd, guint16 port, guint n, gsize len)
{
  static const guint8 zeros[64];
  struct sockaddr_in to = { .sin_family = AF_INET,
    .sin_addr.s_addr = htonl (INADDR_LOOPBACK), .sin_port = htons (port) };
  const struct timespec pause = { .tv_nsec = 100000 };

  g_assert_cmpuint (len, <=, sizeof zeros);
  for (guint i = 0; i < n; i++) {
    sendto (fd, zeros, len, 0, (struct sockaddr *) &to, sizeof to);
    if (i % 256 == 255)
      ppoll (NULL, 0, &pause, NULL);
  }
}

/* Peak RSS allowed in the flood test; AddressSanitizer's redzones, shadow
 * and quarantine add their own on top. */
#ifdef __SANITIZE_ADDRESS__
#define FLOOD_PEAK_RSS_KB (192 * 1024)
#else
#define FLOOD_PEAK_RSS_KB (64 * 1024)
#endif

/* kB of the process's peak resident memory. */
static guint64
peak_rss_kb (GPid pid)
{
  gchar *path = g_strdup_printf ("/proc/%d/status", (int) pid);
  gchar *text = NULL;
  guint64 kb = 0;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  const gchar *at = strstr (text, "VmHWM:");
  g_assert_nonnull (at);
  kb = g_ascii_strtoull (at + strlen ("VmHWM:"), NULL, 10);
  g_free (text);
  g_free (path);
  return kb;
}

/* Floods both directions with 1-byte datagrams (the worst ratio of memory
 * to the 29 link bytes each is charged), the up one into a delay line with
 * no trace, while a third party aims at the up link too. */
static void
test_memory_follows_the_buffers_under_floods (void)
{
  const gchar *const args[] = { "--delay-ms=3000", "--queue=droptail",
    "--buffer=4MB", NULL };
  const struct timespec settle = { .tv_nsec = 300000000 };
  Sink sink;
  Flow flow;
  Shim shim;
  guint16 port;
  int stranger = shim_test_udp_socket (&port, TRUE);

  sink_init (&sink);
  shim_start (&shim, "1000\n", &sink.port, 1, args);
  flow_init (&flow, shim.listen_port[0], 1);
  /* The sender first, so that replies have somewhere to go. */
  send_datagrams (flow.fd, shim.listen_port[0], 1, 1);
  ppoll (NULL, 0, &settle, NULL);
  send_datagrams (flow.fd, shim.listen_port[0], 200000, 1);
  send_datagrams (sink.fd, shim.forward_port[0], 200000, 1);
  send_datagrams (stranger, shim.forward_port[0], 50000, 1);
  ppoll (NULL, 0, &settle, NULL);
  guint64 peak_kb = peak_rss_kb (shim.pid);
  gchar *stats = shim_stop (&shim);

  const gchar *queues = "\"queues\": {\"down\"";
  guint64 down_in = stats_number (stats, queues, "packets_in");
  guint64 up_in = stats_number (stats, "\"up\": {\"discipline\"",
      "packets_in");
  g_test_message ("peak RSS %" G_GUINT64_FORMAT " kB after %" G_GUINT64_FORMAT
      " datagrams down and %" G_GUINT64_FORMAT " up", peak_kb, down_in,
      up_in);
  /* The floods did reach the queues (the kernel may shed some)... */
  g_assert_cmpuint (down_in, >, 100000);
  g_assert_cmpuint (up_in, >, 100000);
  /* ... but not the stranger's datagrams... */
  g_assert_cmpuint (up_in, <=, 200000);
  /* ... and memory follows 4 MB per queue and 4 MB of propagation, not
   * the 2 KB buffer each datagram was read into (that would be 280 MB
   * for the down queue alone). */
  g_assert_cmpuint (peak_kb, <, FLOOD_PEAK_RSS_KB);
  g_free (stats);
  close (stranger);
  close (flow.fd);
  sink_clear (&sink);
}

static void
test_up_link_takes_only_the_receivers_datagrams (void)
{
  const gchar *const args[] = { "--delay-ms=1", NULL };
  Sink sink;
  Flow flow;
  Shim shim;
  guint16 port;
  int stranger = shim_test_udp_socket (&port, TRUE);

  sink_init (&sink);
  shim_start (&shim, TRACE_12MBPS, &sink.port, 1, args);
  flow_init (&flow, shim.listen_port[0], 1);
  send_datagrams (stranger, shim.forward_port[0], 1000, 16);
  run (&flow, 1, &sink, 1, SEC / 2, SEC / 5);
  send_datagrams (stranger, shim.forward_port[0], 1000, 16);
  gchar *stats = shim_stop (&shim);

  const gchar *up = "\"up\": {\"octopus\"";
  guint64 total = 0;
  const gchar *kinds[] = { "octopus", "truncated", "not_octopus",
    "bad_version", "bad_checksum", "reserved_bit" };
  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    total += stats_number (stats, up, kinds[i]);
  /* Only the receiver's ACKs entered the up link, and all came back. */
  g_assert_cmpuint (sink.received, >, 10);
  g_assert_cmpuint (total, ==, sink.received);
  g_assert_cmpuint (flow.acks, ==, sink.received);
  g_assert_cmpuint (stats_number (stats, "\"user\": 0", "no_sender_drops"),
      ==, 0);
  g_free (stats);
  close (stranger);
  close (flow.fd);
  sink_clear (&sink);
}

static void
test_log_stamps_drops_with_their_decision_time (void)
{
  gchar *dir = g_dir_make_tmp ("shim-log-XXXXXX", NULL);
  gchar *log = g_build_filename (dir, "events.log", NULL);
  gchar *log_arg = g_strdup_printf ("--log=%s", log);
  const gchar *const args[] = { "--delay-ms=0",
    "--queue=bode:target=10ms,min_thr=0", log_arg, NULL };
  Sink sink;
  Flow flow;
  Shim shim;
  gchar *text = NULL;
  guint n_drops = 0;

  sink_init (&sink);
  /* Opportunities at 1 ms, then 1000 ms: packets sent now wait for the
   * second one, which BoDe finds them far too old for. */
  shim_start (&shim, "1\n1000\n", &sink.port, 1, args);
  flow_init (&flow, shim.listen_port[0], 1);
  for (guint i = 0; i < 5; i++)
    flow_send (&flow, 0);
  run (&flow, 0, &sink, 1, 0, 1200 * MS);
  g_free (shim_stop (&shim));

  g_assert_true (g_file_get_contents (log, &text, NULL, NULL));
  gchar **lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++) {
    if (lines[i][0] == '#' || strstr (lines[i], " d ") == NULL)
      continue;
    if (!g_str_has_prefix (lines[i], "1000.000 d 1500 aqm down 0 -@"))
      g_error ("drop not stamped with its opportunity: %s", lines[i]);
    n_drops++;
  }
  /* One may have left at 1 ms if it arrived that early. */
  g_assert_cmpuint (n_drops, >=, 4);
  g_strfreev (lines);
  g_free (text);
  g_unlink (log);
  g_rmdir (dir);
  g_free (log_arg);
  g_free (log);
  g_free (dir);
  close (flow.fd);
  sink_clear (&sink);
}

static gchar *
stats_now (Shim *shim)
{
  gchar *stats = NULL;
  g_unlink (shim->stats);
  kill (shim->pid, SIGUSR1);
  for (guint i = 0; i < 300 && stats == NULL; i++) {
    g_usleep (10000);
    g_file_get_contents (shim->stats, &stats, NULL, NULL);
  }
  g_assert_nonnull (stats);
  return stats;
}

static void
test_garbage_is_counted_not_fatal (void)
{
  const gchar *const args[] = { "--delay-ms=1", "--queue=octopus",
    "--buffer=20KB", NULL };
  static guint8 big[65507];
  Sink sink;
  Flow flow;
  Shim shim;
  struct sockaddr_in to = { .sin_family = AF_INET,
    .sin_addr.s_addr = htonl (INADDR_LOOPBACK) };

  sink_init (&sink);
  shim_start (&shim, TRACE_12MBPS, &sink.port, 1, args);
  flow_init (&flow, shim.listen_port[0], 1);
  to.sin_port = htons (shim.listen_port[0]);
  /* Empty, short, Octopus-marked with a bad checksum, random, maximal. */
  for (guint i = 0; i < 2000; i++) {
    guint8 buf[64];
    gsize len = i % 64;
    for (gsize j = 0; j < len; j++)
      buf[j] = g_random_int () & 0xff;
    if (len > 0 && i % 2)
      buf[0] = 0x09;
    sendto (flow.fd, buf, len, 0, (struct sockaddr *) &to, sizeof to);
  }
  for (guint i = 0; i < 20; i++)
    sendto (flow.fd, big, sizeof big, 0, (struct sockaddr *) &to, sizeof to);
  run (&flow, 1, &sink, 1, SEC / 2, SEC / 2);

  gchar *mid = stats_now (&shim);
  g_assert_nonnull (strstr (mid, "\"uptime_s\""));
  g_free (mid);
  gchar *stats = shim_stop (&shim);
  /* Every datagram classified; the maximal ones overflowed the 20 KB
   * buffer. */
  const gchar *down = "\"parse\": {\"down\"";
  guint64 total = 0;
  const gchar *kinds[] = { "octopus", "truncated", "not_octopus",
    "bad_version", "bad_checksum", "reserved_bit" };
  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    total += stats_number (stats, down, kinds[i]);
  g_assert_cmpuint (total, ==, 2000 + 20 + flow.sent);
  g_assert_cmpuint (stats_number (stats, down, "truncated"), >, 0);
  g_assert_cmpuint (stats_number (stats, down, "not_octopus"), >, 0);
  g_assert_cmpuint (stats_number (stats, "\"queues\": {\"down\"",
          "overflow.packets"), >=, 20);
  g_free (stats);
  close (flow.fd);
  sink_clear (&sink);
}

static void
run_shim_expecting_failure (const gchar *const *args, gint expected_status,
    const gchar *expected_stderr)
{
  GPtrArray *argv = g_ptr_array_new ();
  gchar *err = NULL;
  gint status;
  GError *error = NULL;

  g_ptr_array_add (argv, (gpointer) g_getenv ("OCTOPUS_SHIM"));
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  g_spawn_sync (NULL, (gchar **) argv->pdata, NULL, G_SPAWN_STDOUT_TO_DEV_NULL,
      NULL, NULL, NULL, &err, &status, &error);
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, expected_status);
  if (strstr (err, expected_stderr) == NULL)
    g_error ("stderr lacks '%s': %s", expected_stderr, err);
  g_free (err);
  g_ptr_array_unref (argv);
}

static void
test_bad_flags_and_traces_fail_with_reasons (void)
{
  gchar *dir = g_dir_make_tmp ("shim-cli-XXXXXX", NULL);
  gchar *trace = g_build_filename (dir, "bad.trace", NULL);
  gchar *trace_arg = g_strdup_printf ("--down-trace=%s", trace);
  gchar *where = g_strdup_printf ("%s:3: timestamp 1 is smaller than the "
      "previous one (5)", trace);

  g_file_set_contents (trace, "1\n5\n1\n", -1, NULL);
  run_shim_expecting_failure ((const gchar *const[]) { "--bogus", NULL }, 2,
      "Usage:");
  run_shim_expecting_failure ((const gchar *const[]) {
        "--listen=127.0.0.1:0", "--delay-ms=1", NULL }, 2,
      "--listen and --forward go together");
  run_shim_expecting_failure ((const gchar *const[]) {
        "--route=127.0.0.1:0=127.0.0.1:9", "--delay-ms=1",
        "--queue=codel:taget=1ms", NULL }, 1,
      "codel: unknown argument 'taget' (expected limit, target, interval)");
  run_shim_expecting_failure ((const gchar *const[]) {
        "--route=127.0.0.1:0=127.0.0.1:9", "--delay-ms=1", trace_arg, NULL },
      1, where);
  g_unlink (trace);
  g_rmdir (dir);
  g_free (where);
  g_free (trace_arg);
  g_free (trace);
  g_free (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_assert_nonnull (g_getenv ("OCTOPUS_SHIM"));
  g_test_add_func ("/shim/udp/loopback-constant-rate-adds-only-the-delay",
      test_loopback_constant_rate_adds_only_the_delay);
  g_test_add_func ("/shim/udp/loopback-overload-delivers-trace-capacity",
      test_loopback_overload_delivers_trace_capacity);
  g_test_add_func ("/shim/udp/two-users-flood-does-not-hurt-the-other",
      test_two_users_flood_does_not_hurt_the_other);
  g_test_add_func ("/shim/udp/octopus-queue-applies-the-rules-over-udp",
      test_octopus_queue_applies_the_rules_over_udp);
  g_test_add_func ("/shim/udp/garbage-is-counted-not-fatal",
      test_garbage_is_counted_not_fatal);
  g_test_add_func ("/shim/udp/memory-follows-the-buffers-under-floods",
      test_memory_follows_the_buffers_under_floods);
  g_test_add_func ("/shim/udp/up-link-takes-only-the-receivers-datagrams",
      test_up_link_takes_only_the_receivers_datagrams);
  g_test_add_func ("/shim/udp/log-stamps-drops-with-their-decision-time",
      test_log_stamps_drops_with_their_decision_time);
  g_test_add_func ("/shim/cli/bad-flags-and-traces-fail-with-reasons",
      test_bad_flags_and_traces_fail_with_reasons);
  return g_test_run ();
}
