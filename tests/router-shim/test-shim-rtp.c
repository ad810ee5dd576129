/* octopus-shim over real UDP: user 0 gets the scenario as transport
 * packets, user 1 as RTP packets with the extension (id given, or learned)
 * mixed with STUN, DTLS and RTCP.  Both receivers must get exactly the
 * messages the rules keep, and the WebRTC datagrams byte for byte.
 *
 * Each burst follows a 20 kB untagged datagram that holds the link for
 * about 140 ms (1500 bytes per 10 ms): the whole burst is queued before
 * the first message reaches the front, so the verdicts do not depend on
 * when the test process runs. */
#include "shim-test-socket.h"
#include "rtp-scenario.h"

#include <arpa/inet.h>
#include <glib/gstdio.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define FILLER_LEN 20000
#define N_USERS 2

static void
send_to (int fd, guint16 port, GBytes *datagram)
{
  struct sockaddr_in to = { .sin_family = AF_INET, .sin_port = htons (port),
    .sin_addr.s_addr = htonl (INADDR_LOOPBACK) };
  gsize len;
  const guint8 *data = g_bytes_get_data (datagram, &len);
  g_assert_cmpint (sendto (fd, data, len, 0, (struct sockaddr *) &to,
          sizeof to), ==, (gssize) len);
}

typedef struct {
  GPid pid;
  gchar *dir, *trace, *stats, *log;
  guint16 listen_port[N_USERS];
} Shim;

static void
shim_start (Shim *shim, const guint16 *sink_ports, guint8 rtp_ext_id)
{
  GPtrArray *argv = g_ptr_array_new_with_free_func (g_free);
  GError *error = NULL;
  gint out_fd;

  shim->dir = g_dir_make_tmp ("shim-rtp-XXXXXX", &error);
  g_assert_no_error (error);
  shim->trace = g_build_filename (shim->dir, "link.trace", NULL);
  shim->stats = g_build_filename (shim->dir, "stats.json", NULL);
  shim->log = g_build_filename (shim->dir, "events.log", NULL);
  g_file_set_contents (shim->trace, "10\n", -1, &error);
  g_assert_no_error (error);
  g_ptr_array_add (argv, g_strdup (g_getenv ("OCTOPUS_SHIM")));
  g_ptr_array_add (argv, g_strdup_printf ("--down-trace=%s", shim->trace));
  g_ptr_array_add (argv, g_strdup_printf ("--stats=%s", shim->stats));
  g_ptr_array_add (argv, g_strdup_printf ("--log=%s", shim->log));
  g_ptr_array_add (argv, g_strdup ("--delay-ms=0"));
  g_ptr_array_add (argv, g_strdup_printf ("--rtp-ext-id=%u", rtp_ext_id));
  for (guint i = 0; i < N_USERS; i++)
    g_ptr_array_add (argv, g_strdup_printf ("--route=127.0.0.1:0="
            "127.0.0.1:%u", sink_ports[i]));
  g_ptr_array_add (argv, NULL);
  g_spawn_async_with_pipes (NULL, (gchar **) argv->pdata, NULL,
      G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL, &shim->pid, NULL, &out_fd, NULL,
      &error);
  g_assert_no_error (error);
  FILE *out = fdopen (out_fd, "r");
  for (guint i = 0; i < N_USERS; i++) {
    gchar line[256];
    guint user, port;
    g_assert_nonnull (fgets (line, sizeof line, out));
    g_assert_cmpint (sscanf (line, "octopus-shim: user %u: listening on "
            "127.0.0.1:%u", &user, &port), ==, 2);
    shim->listen_port[user] = (guint16) port;
  }
  fclose (out);
  g_ptr_array_unref (argv);
}

/* The shim's stats; its event log in @log. */
static gchar *
shim_stop (Shim *shim, gchar **log)
{
  gchar *stats = NULL;
  int status = -1;

  kill (shim->pid, SIGTERM);
  for (guint i = 0; i < 500 && waitpid (shim->pid, &status, WNOHANG) !=
      shim->pid; i++)
    g_usleep (10000);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
  g_assert_true (g_file_get_contents (shim->stats, &stats, NULL, NULL));
  g_assert_true (g_file_get_contents (shim->log, log, NULL, NULL));
  g_spawn_close_pid (shim->pid);
  g_unlink (shim->log);
  g_free (shim->log);
  g_unlink (shim->stats);
  g_unlink (shim->trace);
  g_rmdir (shim->dir);
  g_free (shim->dir);
  g_free (shim->trace);
  g_free (shim->stats);
  return stats;
}

typedef struct {
  int fd;
  guint8 ext_id;
  guint packets[SCENARIO_MESSAGES];
  GPtrArray *others;            /* GBytes of every non-message datagram */
  gboolean done;                /* the last message's last packet came */
} Sink;

static void
sink_read (Sink *s)
{
  guint8 buf[65536];
  gssize n;

  while ((n = recv (s->fd, buf, sizeof buf, 0)) > 0) {
    gint m = scenario_message_of (buf, (gsize) n, s->ext_id);
    /* anything else, an unknown message too, fails the count of others */
    if (m < 0 || m >= SCENARIO_MESSAGES) {
      g_ptr_array_add (s->others, g_bytes_new (buf, (gsize) n));
      continue;
    }
    s->packets[m]++;
    s->done |= m == SCENARIO_MESSAGES - 1 &&
        s->packets[m] == SCENARIO_PACKETS_PER_MESSAGE;
  }
}

static guint32
delivered_mask (const Sink *s)
{
  guint32 mask = 0;
  for (guint m = 0; m < SCENARIO_MESSAGES; m++) {
    /* never half a message */
    g_assert_true (s->packets[m] == 0 ||
        s->packets[m] == SCENARIO_PACKETS_PER_MESSAGE);
    if (s->packets[m])
      mask |= 1u << m;
  }
  return mask;
}

static void
run_through_shim (guint8 configured_id, guint8 ext_id)
{
  Sink sinks[N_USERS] = { { .ext_id = ext_id }, { .ext_id = ext_id } };
  guint16 sink_ports[N_USERS], sender_port;
  GPtrArray *transport = scenario_transport_datagrams ();
  GPtrArray *rtp = scenario_rtp_datagrams (ext_id, 0x5eed);
  GPtrArray *others = scenario_other_datagrams ();
  guint8 *filler_data = g_malloc0 (FILLER_LEN);
  GBytes *filler;
  Shim shim = { 0 };
  int sender;

  filler_data[0] = 0x17;        /* DTLS application data */
  filler = g_bytes_new_take (filler_data, FILLER_LEN);
  for (guint i = 0; i < N_USERS; i++) {
    sinks[i].fd = shim_test_udp_socket (&sink_ports[i], TRUE);
    sinks[i].others = g_ptr_array_new_with_free_func (
        (GDestroyNotify) g_bytes_unref);
  }
  sender = shim_test_udp_socket (&sender_port, TRUE);
  shim_start (&shim, sink_ports, configured_id);

  send_to (sender, shim.listen_port[0], filler);
  send_to (sender, shim.listen_port[1], filler);
  for (guint i = 0; i < transport->len; i++)
    send_to (sender, shim.listen_port[0], transport->pdata[i]);
  for (guint i = 0; i < rtp->len; i++) {
    send_to (sender, shim.listen_port[1], rtp->pdata[i]);
    if (i < others->len)
      send_to (sender, shim.listen_port[1], others->pdata[i]);
  }

  /* FIFO order: once the last message is in, everything before it is. */
  for (guint t = 0; t < 1000 && !(sinks[0].done && sinks[1].done); t++) {
    g_usleep (10000);
    for (guint i = 0; i < N_USERS; i++)
      sink_read (&sinks[i]);
  }
  gchar *log;
  gchar *stats = shim_stop (&shim, &log);

  g_assert_cmphex (delivered_mask (&sinks[0]), ==, SCENARIO_DELIVERED_MASK);
  g_assert_cmphex (delivered_mask (&sinks[1]), ==, SCENARIO_DELIVERED_MASK);
  /* the filler, then STUN, DTLS and RTCP untouched and in order */
  g_assert_cmpuint (sinks[1].others->len, ==, 1 + others->len);
  g_assert_true (g_bytes_equal (sinks[1].others->pdata[0], filler));
  for (guint i = 0; i < others->len; i++)
    g_assert_true (g_bytes_equal (sinks[1].others->pdata[i + 1],
            others->pdata[i]));
  gchar *want = g_strdup_printf ("\"rtp_ext_id\": %u", ext_id);
  g_assert_nonnull (strstr (stats, want));
  g_assert_nonnull (strstr (stats, "\"source\": \"ssrc:00005eed\""));
  g_free (want);
  g_free (stats);
  /* every RTP packet's arrival is logged with its sequence number and
   * timestamp */
  GHashTable *expected = g_hash_table_new_full (g_str_hash, g_str_equal,
      g_free, NULL);
  for (guint i = 0; i < rtp->len; i++) {
    const guint8 *d = g_bytes_get_data (rtp->pdata[i], NULL);
    g_hash_table_add (expected, g_strdup_printf (" rtp %u %u",
            d[2] << 8 | d[3], (guint32) d[4] << 24 | (guint32) d[5] << 16
            | (guint32) d[6] << 8 | d[7]));
  }
  gchar **lines = g_strsplit (log, "\n", -1);
  for (gchar **l = lines; *l; l++) {
    const gchar *tail = strstr (*l, " rtp ");
    if (strstr (*l, " + ") && tail)
      g_assert_true (g_hash_table_remove (expected, tail));
  }
  g_assert_cmpuint (g_hash_table_size (expected), ==, 0);
  g_hash_table_unref (expected);
  g_strfreev (lines);
  g_free (log);

  for (guint i = 0; i < N_USERS; i++) {
    close (sinks[i].fd);
    g_ptr_array_unref (sinks[i].others);
  }
  close (sender);
  g_bytes_unref (filler);
  g_ptr_array_unref (transport);
  g_ptr_array_unref (rtp);
  g_ptr_array_unref (others);
}

static void
test_given_id_drops_rtp_as_transport (void)
{
  run_through_shim (5, 5);
}

static void
test_learned_two_byte_id_drops_rtp_as_transport (void)
{
  run_through_shim (OCTO_RTPEXT_ID_NONE, 20);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/shim-rtp/given-id-drops-rtp-as-transport",
      test_given_id_drops_rtp_as_transport);
  g_test_add_func ("/shim-rtp/learned-two-byte-id-drops-rtp-as-transport",
      test_learned_two_byte_id_drops_rtp_as_transport);
  return g_test_run ();
}
