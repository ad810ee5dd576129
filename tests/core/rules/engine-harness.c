#include "engine-harness.h"

typedef struct {
  guint64 source;
  guint16 stream;
  guint32 msg_id;
} Payload;

static void
log_token (Harness *h, const Payload *p, const gchar *suffix)
{
  if (h->log->len > 0)
    g_string_append_c (h->log, ' ');
  g_string_append_printf (h->log, "%s%u/%u%s", suffix[0] ? "-" : "+",
      p->stream, p->msg_id, suffix);
  if (p->source != 0)
    g_string_append_printf (h->log, "@%" G_GUINT64_FORMAT, p->source);
}

static void
on_drop (const OctoPacket *packet, OctoDropReason reason, gpointer user_data)
{
  Harness *h = user_data;
  gchar *suffix = g_strconcat (":", octo_drop_reason_to_string (reason), NULL);

  log_token (h, packet->data, suffix);
  g_free (suffix);
  g_free (packet->data);
  h->outstanding--;
}

Harness *
harness_new_full (const OctoEngineConfig *config)
{
  Harness *h = g_new0 (Harness, 1);

  h->engine = octo_engine_new (config, on_drop, h);
  h->log = g_string_new (NULL);
  return h;
}

Harness *
harness_new (guint64 limit_bytes, OctoBwSource bw_source)
{
  OctoEngineConfig config;

  octo_engine_config_init (&config);
  config.limit_bytes = limit_bytes;
  config.bw_source = bw_source;
  return harness_new_full (&config);
}

void
harness_free (Harness *h)
{
  octo_engine_free (h->engine);
  g_assert_cmpuint (h->outstanding, ==, 0);
  g_string_free (h->log, TRUE);
  g_free (h);
}

void
harness_message (Harness *h, guint64 source, guint16 stream, guint32 msg_id,
    guint n_packets, guint32 size, const Tags *tags, OctoTime now)
{
  harness_packets (h, source, stream, msg_id, 0, n_packets, n_packets, size,
      tags, now);
}

void
harness_packets (Harness *h, guint64 source, guint16 stream, guint32 msg_id,
    guint first, guint count, guint total, guint32 size, const Tags *tags,
    OctoTime now)
{
  for (guint i = first; i < first + count; i++) {
    OctoPacket p = { 0 };
    Payload *payload = g_new (Payload, 1);

    payload->source = source;
    payload->stream = stream;
    payload->msg_id = msg_id;
    p.data = payload;
    p.source = source;
    p.size = size;
    p.tagged = TRUE;
    p.connection = h->connection;
    p.header.stream_id = stream;
    p.header.msg_id = msg_id;
    p.header.first = i == 0;
    p.header.last = i == total - 1;
    if (tags) {
      p.header.priority = tags->priority;
      p.header.drop = tags->drop;
      p.header.priority_threshold = tags->threshold;
      p.header.link_bitrate_threshold_bps = tags->bitrate;
      p.header.slack_ms = tags->slack_ms;
    }
    h->outstanding++;
    octo_engine_enqueue (h->engine, &p, now);
  }
}

guint
harness_dequeue (Harness *h, guint n, OctoTime now)
{
  OctoPacket p;
  guint done = 0;

  while (done < n && octo_engine_dequeue (h->engine, now, &p)) {
    log_token (h, p.data, "");
    g_free (p.data);
    h->outstanding--;
    done++;
  }
  return done;
}

gchar *
harness_take_log (Harness *h)
{
  gchar *s = g_strdup (h->log->str);

  g_string_truncate (h->log, 0);
  return s;
}
