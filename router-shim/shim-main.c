/* octopus-shim: command line, then the loop. */
#include "shim.h"

#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DEFAULT_QUEUE "octopus"
#define DEFAULT_UP_QUEUE "droptail"
#define DEFAULT_FLIGHT_LIMIT "4MB"
#define DEFAULT_METER_INTERVAL_MS 1000
/* A valid trace has at most OCTO_TRACE_MAX_LINES lines of at most 13 digits
 * and "\r\n": reading stops past that (e.g. --down-trace /dev/zero). */
#define MAX_TRACE_FILE_BYTES ((gsize) OCTO_TRACE_MAX_LINES * 15)

static gchar *opt_listen, *opt_forward, *opt_down_trace, *opt_up_trace;
static gchar **opt_routes;
static gint opt_delay_ms = -1;
static gchar *opt_queue, *opt_up_queue, *opt_buffer, *opt_flight_limit;
static gchar *opt_log, *opt_stats;
static gdouble opt_duration;
static gboolean opt_bare;
static gint opt_rt_priority;
static gint opt_rtp_ext_id;
static gboolean opt_shell;
static gchar **opt_extra_links;
static gboolean opt_meter;
static gint opt_meter_interval_ms = -1;

static const GOptionEntry entries[] = {
  { "listen", 0, 0, G_OPTION_ARG_STRING, &opt_listen,
    "Receive the sender's datagrams on ADDR:PORT (port 0: any free port)",
    "ADDR:PORT" },
  { "forward", 0, 0, G_OPTION_ARG_STRING, &opt_forward,
    "Send them through the down link to ADDR:PORT, from a socket of the "
    "shim's own; what comes back to that socket from ADDR:PORT goes through "
    "the up link to the last sender", "ADDR:PORT" },
  { "route", 0, 0, G_OPTION_ARG_STRING_ARRAY, &opt_routes,
    "Add a user (repeatable): its own queues, sharing the links with the "
    "other users, served deficit round robin by bytes", "LISTEN=FORWARD" },
  { "down-trace", 0, 0, G_OPTION_ARG_FILENAME, &opt_down_trace,
    "Mahimahi trace of the down link: one line per 1500-byte delivery "
    "opportunity, in ms, looped (omitted: unconstrained)", "FILE" },
  { "up-trace", 0, 0, G_OPTION_ARG_FILENAME, &opt_up_trace,
    "Mahimahi trace of the up link (omitted: unconstrained)", "FILE" },
  { "delay-ms", 0, 0, G_OPTION_ARG_INT, &opt_delay_ms,
    "One-way propagation delay of each direction, in ms (required)", "N" },
  { "queue", 0, 0, G_OPTION_ARG_STRING, &opt_queue,
    "Queue discipline of each user's down queue (default " DEFAULT_QUEUE
    "); see the list below", "NAME[:k=v,...]" },
  { "up-queue", 0, 0, G_OPTION_ARG_STRING, &opt_up_queue,
    "Queue discipline of each user's up queue (default " DEFAULT_UP_QUEUE
    ")", "NAME[:k=v,...]" },
  { "buffer", 0, 0, G_OPTION_ARG_STRING, &opt_buffer,
    "Buffer of every queue unless its spec sets limit= (default 375KB)",
    "BYTES" },
  { "flight-limit", 0, 0, G_OPTION_ARG_STRING, &opt_flight_limit,
    "Most bytes a direction without a trace holds in propagation (and one "
    "packet per 64 of them); beyond it packets wait in their queue, whose "
    "limit drops the excess (default " DEFAULT_FLIGHT_LIMIT ")", "BYTES" },
  { "log", 0, 0, G_OPTION_ARG_FILENAME, &opt_log,
    "Write one line per event (Mahimahi-like: arrivals '+', departures '-' "
    "with queueing delay, drops 'd' with reason, opportunities '#')",
    "FILE" },
  { "stats", 0, 0, G_OPTION_ARG_FILENAME, &opt_stats,
    "Write a JSON summary at exit and on SIGUSR1 (per user and stream: "
    "packets/bytes in, out, dropped by reason; queue delay p50/p99; "
    "departure timing error)", "FILE" },
  { "duration", 0, 0, G_OPTION_ARG_DOUBLE, &opt_duration,
    "Exit cleanly after this many seconds (default: run until SIGINT or "
    "SIGTERM)", "SECONDS" },
  { "meter", 0, 0, G_OPTION_ARG_NONE, &opt_meter,
    "Print to stderr, every --meter-interval-ms, one line per user and "
    "direction: the trace's capacity, the rate that left the queue, queue "
    "bytes and packets, queueing delay of the last departure and the "
    "largest, drops by reason since the previous line", NULL },
  { "meter-interval-ms", 0, 0, G_OPTION_ARG_INT, &opt_meter_interval_ms,
    "Interval of the --meter lines, in ms (default "
    G_STRINGIFY (DEFAULT_METER_INTERVAL_MS) "; implies --meter)", "N" },
  { "rt-priority", 0, 0, G_OPTION_ARG_INT, &opt_rt_priority,
    "Run with SCHED_FIFO priority N (1-99; needs CAP_SYS_NICE, else a "
    "warning): keeps departures on time on a busy machine (default: off)",
    "N" },
  { "rtp-ext-id", 0, 0, G_OPTION_ARG_INT, &opt_rtp_ext_id,
    "RTP/SRTP packets whose header extension N (one- or two-byte form) holds "
    "an Octopus header are queued by it, keyed by SSRC (default 0: learn N "
    "per user and direction from the first "
    G_STRINGIFY (OCTO_RTPEXT_LEARN_PACKETS)
    " consecutive packets carrying one)", "N" },
  { "shell", 0, 0, G_OPTION_ARG_NONE, &opt_shell,
    "Run COMMAND (after --) in a new network namespace whose traffic to the "
    "outside crosses the links, as the only user: --down-trace into the "
    "namespace, --up-trace out of it; $OCTOPUS_SHELL_OUTSIDE is the host's "
    "address seen from inside (needs root)", NULL },
  { "extra-link", 0, 0, G_OPTION_ARG_STRING_ARRAY, &opt_extra_links,
    "--shell: one more link side by side (repeatable, up to "
    G_STRINGIFY (SHIM_SHELL_MAX_LINKS) " links in all): its own TUN pair "
    "octoN, traces and delay (default: --delay-ms); the command reaches the "
    "host over it at $OCTOPUS_SHELL_OUTSIDE_N", "down=FILE[,up=FILE]"
    "[,delay-ms=N]" },
  { "bare", 0, 0, G_OPTION_ARG_NONE, &opt_bare,
    "Forward at once with no link, queue, log or per-stream statistics "
    "(the benchmark's baseline)", NULL },
  G_OPTION_ENTRY_NULL
};

static gchar *
queue_help (void)
{
  GString *s = g_string_new ("Queue disciplines (every one also takes "
      "limit=BYTES, and holds at most one packet per 64 of them):\n");
  const OctoQdiscOps *const *ops = octo_qdisc_list ();

  for (guint i = 0; ops[i]; i++)
    g_string_append_printf (s, "  %-9s %s\n            defaults: %s\n",
        octo_qdisc_ops_name (ops[i]), octo_qdisc_ops_summary (ops[i]),
        octo_qdisc_ops_usage (ops[i]));
  g_string_append (s, "\nNon-Octopus datagrams (STUN, DTLS, RTCP, RTP "
      "without the Octopus extension) pass as plain FIFO traffic. "
      "Times take ms/us/s suffixes; sizes B/KB/KiB/MB.\n"
      "Signals: SIGUSR1 writes --stats; SIGINT/SIGTERM write it and exit.");
  return g_string_free (s, FALSE);
}

/* GLib's messages quote with U+201C/U+201D, which a C locale prints as
 * '?': ours quote with ASCII apostrophes, and so do GLib's once printed. */
void
shim_print_error (const gchar *message)
{
  GString *ascii = g_string_new (message);

  g_string_replace (ascii, "\u201c", "'", 0);
  g_string_replace (ascii, "\u201d", "'", 0);
  g_printerr ("octopus-shim: %s\n", ascii->str);
  g_string_free (ascii, TRUE);
}

static int
usage_error (GOptionContext *ctx, const gchar *message)
{
  gchar *help = g_option_context_get_help (ctx, TRUE, NULL);
  shim_print_error (message);
  g_printerr ("\n%s", help);
  g_free (help);
  return 2;
}

static ShimUser *
add_user (Shim *shim, const gchar *listen, const gchar *forward,
    GError **error)
{
  ShimUser *u = g_new0 (ShimUser, 1);

  u->index = shim->users->len;
  u->listen_fd = u->forward_fd = -1;
  g_ptr_array_add (shim->users, u);
  if (!shim_addr_parse (listen, &u->listen_addr, error) ||
      !shim_addr_parse (forward, &u->forward_addr, error))
    return NULL;
  return u;
}

/* A size in the syntax of the queues' limit= (375000, 375KB, 64KiB...). */
static gboolean
parse_size (const gchar *flag, const gchar *text, guint64 *bytes,
    GError **error)
{
  gchar *spec = g_strdup_printf ("droptail:limit=%s", text);
  OctoQdiscEnv env;

  octo_qdisc_env_init (&env);
  OctoQdisc *probe = octo_qdisc_new (spec, &env, error);
  g_free (spec);
  if (probe == NULL) {
    g_prefix_error (error, "%s: ", flag);
    return FALSE;
  }
  *bytes = octo_qdisc_limit_bytes (probe);
  octo_qdisc_free (probe);
  return TRUE;
}

/* --extra-link SPEC into the next link of @shim. */
static gboolean
add_extra_link (Shim *shim, const gchar *spec, GError **error)
{
  ShimLinkPair *lp = &shim->links[shim->n_links];
  gchar **items = g_strsplit (spec, ",", -1);
  gboolean ok = TRUE;

  if (shim->n_links == SHIM_MAX_LINKS) {
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
        "--extra-link: at most %u links", SHIM_MAX_LINKS);
    g_strfreev (items);
    return FALSE;
  }
  lp->delay = shim->links[0].delay;
  for (guint i = 0; ok && items[i]; i++) {
    gchar *value = strchr (items[i], '=');
    gchar *end;

    if (value)
      *value++ = '\0';
    if (value && strcmp (items[i], "down") == 0 && *value) {
      lp->trace_path[SHIM_DOWN] = g_intern_string (value);
    } else if (value && strcmp (items[i], "up") == 0 && *value) {
      lp->trace_path[SHIM_UP] = g_intern_string (value);
    } else if (value && strcmp (items[i], "delay-ms") == 0) {
      gint64 ms = g_ascii_strtoll (value, &end, 10);
      ok = *value && !*end && ms >= 0 && ms <= G_MAXINT;
      lp->delay = (OctoTime) ms * OCTO_MSECOND;
    } else {
      ok = FALSE;
    }
  }
  if (!ok)
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
        "--extra-link '%s' is not down=FILE[,up=FILE][,delay-ms=N]", spec);
  else
    shim->n_links++;
  g_strfreev (items);
  return ok;
}

/* The users of --shell, one per link: their ends are the TUN devices. */
static gboolean
add_shell_users (Shim *shim, GError **error)
{
  if (opt_listen || opt_forward || opt_routes || opt_bare) {
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED,
        "--shell takes no --listen, --forward, --route or --bare");
    return FALSE;
  }
  for (guint i = 0; opt_extra_links && opt_extra_links[i]; i++)
    if (!add_extra_link (shim, opt_extra_links[i], error))
      return FALSE;
  for (guint l = 0; l < shim->n_links; l++) {
    ShimUser *u = g_new0 (ShimUser, 1);

    u->index = l;
    u->link = l;
    u->tun = TRUE;
    u->listen_fd = u->forward_fd = -1;
    g_ptr_array_add (shim->users, u);
  }
  return TRUE;
}

/* Everything wrong with the command line, as a usage error. */
static gboolean
configure (Shim *shim, GError **error)
{
  shim->n_links = 1;
  shim->links[0].trace_path[SHIM_DOWN] = opt_down_trace;
  shim->links[0].trace_path[SHIM_UP] = opt_up_trace;
  shim->links[0].delay = (OctoTime) MAX (opt_delay_ms, 0) * OCTO_MSECOND;
  if (opt_extra_links && !opt_shell) {
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED,
        "--extra-link needs --shell (in relay mode run a shim per link)");
    return FALSE;
  }
  if (opt_shell && !add_shell_users (shim, error))
    return FALSE;
  if (opt_listen || opt_forward) {
    if (!opt_listen || !opt_forward) {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED,
          "--listen and --forward go together");
      return FALSE;
    }
    if (!add_user (shim, opt_listen, opt_forward, error))
      return FALSE;
  }
  for (guint i = 0; opt_routes && opt_routes[i]; i++) {
    gchar **parts = g_strsplit (opt_routes[i], "=", 2);
    gboolean ok = g_strv_length (parts) == 2;
    if (!ok)
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
          "--route '%s' is not LISTEN=FORWARD", opt_routes[i]);
    ok = ok && add_user (shim, parts[0], parts[1], error);
    g_strfreev (parts);
    if (!ok)
      return FALSE;
  }
  if (shim->users->len == 0) {
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED,
        "no user: give --listen and --forward, or --route");
    return FALSE;
  }
  if (opt_delay_ms < 0) {
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED,
        "--delay-ms N (N >= 0) is required");
    return FALSE;
  }
  if (opt_rt_priority < 0 || opt_rt_priority > 99) {
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
        "--rt-priority must be in 1..99");
    return FALSE;
  }
  if (opt_rtp_ext_id < 0 || opt_rtp_ext_id > 255) {
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
        "--rtp-ext-id must be in 1..255 (0: learn it)");
    return FALSE;
  }
  if (opt_meter_interval_ms == 0 || opt_meter_interval_ms < -1) {
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
        "--meter-interval-ms must be > 0");
    return FALSE;
  }
  if ((opt_meter || opt_meter_interval_ms > 0) && opt_bare) {
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED,
        "--meter has nothing to measure with --bare (no link, no queue)");
    return FALSE;
  }
  if (opt_duration < 0) {
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
        "--duration must be >= 0");
    return FALSE;
  }
  shim->queue_spec[SHIM_DOWN] = g_strdup (opt_queue ? opt_queue :
      DEFAULT_QUEUE);
  shim->queue_spec[SHIM_UP] = g_strdup (opt_up_queue ? opt_up_queue :
      DEFAULT_UP_QUEUE);
  shim->buffer_bytes = OCTO_ENGINE_DEFAULT_LIMIT_BYTES;
  if ((opt_buffer && !parse_size ("--buffer", opt_buffer,
              &shim->buffer_bytes, error)) ||
      !parse_size ("--flight-limit", opt_flight_limit ? opt_flight_limit :
          DEFAULT_FLIGHT_LIMIT, &shim->flight_limit_bytes, error))
    return FALSE;
  shim->log_path = opt_bare ? NULL : opt_log;
  shim->stats_path = opt_stats;
  shim->duration_s = opt_duration;
  shim->bare = opt_bare;
  shim->rt_priority = opt_rt_priority;
  shim->rtp_ext_id = (guint8) opt_rtp_ext_id;
  if (opt_meter || opt_meter_interval_ms > 0)
    shim->meter_interval = (OctoTime) (opt_meter_interval_ms > 0 ?
        opt_meter_interval_ms : DEFAULT_METER_INTERVAL_MS) * OCTO_MSECOND;
  return TRUE;
}

/* Read here rather than by octo_trace_load: a file that cannot be read
 * has no line to point at, and the reason is the system's, as it says it
 * ("PATH: cannot open: No such file or directory"). */
static OctoTrace *
load_trace (const gchar *path, GError **error)
{
  GString *text;
  OctoTrace *trace = NULL;
  gchar chunk[65536];
  gssize n;
  int fd = open (path, O_RDONLY | O_CLOEXEC);

  if (fd < 0) {
    g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno),
        "%s: cannot open: %s", path, g_strerror (errno));
    return NULL;
  }
  text = g_string_new (NULL);
  while ((n = read (fd, chunk, sizeof chunk)) != 0) {
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno),
          "%s: cannot read: %s", path, g_strerror (errno));
      goto out;
    }
    g_string_append_len (text, chunk, n);
    if (text->len > MAX_TRACE_FILE_BYTES) {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED,
          "%s: cannot read: larger than any trace (%" G_GSIZE_FORMAT
          " bytes)", path, MAX_TRACE_FILE_BYTES);
      goto out;
    }
  }
  trace = octo_trace_parse (text->str, text->len, path, error);
out:
  close (fd);
  g_string_free (text, TRUE);
  return trace;
}

static gboolean
load_traces (Shim *shim, GError **error)
{
  for (guint l = 0; l < shim->n_links; l++)
    for (guint d = 0; d < SHIM_N_DIRECTIONS; d++) {
      ShimLinkPair *lp = &shim->links[l];

      if (lp->trace_path[d] &&
          !(lp->trace[d] = load_trace (lp->trace_path[d], error)))
        return FALSE;
    }
  return TRUE;
}

/* Arguments left after the options: the command of --shell, else none. */
static gboolean
check_command (int argc, char **argv, gchar ***command, GError **error)
{
  gint first = argc > 1 && g_strcmp0 (argv[1], "--") == 0 ? 2 : 1;

  if (opt_shell) {
    if (first >= argc) {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED,
          "--shell needs a command: --shell [flags] -- COMMAND [ARGS...]");
      return FALSE;
    }
    *command = argv + first;
    return TRUE;
  }
  if (first < argc) {
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED,
        "unexpected argument '%s'", argv[first]);
    return FALSE;
  }
  return TRUE;
}

int
main (int argc, char **argv)
{
  GOptionContext *ctx = g_option_context_new ("[-- COMMAND...] - "
      "trace-driven cellular link emulator with the Octopus queue and "
      "baseline queues");
  GError *error = NULL;
  Shim shim = { 0 };
  ShimShell shell;
  gchar **command = NULL;
  int status = 1;
  gchar *description = queue_help ();

  /* Messages and paths in the user's charset; numbers in logs and JSON
   * keep their '.' whatever the locale. */
  shim_shell_init (&shell);
  setlocale (LC_ALL, "");
  setlocale (LC_NUMERIC, "C");
  g_option_context_set_summary (ctx, "Required: --delay-ms N, and the "
      "users: --listen ADDR:PORT with --forward ADDR:PORT, or --route "
      "LISTEN=FORWARD (repeatable), or --shell -- COMMAND.");
  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_set_description (ctx, description);
  shim.users = g_ptr_array_new_with_free_func (g_free);
  if (!g_option_context_parse (ctx, &argc, &argv, &error) ||
      !check_command (argc, argv, &command, &error) ||
      !configure (&shim, &error)) {
    status = usage_error (ctx, error->message);
    goto out;
  }
  if (!load_traces (&shim, &error))
    goto fail;
  if (opt_shell) {
    /* before shim_setup blocks signals: the command inherits the mask */
    if (!shim_shell_create (&shell, shim.n_links, command, &error))
      goto fail;
    shim.shell = &shell;
    for (guint l = 0; l < shim.n_links; l++) {
      ShimUser *u = shim.users->pdata[l];
      ShimShellLink *sl = &shell.links[l];

      u->listen_fd = sl->outer_fd;
      u->forward_fd = sl->inner_fd;
      sl->outer_fd = sl->inner_fd = -1;       /* closed by the teardown */
      gchar *outside = g_strdup_printf ("%s:0", sl->outside);
      gchar *inside = g_strdup_printf ("%s:0", sl->inside);
      gboolean parsed = shim_addr_parse (outside, &u->listen_addr, &error) &&
          shim_addr_parse (inside, &u->forward_addr, &error);
      g_free (outside);
      g_free (inside);
      if (!parsed)
        goto fail;
    }
  }
  if (!shim_setup (&shim, &error))
    goto fail;
  if (shim.shell)
    shim_shell_release (&shell);
  status = shim_run (&shim);
  if (shim.stats_path && !shim_stats_write (&shim, &error)) {
    shim_print_error (error->message);
    status = 1;
  }

  goto out;

fail:
  shim_print_error (error->message);
out:
  shim_teardown (&shim);
  if (opt_shell) {
    /* the command's status, as a shell reports it (it was stopped if the
     * shim stopped first) */
    gint command_status = shim.shell_status;
    shim_shell_destroy (&shell, &command_status);
    if (status == 0)
      status = command_status;
  }
  g_clear_error (&error);
  for (guint d = 0; d < SHIM_N_DIRECTIONS; d++) {
    for (guint l = 0; l < shim.n_links; l++)
      octo_trace_free (shim.links[l].trace[d]);
    g_free (shim.queue_spec[d]);
  }
  g_ptr_array_unref (shim.users);
  g_option_context_free (ctx);
  g_free (description);
  return status;
}
