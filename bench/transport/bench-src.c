/* Receive cost of octopussrc: CPU and syscalls per packet at a fixed
 * packet rate, against udpsrc receiving the same traffic.
 *
 *   octo-bench-src [--rate 1000] [--seconds 10] [--size 1000] [--no-syscalls]
 *
 * Runs `gst-launch-1.0 RECEIVER ! fakesink` as a child process for each
 * receiver (octopussrc, then udpsrc as the baseline), sends it --rate
 * single-fragment Octopus messages of --size bytes a second on loopback
 * for --seconds and prints the child's CPU (utime + stime from
 * /proc/PID/stat, in % of one core) and its system calls per packet,
 * counted in the kernel for the same window by `perf stat -e
 * raw_syscalls:sys_enter -p PID` (unlike strace it does not slow the
 * receiver into dropping packets), which unlike CPU does not depend on the
 * machine's load.  The plugin is
 * found through GST_PLUGIN_PATH. */
#include <arpa/inet.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "transport/octo-packet.h"

#define WARMUP_SECONDS 1

static gint rate = 1000, seconds = 10, size = 1000;
static gboolean no_syscalls = FALSE;

static GOptionEntry entries[] = {
  {"rate", 0, 0, G_OPTION_ARG_INT, &rate, "Packets per second", "N"},
  {"seconds", 0, 0, G_OPTION_ARG_INT, &seconds, "Measured seconds", "T"},
  {"size", 0, 0, G_OPTION_ARG_INT, &size, "Message bytes (one packet)", "B"},
  {"no-syscalls", 0, 0, G_OPTION_ARG_NONE, &no_syscalls,
      "Skip the syscall count (needs perf)", NULL},
  G_OPTION_ENTRY_NULL
};

static gint
free_udp_port (void)
{
  struct sockaddr_in a = {.sin_family = AF_INET };
  socklen_t len = sizeof a;
  gint fd = socket (AF_INET, SOCK_DGRAM, 0);

  a.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  if (bind (fd, (struct sockaddr *) &a, sizeof a) < 0 ||
      getsockname (fd, (struct sockaddr *) &a, &len) < 0)
    g_error ("cannot pick a UDP port");
  close (fd);
  return ntohs (a.sin_port);
}

static GPid
spawn (gchar **argv)
{
  GPid pid;
  GError *err = NULL;

  if (!g_spawn_async (NULL, argv, NULL,
          G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL, &pid,
          &err))
    g_error ("cannot run %s: %s", argv[0], err->message);
  return pid;
}

/* Interrupts @pid, then kills it if it has not exited after 5 s. */
static void
stop (GPid pid)
{
  kill (pid, SIGINT);
  for (gint i = 0; i < 500; i++) {
    if (waitpid (pid, NULL, WNOHANG) == pid)
      return;
    g_usleep (10000);
  }
  kill (pid, SIGKILL);
  waitpid (pid, NULL, 0);
}

/* utime + stime of @pid in seconds. */
static gdouble
cpu_seconds (GPid pid)
{
  gchar *path = g_strdup_printf ("/proc/%d/stat", pid);
  gchar *text = NULL;
  gdouble s = 0;

  if (g_file_get_contents (path, &text, NULL, NULL)) {
    /* Fields after the parenthesised command name; utime is field 14. */
    gchar **f = g_strsplit (strrchr (text, ')') + 2, " ", 0);
    s = (g_ascii_strtod (f[11], NULL) + g_ascii_strtod (f[12], NULL)) /
        sysconf (_SC_CLK_TCK);
    g_strfreev (f);
  }
  g_free (text);
  g_free (path);
  return s;
}

static void
sleep_until (struct timespec *t, gint64 add_ns)
{
  t->tv_nsec += add_ns;
  while (t->tv_nsec >= 1000000000) {
    t->tv_nsec -= 1000000000;
    t->tv_sec++;
  }
  clock_nanosleep (CLOCK_MONOTONIC, TIMER_ABSTIME, t, NULL);
}

/* Sends @n packets at --rate to @port. */
static void
send_packets (gint fd, gint port, guint32 *seq, guint64 n)
{
  struct sockaddr_in to = {.sin_family = AF_INET,.sin_port = htons (port) };
  guint8 *msg = g_malloc0 (size), *pkt = g_malloc (OCTO_MTU_MAX);
  OctoHeader h = { 0 };
  OctoMsgInfo info;
  struct timespec t;

  to.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  octo_msg_info_init (&info);
  clock_gettime (CLOCK_MONOTONIC, &t);
  for (guint64 i = 0; i < n; i++) {
    h.msg_id = *seq;
    info.frame_id = *seq;
    gsize len = octo_fragment_write (&h, &info, msg, size, OCTO_MTU_MAX, 0, 1,
        pkt);
    octo_data_stamp (pkt, 0, *seq, 0);
    (*seq)++;
    sendto (fd, pkt, len, 0, (struct sockaddr *) &to, sizeof to);
    sleep_until (&t, 1000000000 / rate);
  }
  g_free (msg);
  g_free (pkt);
}

/* The count from a `perf stat -x ,` report of one event. */
static guint64
perf_count (const gchar *path)
{
  gchar *text = NULL;
  guint64 count = 0;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return 0;
  gchar **lines = g_strsplit (text, "\n", 0);
  for (gchar **l = lines; *l; l++) {
    if (g_ascii_isdigit (**l))
      count = g_ascii_strtoull (*l, NULL, 10);
  }
  g_strfreev (lines);
  g_free (text);
  return count;
}

typedef struct {
  gdouble cpu_percent;
  gdouble syscalls_per_packet;
} Result;

static Result
measure (const gchar *receiver)
{
  Result r = { 0 };
  gint fd = socket (AF_INET, SOCK_DGRAM, 0);
  guint32 seq = 0;
  guint64 n = (guint64) rate * seconds;
  gint port = free_udp_port ();
  gchar *log = g_strdup_printf ("%s/octo-bench-src-%d.perf",
      g_get_tmp_dir (), getpid ());
  gchar *cmd = g_strdup_printf ("gst-launch-1.0 -q %s port=%d ! fakesink",
      receiver, port);
  gchar **argv;

  g_shell_parse_argv (cmd, NULL, &argv, NULL);
  GPid pid = spawn (argv);
  /* Warm up: plugin loading and the first packets are not measured. */
  send_packets (fd, port, &seq, (guint64) rate * WARMUP_SECONDS);

  GPid counter = 0;
  if (!no_syscalls) {
    gchar *spid = g_strdup_printf ("%d", pid);
    gchar *pargv[] = { (gchar *) "perf", (gchar *) "stat", (gchar *) "-x",
      (gchar *) ",", (gchar *) "-e", (gchar *) "raw_syscalls:sys_enter",
      (gchar *) "-o", log, (gchar *) "-p", spid, NULL
    };
    counter = spawn (pargv);
    g_usleep (G_USEC_PER_SEC / 5);      /* perf attaches */
    g_free (spid);
  }
  gdouble before = cpu_seconds (pid);
  gint64 t0 = g_get_monotonic_time ();
  send_packets (fd, port, &seq, n);
  gdouble used = cpu_seconds (pid) - before;
  gint64 t1 = g_get_monotonic_time ();
  r.cpu_percent = 100.0 * used / ((t1 - t0) / 1e6);
  if (counter) {
    stop (counter);
    r.syscalls_per_packet = (gdouble) perf_count (log) / n;
    g_unlink (log);
  }
  stop (pid);
  g_strfreev (argv);
  g_free (cmd);
  g_free (log);
  close (fd);
  return r;
}

int
main (int argc, char **argv)
{
  GOptionContext *ctx = g_option_context_new ("- octopussrc receive cost");
  GError *err = NULL;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &err) || rate <= 0 ||
      seconds <= 0 || size <= 0 ||
      size > OCTO_MTU_MAX - OCTO_DATA_FIRST_PREFIX_LEN) {
    g_printerr ("octo-bench-src: %s\n", err ? err->message :
        "--rate, --seconds and --size must be positive, --size at most "
        "65447");
    return 2;
  }
  g_option_context_free (ctx);

  Result octo = measure ("octopussrc stats-interval=0");
  Result udp = measure ("udpsrc");
  printf ("rate %d pkt/s, %d s, %d-byte messages\n", rate, seconds, size);
  printf ("%-12s %10s %16s\n", "receiver", "cpu %core", "syscalls/packet");
  printf ("%-12s %10.1f %16.2f\n", "octopussrc", octo.cpu_percent,
      octo.syscalls_per_packet);
  printf ("%-12s %10.1f %16.2f\n", "udpsrc", udp.cpu_percent,
      udp.syscalls_per_packet);
  printf ("ratio        %10.2f %16.2f\n",
      udp.cpu_percent > 0 ? octo.cpu_percent / udp.cpu_percent : 0,
      udp.syscalls_per_packet > 0 ?
      octo.syscalls_per_packet / udp.syscalls_per_packet : 0);
  return 0;
}
