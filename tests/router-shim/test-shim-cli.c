/* octopus-shim as its user sees it: what --help says is required, how an
 * unreadable trace is reported (under LANG=C), the --meter lines and the
 * --stats JSON with strings that need escaping. */
#include "shim-test-socket.h"
#include <arpa/inet.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

/* Runs the shim with @args in the C locale; returns its exit status and
 * its stdout and stderr. */
static gint
run_shim (const gchar *const *args, gchar **out, gchar **err)
{
  GPtrArray *argv = g_ptr_array_new ();
  gchar **envp = g_get_environ ();
  GError *error = NULL;
  gint status;

  envp = g_environ_setenv (envp, "LANG", "C", TRUE);
  envp = g_environ_setenv (envp, "LC_ALL", "C", TRUE);
  g_ptr_array_add (argv, (gpointer) g_getenv ("OCTOPUS_SHIM"));
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  g_spawn_sync (NULL, (gchar **) argv->pdata, envp, G_SPAWN_DEFAULT, NULL,
      NULL, out, err, &status, &error);
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (status));
  g_strfreev (envp);
  g_ptr_array_unref (argv);
  return WEXITSTATUS (status);
}

static gboolean
is_ascii (const gchar *text)
{
  for (const gchar *c = text; *c; c++)
    if ((guchar) *c >= 0x80)
      return FALSE;
  return TRUE;
}

static void
test_help_says_what_is_required (void)
{
  gchar *out, *err;
  gchar **lines;
  gboolean delay_line = FALSE;

  g_assert_cmpint (run_shim ((const gchar *const[]) { "--help", NULL },
          &out, &err), ==, 0);
  g_assert_nonnull (strstr (out, "Required: --delay-ms N, and the users: "
          "--listen ADDR:PORT with --forward ADDR:PORT, or --route "
          "LISTEN=FORWARD (repeatable), or --shell -- COMMAND."));
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    if (g_str_has_prefix (g_strstrip (lines[i]), "--delay-ms=N")) {
      g_assert_true (g_str_has_suffix (lines[i], "(required)"));
      delay_line = TRUE;
    }
  g_assert_true (delay_line);
  g_strfreev (lines);
  g_free (out);
  g_free (err);
}

/* --extra-link belongs to --shell and says what it takes; at most four
 * links.  Usage errors: status 2, the reason first. */
static void
test_extra_link_errors_say_what_is_wrong (void)
{
  static const struct {
    const gchar *args[9];
    const gchar *reason;
  } cases[] = {
    {{"--route=127.0.0.1:0=127.0.0.1:9", "--delay-ms=1",
      "--extra-link=delay-ms=5", NULL},
      "octopus-shim: --extra-link needs --shell (in relay mode run a shim "
      "per link)\n"},
    {{"--shell", "--delay-ms=1", "--extra-link=delay=5", "--", "true", NULL},
      "octopus-shim: --extra-link 'delay=5' is not down=FILE[,up=FILE]"
      "[,delay-ms=N]\n"},
    {{"--shell", "--delay-ms=1", "--extra-link=delay-ms=-1", "--", "true",
      NULL},
      "octopus-shim: --extra-link 'delay-ms=-1' is not down=FILE[,up=FILE]"
      "[,delay-ms=N]\n"},
    {{"--shell", "--delay-ms=1", "--extra-link=delay-ms=1",
      "--extra-link=delay-ms=2", "--extra-link=delay-ms=3",
      "--extra-link=delay-ms=4", "--", "true"},
      "octopus-shim: --extra-link: at most 4 links\n"},
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    gchar *out, *err;

    g_assert_cmpint (run_shim (cases[i].args, &out, &err), ==, 2);
    g_assert_true (g_str_has_prefix (err, cases[i].reason));
    g_free (out);
    g_free (err);
  }
}

/* A file that cannot be read has no line number; the reason is the
 * system's; nothing outside ASCII in the C locale. */
static void
test_unreadable_trace_names_the_file_and_the_reason (void)
{
  gchar *dir = g_dir_make_tmp ("shim-cli-XXXXXX", NULL);
  gchar *missing = g_build_filename (dir, "missing.down", NULL);
  gchar *missing_arg = g_strdup_printf ("--down-trace=%s", missing);
  gchar *dir_arg = g_strdup_printf ("--up-trace=%s", dir);
  gchar *expected, *out, *err;

  g_assert_cmpint (run_shim ((const gchar *const[]) {
            "--route=127.0.0.1:0=127.0.0.1:9", "--delay-ms=1", missing_arg,
            NULL }, &out, &err), ==, 1);
  expected = g_strdup_printf ("octopus-shim: %s: cannot open: No such file "
      "or directory\n", missing);
  g_assert_cmpstr (err, ==, expected);
  g_free (expected);
  g_free (out);
  g_free (err);

  g_assert_cmpint (run_shim ((const gchar *const[]) {
            "--route=127.0.0.1:0=127.0.0.1:9", "--delay-ms=1", dir_arg,
            NULL }, &out, &err), ==, 1);
  expected = g_strdup_printf ("octopus-shim: %s: cannot read: Is a "
      "directory\n", dir);
  g_assert_cmpstr (err, ==, expected);
  g_free (expected);
  g_free (out);
  g_free (err);

  /* GLib's own messages quote with U+201C/U+201D: made ASCII. */
  g_assert_cmpint (run_shim ((const gchar *const[]) {
            "--route=127.0.0.1:0=127.0.0.1:9", "--delay-ms=abc", NULL },
          &out, &err), ==, 2);
  g_assert_true (g_str_has_prefix (err, "octopus-shim: Cannot parse "
          "integer value 'abc' for --delay-ms\n"));
  g_assert_true (is_ascii (err));
  g_free (out);
  g_free (err);

  g_rmdir (dir);
  g_free (dir_arg);
  g_free (missing_arg);
  g_free (missing);
  g_free (dir);
}

static gchar *
read_all (int fd)
{
  GString *text = g_string_new (NULL);
  gchar buf[4096];
  gssize n;

  while ((n = read (fd, buf, sizeof buf)) > 0)
    g_string_append_len (text, buf, n);
  close (fd);
  return g_string_free (text, FALSE);
}

/* The value of " KEY=" in a meter line. */
static gchar *
meter_field (const gchar *line, const gchar *key)
{
  gchar *needle = g_strdup_printf (" %s=", key);
  const gchar *at = strstr (line, needle);
  gchar *value;

  if (at == NULL)
    g_error ("meter line lacks %s: %s", key, line);
  at += strlen (needle);
  value = g_strndup (at, strcspn (at, " "));
  g_free (needle);
  return value;
}

static void
test_meter_prints_a_line_per_user_and_direction (void)
{
  static const gchar *const fields[] = { "user", "capacity_mbps",
    "delivered_mbps", "queue_bytes", "queue_packets", "delay_ms",
    "max_delay_ms", "drop_overflow", "drop_dropper", "drop_bitrate",
    "drop_aqm", "trimmed" };
  gchar *dir = g_dir_make_tmp ("shim-meter-XXXXXX", NULL);
  gchar *trace = g_build_filename (dir, "12mbps.down", NULL);
  gchar *trace_arg = g_strdup_printf ("--down-trace=%s", trace);
  guint16 sink_port, sender_port, listen_port;
  int sink = shim_test_udp_socket (&sink_port, FALSE);
  int sender = shim_test_udp_socket (&sender_port, FALSE);
  gchar *forward = g_strdup_printf ("--forward=127.0.0.1:%u", sink_port);
  const gchar *argv[] = { g_getenv ("OCTOPUS_SHIM"), "--listen=127.0.0.1:0",
    forward, trace_arg, "--delay-ms=5", "--meter-interval-ms=100",
    "--duration=1.5", NULL };
  guint8 payload[1200] = { 0 };
  guint down_lines = 0, up_lines = 0, delivering = 0;
  GError *error = NULL;
  gint out_fd, err_fd, status;
  gchar line[256];
  GPid pid;

  /* one opportunity per ms: 12 Mbit/s */
  g_file_set_contents (trace, "1\n", -1, &error);
  g_assert_no_error (error);
  g_spawn_async_with_pipes (NULL, (gchar **) argv, NULL,
      G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL, &pid, NULL, &out_fd, &err_fd,
      &error);
  g_assert_no_error (error);
  FILE *out = fdopen (out_fd, "r");
  g_assert_nonnull (fgets (line, sizeof line, out));
  g_assert_cmpint (sscanf (line, "octopus-shim: user 0: listening on "
          "127.0.0.1:%hu", &listen_port), ==, 1);
  fclose (out);

  struct sockaddr_in to = { .sin_family = AF_INET,
    .sin_addr.s_addr = htonl (INADDR_LOOPBACK), .sin_port = htons (listen_port) };
  for (guint i = 0; i < 20; i++)
    g_assert_cmpint (sendto (sender, payload, sizeof payload, 0,
            (struct sockaddr *) &to, sizeof to), ==, sizeof payload);

  gchar *err = read_all (err_fd);
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
  g_spawn_close_pid (pid);

  gchar **lines = g_strsplit (err, "\n", -1);
  for (guint i = 0; lines[i]; i++) {
    if (!g_str_has_prefix (lines[i], "meter t="))
      continue;
    for (guint f = 0; f < G_N_ELEMENTS (fields); f++)
      g_free (meter_field (lines[i], fields[f]));
    gchar *direction = meter_field (lines[i], "dir");
    gchar *capacity = meter_field (lines[i], "capacity_mbps");
    gchar *delivered = meter_field (lines[i], "delivered_mbps");
    gchar *delay = meter_field (lines[i], "delay_ms");
    if (g_str_equal (direction, "down")) {
      /* the opportunities in the window, whatever its length */
      gdouble mbps = g_ascii_strtod (capacity, NULL);
      g_assert_cmpfloat (mbps, >, 11.0);
      g_assert_cmpfloat (mbps, <, 13.0);
      if (g_ascii_strtod (delivered, NULL) > 0) {
        g_assert_cmpstr (delay, !=, "-");
        delivering++;
      }
      down_lines++;
    } else {
      g_assert_cmpstr (direction, ==, "up");
      g_assert_cmpstr (capacity, ==, "inf");
      g_assert_cmpstr (delivered, ==, "0.000");
      g_assert_cmpstr (delay, ==, "-");
      up_lines++;
    }
    g_free (direction);
    g_free (capacity);
    g_free (delivered);
    g_free (delay);
  }
  g_test_message ("%u meter lines per direction, %u of them delivering",
      down_lines, delivering);
  g_assert_cmpuint (down_lines, >=, 1);
  g_assert_cmpuint (up_lines, ==, down_lines);
  g_assert_cmpuint (delivering, >=, 1);

  /* 20 packets of 1228 IP bytes: all delivered */
  guint received = 0;
  while (recv (sink, line, sizeof line, MSG_DONTWAIT) > 0)
    received++;
  g_assert_cmpuint (received, ==, 20);

  g_strfreev (lines);
  g_free (err);
  close (sink);
  close (sender);
  g_unlink (trace);
  g_rmdir (dir);
  g_free (forward);
  g_free (trace_arg);
  g_free (trace);
  g_free (dir);
}

/* Quotes, backslashes and control characters in a trace path (a file name
 * may hold any byte but '/' and NUL) come back from the JSON unchanged. */
static void
test_stats_json_escapes_the_trace_path (void)
{
  gchar *dir = g_dir_make_tmp ("shim-json-XXXXXX", NULL);
  gchar *trace = g_build_filename (dir, "we\"ird\\ na\tme \x01 \xc3\xbc.down",
      NULL);
  gchar *stats = g_build_filename (dir, "stats.json", NULL);
  gchar *trace_arg = g_strdup_printf ("--down-trace=%s", trace);
  gchar *stats_arg = g_strdup_printf ("--stats=%s", stats);
  JsonParser *parser = json_parser_new ();
  GError *error = NULL;
  gchar *out, *err, *text;

  g_file_set_contents (trace, "1\n", -1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (run_shim ((const gchar *const[]) {
            "--route=127.0.0.1:0=127.0.0.1:9", "--delay-ms=3", trace_arg,
            stats_arg, "--queue=codel:target=5ms", "--duration=0.2", NULL },
          &out, &err), ==, 0);
  g_assert_true (g_file_get_contents (stats, &text, NULL, &error));
  g_assert_no_error (error);
  g_assert_nonnull (strstr (text, "we\\\"ird\\\\ na\\u0009me \\u0001 "
          "\xc3\xbc.down"));

  json_parser_load_from_data (parser, text, -1, &error);
  g_assert_no_error (error);
  JsonObject *config = json_object_get_object_member (
      json_node_get_object (json_parser_get_root (parser)), "config");
  g_assert_nonnull (config);
  g_assert_cmpstr (json_object_get_string_member (config, "down_trace"), ==,
      trace);
  g_assert_true (json_object_get_null_member (config, "up_trace"));
  g_assert_cmpint (json_object_get_int_member (config, "delay_ms"), ==, 3);
  g_assert_cmpstr (json_object_get_string_member (config, "queue"), ==,
      "codel:target=5ms");

  g_object_unref (parser);
  g_unlink (stats);
  g_unlink (trace);
  g_rmdir (dir);
  g_free (text);
  g_free (out);
  g_free (err);
  g_free (stats_arg);
  g_free (trace_arg);
  g_free (stats);
  g_free (trace);
  g_free (dir);
}

/* An absurd buffer size is refused with the bound, not accepted. */
static void
test_absurd_buffer_is_refused_with_the_bound (void)
{
  gchar *out, *err;

  g_assert_cmpint (run_shim ((const gchar *const[]) {
            "--route=127.0.0.1:0=127.0.0.1:9", "--delay-ms=1",
            "--buffer=999999999999999", NULL }, &out, &err), !=, 0);
  g_assert_nonnull (strstr (err, "--buffer: droptail: limit "
          "999999999999999 bytes is over the maximum of 1073741824 bytes "
          "(1 GiB)"));
  g_free (out);
  g_free (err);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_assert_nonnull (g_getenv ("OCTOPUS_SHIM"));
  g_test_add_func ("/shim/cli/absurd-buffer-is-refused-with-the-bound",
      test_absurd_buffer_is_refused_with_the_bound);
  g_test_add_func ("/shim/cli/extra-link-errors-say-what-is-wrong",
      test_extra_link_errors_say_what_is_wrong);
  g_test_add_func ("/shim/cli/help-says-what-is-required",
      test_help_says_what_is_required);
  g_test_add_func ("/shim/cli/unreadable-trace-names-the-file-and-the-reason",
      test_unreadable_trace_names_the_file_and_the_reason);
  g_test_add_func ("/shim/cli/meter-prints-a-line-per-user-and-direction",
      test_meter_prints_a_line_per_user_and_direction);
  g_test_add_func ("/shim/cli/stats-json-escapes-the-trace-path",
      test_stats_json_escapes_the_trace_path);
  return g_test_run ();
}
