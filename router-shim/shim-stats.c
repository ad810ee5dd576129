/* octopus-shim: per-stream counters and the --stats JSON summary. */
#include "shim.h"

#include "octo-json.h"

#include <string.h>

/* JSON keys for OctoParseResult (its own strings are sentences). */
static const gchar *const parse_keys[] = { "octopus", "truncated",
  "not_octopus", "bad_version", "bad_checksum", "reserved_bit" };
G_STATIC_ASSERT (G_N_ELEMENTS (parse_keys) == OCTO_PARSE_N_RESULTS);

typedef struct {
  guint64 source;
  gint32 stream_id;
  guint32 dir;
} StreamKey;

static guint
stream_key_hash (gconstpointer p)
{
  const StreamKey *k = p;
  guint64 h = k->source * 0x9e3779b97f4a7c15ull ^
      ((guint64) (guint32) k->stream_id << 2 | k->dir);
  return (guint) (h ^ h >> 32);
}

static gboolean
stream_key_equal (gconstpointer a, gconstpointer b)
{
  const StreamKey *x = a, *y = b;
  return x->source == y->source && x->stream_id == y->stream_id &&
      x->dir == y->dir;
}

static void
stream_free (gpointer data)
{
  ShimStream *s = data;

  octo_whole_messages_clear (&s->whole);
  g_free (s);
}

void
shim_user_init_streams (ShimUser *user)
{
  user->streams = g_hash_table_new_full (stream_key_hash, stream_key_equal,
      g_free, stream_free);
  for (guint d = 0; d < SHIM_N_DIRECTIONS; d++) {
    ShimStream *s = &user->overflow_stream[d];
    s->dir = d;
    s->stream_id = -2;
    g_strlcpy (s->source_str, "*", sizeof s->source_str);
  }
}

ShimStream *
shim_stream_lookup (ShimUser *user, ShimDirection dir, const ShimAddr *source,
    guint64 source_key, gint32 stream_id)
{
  StreamKey key = { source_key, stream_id, dir };
  ShimStream *s = g_hash_table_lookup (user->streams, &key);

  if (s)
    return s;
  if (g_hash_table_size (user->streams) >= SHIM_MAX_STREAMS)
    return &user->overflow_stream[dir];
  s = g_new0 (ShimStream, 1);
  s->dir = dir;
  s->source = source_key;
  s->stream_id = stream_id;
  if (source_key & SHIM_SOURCE_SSRC)
    g_snprintf (s->source_str, sizeof s->source_str, "ssrc:%08x",
        (guint32) source_key);
  else
    shim_addr_to_string (source, s->source_str);
  g_hash_table_insert (user->streams, g_memdup2 (&key, sizeof key), s);
  return s;
}

static void
append_hist_ms (GString *out, const gchar *name, const ShimHist *h)
{
  g_string_append_printf (out, "\"%s\": {\"count\": %" G_GUINT64_FORMAT
      ", \"p50\": %.3f, \"p99\": %.3f, \"max\": %.3f}", name, h->count,
      shim_hist_quantile (h, 0.5) / 1000.0,
      shim_hist_quantile (h, 0.99) / 1000.0, h->max / 1000.0);
}

/* "dropped" by reason, then "trimmed", left open for the caller to extend
 * and close: trimming does not remove a packet, so packets_in = packets_out
 * + the drops (+ what is queued). */
static void
append_drops (GString *out, const guint64 *packets, const guint64 *bytes,
    guint64 packets_trimmed, guint64 bytes_trimmed)
{
  g_string_append (out, "\"dropped\": {");
  for (guint r = 0; r < OCTO_DROP_N_REASONS; r++)
    if (r != OCTO_DROP_TRIM)
      g_string_append_printf (out, "%s\"%s\": {\"packets\": %"
          G_GUINT64_FORMAT ", \"bytes\": %" G_GUINT64_FORMAT "}",
          r ? ", " : "", octo_drop_reason_to_string (r), packets[r], bytes[r]);
  g_string_append_printf (out, "}, \"trimmed\": {\"packets\": %"
      G_GUINT64_FORMAT ", \"bytes\": %" G_GUINT64_FORMAT, packets_trimmed,
      bytes_trimmed);
}

static void
append_stream (GString *out, const ShimStream *s, gboolean *first)
{
  if (s->packets_in == 0 && s->stream_id == -2)
    return;
  g_string_append_printf (out, "%s\n      {\"direction\": \"%s\", "
      "\"source\": ", *first ? "" : ",", shim_direction_name (s->dir));
  octo_json_append_string (out, s->source_str);
  g_string_append (out, ", ");
  *first = FALSE;
  if (s->stream_id >= 0)
    g_string_append_printf (out, "\"stream\": %d, ", s->stream_id);
  else
    g_string_append_printf (out, "\"stream\": null, \"kind\": \"%s\", ",
        s->stream_id == -1 ? "untagged" : "overflow");
  g_string_append_printf (out, "\"packets_in\": %" G_GUINT64_FORMAT
      ", \"bytes_in\": %" G_GUINT64_FORMAT ", \"packets_out\": %"
      G_GUINT64_FORMAT ", \"bytes_out\": %" G_GUINT64_FORMAT
      ", \"whole_message_bytes_out\": %" G_GUINT64_FORMAT ", ",
      s->packets_in, s->bytes_in, s->packets_out, s->bytes_out,
      s->whole.whole_bytes);
  append_drops (out, s->packets_dropped, s->bytes_dropped,
      s->packets_trimmed, s->bytes_trimmed);
  g_string_append (out, "}, ");
  append_hist_ms (out, "queue_delay_ms", &s->delay);
  g_string_append (out, "}");
}

static gint
compare_streams (gconstpointer a, gconstpointer b)
{
  const ShimStream *x = *(ShimStream * const *) a;
  const ShimStream *y = *(ShimStream * const *) b;
  if (x->dir != y->dir)
    return x->dir < y->dir ? -1 : 1;
  if (x->source != y->source)
    return x->source < y->source ? -1 : 1;
  return x->stream_id < y->stream_id ? -1 : x->stream_id > y->stream_id;
}

static void
append_user (GString *out, Shim *shim, ShimUser *u)
{
  gchar a[SHIM_ADDR_STRLEN], b[SHIM_ADDR_STRLEN];
  GPtrArray *streams = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer value;
  gboolean first = TRUE;

  g_string_append_printf (out, "    {\"user\": %u, \"link\": %u, "
      "\"listen\": ", u->index, u->link);
  octo_json_append_string (out, shim_addr_to_string (&u->listen_addr, a));
  g_string_append (out, ", \"forward\": ");
  octo_json_append_string (out, shim_addr_to_string (&u->forward_addr, b));
  g_string_append (out, ", ");
  g_string_append_printf (out, "\"no_sender_drops\": %" G_GUINT64_FORMAT
      ", \"oversized\": %" G_GUINT64_FORMAT ", \"send_errors\": %"
      G_GUINT64_FORMAT ",\n     \"forwarded\": {\"down\": %" G_GUINT64_FORMAT
      ", \"up\": %" G_GUINT64_FORMAT "},\n     \"parse\": {", u->no_sender,
      u->oversized, u->send_errors, u->sent[SHIM_DOWN], u->sent[SHIM_UP]);
  for (guint d = 0; d < SHIM_N_DIRECTIONS; d++) {
    g_string_append_printf (out, "%s\"%s\": {", d ? ", " : "",
        shim_direction_name (d));
    for (guint r = 0; r < OCTO_PARSE_N_RESULTS; r++)
      g_string_append_printf (out, "%s\"%s\": %" G_GUINT64_FORMAT,
          r ? ", " : "", parse_keys[r],
          u->parse_results[d][r]);
    g_string_append (out, "}");
  }
  g_string_append (out, "},\n     \"datagrams\": {");
  for (guint d = 0; d < SHIM_N_DIRECTIONS; d++) {
    const ShimClassifier *c = &u->classifier[d];
    g_string_append_printf (out, "%s\"%s\": {", d ? ", " : "",
        shim_direction_name (d));
    for (guint k = 0; k < OCTO_DGRAM_N_KINDS; k++)
      g_string_append_printf (out, "\"%s\": %" G_GUINT64_FORMAT ", ",
          octo_dgram_kind_to_string (k), c->kinds[k]);
    g_string_append_printf (out, "\"rtp_tagged\": %" G_GUINT64_FORMAT
        ", \"rtp_ext_id\": %u}", c->rtp_tagged,
        shim_classifier_rtp_ext_id (c));
  }
  g_string_append (out, "},\n     \"queues\": {");
  for (guint d = 0; d < SHIM_N_DIRECTIONS && !shim->bare; d++) {
    const OctoQdiscStats *s = octo_qdisc_get_stats (u->qdisc[d]);
    g_string_append_printf (out, "%s\"%s\": {\"discipline\": ",
        d ? ", " : "", shim_direction_name (d));
    octo_json_append_string (out, octo_qdisc_name (u->qdisc[d]));
    g_string_append_printf (out, ", "
        "\"limit_bytes\": %" G_GUINT64_FORMAT ", \"limit_packets\": %u, "
        "\"packets_in\": %" G_GUINT64_FORMAT ", \"packets_out\": %"
        G_GUINT64_FORMAT ", ", octo_qdisc_limit_bytes (u->qdisc[d]),
        octo_qdisc_limit_packets (u->qdisc[d]), s->packets_in, s->packets_out);
    append_drops (out, s->packets_dropped, s->bytes_dropped,
        s->packets_trimmed, s->bytes_trimmed);
    g_string_append_printf (out, ", \"chunks\": %" G_GUINT64_FORMAT "}}",
        s->chunks_trimmed);
  }
  g_string_append (out, "},\n     \"streams\": [");
  g_hash_table_iter_init (&iter, u->streams);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    g_ptr_array_add (streams, value);
  g_ptr_array_sort (streams, compare_streams);
  for (guint i = 0; i < streams->len; i++)
    append_stream (out, streams->pdata[i], &first);
  for (guint d = 0; d < SHIM_N_DIRECTIONS; d++)
    append_stream (out, &u->overflow_stream[d], &first);
  g_string_append (out, "]}");
  g_ptr_array_unref (streams);
}

gboolean
shim_stats_write (Shim *shim, GError **error)
{
  GString *out = g_string_new ("{\n");
  gboolean ok;

  g_string_append_printf (out, "  \"uptime_s\": %.3f,\n",
      (gdouble) (shim_clock_now () - shim->start) / OCTO_SECOND);
  g_string_append (out, "  \"config\": {\"down_trace\": ");
  octo_json_append_string (out, shim->links[0].trace_path[SHIM_DOWN]);
  g_string_append (out, ", \"up_trace\": ");
  octo_json_append_string (out, shim->links[0].trace_path[SHIM_UP]);
  g_string_append_printf (out, ", \"delay_ms\": %" G_GUINT64_FORMAT,
      shim->links[0].delay / OCTO_MSECOND);
  /* every link, the first one too (users name theirs) */
  g_string_append (out, ", \"links\": [");
  for (guint l = 0; l < shim->n_links; l++) {
    g_string_append (out, l ? ", {\"down_trace\": " : "{\"down_trace\": ");
    octo_json_append_string (out, shim->links[l].trace_path[SHIM_DOWN]);
    g_string_append (out, ", \"up_trace\": ");
    octo_json_append_string (out, shim->links[l].trace_path[SHIM_UP]);
    g_string_append_printf (out, ", \"delay_ms\": %" G_GUINT64_FORMAT "}",
        shim->links[l].delay / OCTO_MSECOND);
  }
  g_string_append (out, "], \"queue\": ");
  octo_json_append_string (out, shim->queue_spec[SHIM_DOWN]);
  g_string_append (out, ", \"up_queue\": ");
  octo_json_append_string (out, shim->queue_spec[SHIM_UP]);
  g_string_append_printf (out, ", \"bare\": %s},\n",
      shim->bare ? "true" : "false");
  g_string_append (out, "  \"departure_timing_error_ms\": {");
  for (guint d = 0; d < SHIM_N_DIRECTIONS; d++) {
    if (d)
      g_string_append (out, ", ");
    append_hist_ms (out, shim_direction_name (d), &shim->timing_error[d]);
  }
  g_string_append (out, "},\n  \"users\": [\n");
  for (guint i = 0; i < shim->users->len; i++) {
    if (i)
      g_string_append (out, ",\n");
    append_user (out, shim, shim->users->pdata[i]);
  }
  g_string_append (out, "\n  ]\n}\n");
  ok = g_file_set_contents (shim->stats_path, out->str, out->len, error);
  g_string_free (out, TRUE);
  return ok;
}
