/* octopus-shim --shell: a command in its own network namespace whose
 * traffic crosses the emulated link.  The test runs itself as the command
 * (--probe): inside the namespace it sends Octopus transport packets to
 * this process, listening on the host, which echoes them back; the probe
 * checks every echo came back no sooner than the two one-way delays.  Also:
 * the command's exit status is the shim's; with --extra-link each link has
 * its own interface, address and delay.  Needs root (skipped without). */
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

/* Inside the namespace: PROBES messages to the host over link @link
 * (OCTOPUS_SHELL_OUTSIDE_<link>):@port, one per 20 ms; prints the smallest
 * round trip; fails unless every echo came back. */
static int
probe (guint16 port, guint link)
{
  gchar *name = g_strdup_printf ("OCTOPUS_SHELL_OUTSIDE_%u", link);
  const gchar *outside = g_getenv (name);
  struct sockaddr_in to = { .sin_family = AF_INET, .sin_port = htons (port) };
  guint64 sent_at[PROBES], rtt_min = G_MAXUINT64;
  guint8 msg[200], pkt[512];
  OctoHeader h = { .stream_id = 1, .priority = 1 };
  OctoMsgInfo info;
  guint received = 0;
  int fd = socket (AF_INET, SOCK_DGRAM, 0);

  if (outside == NULL || inet_pton (AF_INET, outside, &to.sin_addr) != 1) {
    fprintf (stderr, "probe: no %s\n", name);
    return 2;
  }
  g_free (name);
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
  printf ("probe: link=%u received=%u rtt_min_us=%" G_GUINT64_FORMAT "\n",
      link, received, rtt_min);
  return received == PROBES ? 0 : 1;
}

/* Runs the shim with --shell -- @command; echoes datagrams on @echo_fd
 * (if >= 0) until it exits; returns its exit status and its stdout. */
static gint
run_shell (const gchar *const *flags, const gchar *const *command,
    int echo_fd, gchar **out_text, gchar **stats)
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
  for (guint i = 0; flags && flags[i]; i++)
    g_ptr_array_add (argv, (gpointer) flags[i]);
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

/* A UDP socket on the host's wildcard address; its port in @port_text. */
static int
echo_socket (gchar port_text[8])
{
  struct sockaddr_in a = { .sin_family = AF_INET };
  socklen_t len = sizeof a;
  int fd = socket (AF_INET, SOCK_DGRAM | SOCK_NONBLOCK, 0);

  g_assert_cmpint (bind (fd, (struct sockaddr *) &a, sizeof a), ==, 0);
  getsockname (fd, (struct sockaddr *) &a, &len);
  g_snprintf (port_text, 8, "%u", ntohs (a.sin_port));
  return fd;
}

/* The probe's line for @link in @out: its smallest round trip, us. */
static guint64
probe_rtt (const gchar *out, guint link)
{
  gchar *prefix = g_strdup_printf ("probe: link=%u ", link);
  const gchar *line = strstr (out, prefix);
  guint received;
  guint64 rtt_us;

  g_assert_nonnull (line);
  g_assert_cmpint (sscanf (line + strlen (prefix), "received=%u rtt_min_us=%"
          G_GUINT64_FORMAT, &received, &rtt_us), ==, 2);
  g_assert_cmpuint (received, ==, PROBES);
  g_free (prefix);
  return rtt_us;
}

static void
test_shell_traffic_crosses_the_link (void)
{
  gchar *out, *stats, port_text[8];
  guint64 rtt_us;

  if (geteuid () != 0) {
    g_test_skip ("--shell needs root");
    return;
  }
  int fd = echo_socket (port_text);
  const gchar *command[] = { self_path, "--probe", port_text, "0", NULL };

  gint status = run_shell (NULL, command, fd, &out, &stats);
  g_test_message ("%s", out);
  g_assert_cmpint (status, ==, 0);
  rtt_us = probe_rtt (out, 0);
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
  g_assert_cmpint (run_shell (NULL, command, -1, &out, &stats), ==, 3);
  g_free (out);
  g_free (stats);
}

#define EXTRA_DELAY_MS 10

/* --extra-link: the command has a second interface whose traffic crosses
 * a second link with its own delay (well below the first's, so an echo
 * that came back that fast crossed it, not the first), each link's
 * traffic counted under its own user. */
static void
test_extra_link_is_a_second_interface (void)
{
  gchar *out, *stats, port_text[8];
  guint64 rtt_us[2];

  if (geteuid () != 0) {
    g_test_skip ("--shell needs root");
    return;
  }
  int fd = echo_socket (port_text);
  gchar *both = g_strdup_printf ("'%s' --probe %s 0 && '%s' --probe %s 1",
      self_path, port_text, self_path, port_text);
  const gchar *flags[] = { "--extra-link=delay-ms="
        G_STRINGIFY (EXTRA_DELAY_MS), NULL };
  const gchar *command[] = { "/bin/sh", "-c", both, NULL };

  g_assert_cmpint (run_shell (flags, command, fd, &out, &stats), ==, 0);
  g_test_message ("%s", out);
  for (guint l = 0; l < 2; l++)
    rtt_us[l] = probe_rtt (out, l);
  g_assert_cmpuint (rtt_us[0], >=, 2 * DELAY_MS * 1000);
  g_assert_cmpuint (rtt_us[1], >=, 2 * EXTRA_DELAY_MS * 1000);
  g_assert_cmpuint (rtt_us[1], <, 2 * DELAY_MS * 1000);
  g_assert_nonnull (strstr (out, "user 1: shell namespace at "));
  g_assert_nonnull (strstr (stats, "\"user\": 1, \"link\": 1,"));
  /* each user saw its probes as Octopus packets, out and back */
  gchar **users = g_strsplit (stats, "{\"user\": ", -1);
  g_assert_cmpuint (g_strv_length (users), ==, 3);
  for (guint u = 1; u <= 2; u++) {
    g_assert_nonnull (strstr (users[u], "\"up\": {\"octopus\": 10,"));
    g_assert_nonnull (strstr (users[u], "\"down\": {\"octopus\": 10,"));
  }
  g_strfreev (users);
  close (fd);
  g_free (both);
  g_free (out);
  g_free (stats);
}

int
main (int argc, char **argv)
{
  if (argc == 4 && strcmp (argv[1], "--probe") == 0)
    return probe ((guint16) atoi (argv[2]), (guint) atoi (argv[3]));
  self_path = argv[0];
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/shim-shell/traffic-crosses-the-link",
      test_shell_traffic_crosses_the_link);
  g_test_add_func ("/shim-shell/exits-with-the-command-status",
      test_shell_exits_with_the_command_status);
  g_test_add_func ("/shim-shell/extra-link-is-a-second-interface",
      test_extra_link_is_a_second_interface);
  return g_test_run ();
}
