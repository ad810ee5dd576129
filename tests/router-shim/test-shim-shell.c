/* octopus-shim --shell: a command in its own network namespace whose
 * traffic crosses the emulated link.  The test runs itself as the command
 * (--probe): inside the namespace it sends Octopus transport packets to
 * this process, listening on the host, which echoes them back; the probe
 * checks every echo came back no sooner than the two one-way delays.  Also:
 * the command's exit status is the shim's.  Needs root (skipped without). */
#include "transport/octo-packet.h"

#include <arpa/inet.h>
#include <glib/gstdio.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define DELAY_MS 40
#define PROBES 10

static guint64
now_us (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (guint64) ts.tv_sec * 1000000 + (guint64) ts.tv_nsec / 1000;
}

/* Inside the namespace: PROBES messages to OUTSIDE:@port, one per 20 ms;
 * prints the smallest round trip; fails unless every echo came back. */
static int
probe (guint16 port)
{
  const gchar *outside = g_getenv ("OCTOPUS_SHELL_OUTSIDE");
  struct sockaddr_in to = { .sin_family = AF_INET, .sin_port = htons (port) };
  guint64 sent_at[PROBES], rtt_min = G_MAXUINT64;
  guint8 msg[200], pkt[512];
  OctoHeader h = { .stream_id = 1, .priority = 1 };
  OctoMsgInfo info;
  guint received = 0;
  int fd = socket (AF_INET, SOCK_DGRAM, 0);

  if (outside == NULL || inet_pton (AF_INET, outside, &to.sin_addr) != 1) {
    fprintf (stderr, "probe: no OCTOPUS_SHELL_OUTSIDE\n");
    return 2;
  }
  octo_msg_info_init (&info);
  memset (msg, 0x42, sizeof msg);
  for (guint i = 0; i < PROBES; i++) {
    h.msg_id = i;
    gsize len = octo_fragment_write (&h, &info, msg, sizeof msg, 400, 0, 1,
        pkt);
    octo_data_stamp (pkt, 0, i, 0);
    sent_at[i] = now_us ();
    if (sendto (fd, pkt, len, 0, (struct sockaddr *) &to, sizeof to) < 0)
      return 3;
    g_usleep (20000);
  }
  guint64 deadline = now_us () + 5 * G_USEC_PER_SEC;
  while (received < PROBES && now_us () < deadline) {
    struct pollfd p = { .fd = fd, .events = POLLIN };
    OctoHeader echo;
    if (poll (&p, 1, 100) <= 0)
      continue;
    gssize n = recv (fd, pkt, sizeof pkt, 0);
    if (n > 0 && octo_header_parse (pkt, (gsize) n, &echo) == OCTO_PARSE_OK &&
        echo.msg_id < PROBES) {
      rtt_min = MIN (rtt_min, now_us () - sent_at[echo.msg_id]);
      received++;
    }
  }
  printf ("probe: received=%u rtt_min_us=%" G_GUINT64_FORMAT "\n", received,
      rtt_min);
  return received == PROBES ? 0 : 1;
}

/* Runs the shim with --shell -- @command; echoes datagrams on @echo_fd
 * (if >= 0) until it exits; returns its exit status and its stdout. */
static gint
run_shell (const gchar *const *command, int echo_fd, gchar **out_text,
    gchar **stats)
{
  gchar *dir = g_dir_make_tmp ("shim-shell-XXXXXX", NULL);
  gchar *stats_path = g_build_filename (dir, "stats.json", NULL);
  gchar *stats_arg = g_strdup_printf ("--stats=%s", stats_path);
  GPtrArray *argv = g_ptr_array_new ();
  GError *error = NULL;
  GPid pid;
  gint out_fd, wstatus = 0;
  GString *out = g_string_new (NULL);

  g_ptr_array_add (argv, (gpointer) g_getenv ("OCTOPUS_SHIM"));
  g_ptr_array_add (argv, (gpointer) "--shell");
  g_ptr_array_add (argv, (gpointer) "--delay-ms=" G_STRINGIFY (DELAY_MS));
  g_ptr_array_add (argv, stats_arg);
  g_ptr_array_add (argv, (gpointer) "--");
  for (guint i = 0; command[i]; i++)
    g_ptr_array_add (argv, (gpointer) command[i]);
  g_ptr_array_add (argv, NULL);
  g_spawn_async_with_pipes (NULL, (gchar **) argv->pdata, NULL,
      G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL, &pid, NULL, &out_fd, NULL,
      &error);
  g_assert_no_error (error);

  /* bounded by time, not by polls: once the shim's output is closed, poll
   * returns at once (the probe itself gives up after about 5 s) */
  gint64 deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;
  gboolean out_open = TRUE, exited = FALSE;
  while (!exited && g_get_monotonic_time () < deadline) {
    struct pollfd p[2] = { { .fd = out_open ? out_fd : -1, .events = POLLIN },
      { .fd = echo_fd, .events = POLLIN } };
    if (poll (p, 2, 10) > 0) {
      gchar buf[4096];
      struct sockaddr_in from;
      socklen_t from_len = sizeof from;
      gssize n;
      if (p[0].revents & (POLLIN | POLLHUP)) {
        n = read (out_fd, buf, sizeof buf);
        if (n > 0)
          g_string_append_len (out, buf, n);
        else
          out_open = FALSE;
      }
      if (echo_fd >= 0 && (p[1].revents & POLLIN) &&
          (n = recvfrom (echo_fd, buf, sizeof buf, 0,
                  (struct sockaddr *) &from, &from_len)) > 0)
        sendto (echo_fd, buf, (gsize) n, 0, (struct sockaddr *) &from,
            from_len);
    }
    exited = waitpid (pid, &wstatus, WNOHANG) == pid;
  }
  g_assert_true (exited);
  g_assert_true (WIFEXITED (wstatus));
  gchar buf[4096];
  gssize n;
  while ((n = read (out_fd, buf, sizeof buf)) > 0)
    g_string_append_len (out, buf, n);
  close (out_fd);
  g_spawn_close_pid (pid);
  g_assert_true (g_file_get_contents (stats_path, stats, NULL, NULL));
  g_unlink (stats_path);
  g_rmdir (dir);
  g_free (stats_path);
  g_free (stats_arg);
  g_free (dir);
  g_ptr_array_unref (argv);
  *out_text = g_string_free (out, FALSE);
  return WEXITSTATUS (wstatus);
}

static const gchar *self_path;

static void
test_shell_traffic_crosses_the_link (void)
{
  struct sockaddr_in a = { .sin_family = AF_INET };
  socklen_t len = sizeof a;
  gchar *out, *stats, port_text[8];
  guint received;
  guint64 rtt_us;

  if (geteuid () != 0) {
    g_test_skip ("--shell needs root");
    return;
  }
  int fd = socket (AF_INET, SOCK_DGRAM | SOCK_NONBLOCK, 0);
  g_assert_cmpint (bind (fd, (struct sockaddr *) &a, sizeof a), ==, 0);
  getsockname (fd, (struct sockaddr *) &a, &len);
  g_snprintf (port_text, sizeof port_text, "%u", ntohs (a.sin_port));
  const gchar *command[] = { self_path, "--probe", port_text, NULL };

  gint status = run_shell (command, fd, &out, &stats);
  g_test_message ("%s", out);
  g_assert_cmpint (status, ==, 0);
  const gchar *line = strstr (out, "probe: ");
  g_assert_nonnull (line);
  g_assert_cmpint (sscanf (line, "probe: received=%u rtt_min_us=%"
          G_GUINT64_FORMAT, &received, &rtt_us), ==, 2);
  g_assert_cmpuint (received, ==, PROBES);
  /* both directions' delay, and no more than a loaded machine adds */
  g_assert_cmpuint (rtt_us, >=, 2 * DELAY_MS * 1000);
  g_assert_cmpuint (rtt_us, <, 2 * DELAY_MS * 1000 + 500000);
  /* the shim saw the probes as Octopus packets, out and back */
  g_assert_nonnull (strstr (stats, "\"up\": {\"octopus\": 10,"));
  g_assert_nonnull (strstr (stats, "\"down\": {\"octopus\": 10,"));
  close (fd);
  g_free (out);
  g_free (stats);
}

static void
test_shell_exits_with_the_command_status (void)
{
  const gchar *command[] = { "/bin/sh", "-c", "exit 3", NULL };
  gchar *out, *stats;

  if (geteuid () != 0) {
    g_test_skip ("--shell needs root");
    return;
  }
  g_assert_cmpint (run_shell (command, -1, &out, &stats), ==, 3);
  g_free (out);
  g_free (stats);
}

int
main (int argc, char **argv)
{
  if (argc == 3 && strcmp (argv[1], "--probe") == 0)
    return probe ((guint16) atoi (argv[2]));
  self_path = argv[0];
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/shim-shell/traffic-crosses-the-link",
      test_shell_traffic_crosses_the_link);
  g_test_add_func ("/shim-shell/exits-with-the-command-status",
      test_shell_exits_with_the_command_status);
  return g_test_run ();
}
