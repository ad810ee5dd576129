/* octopus: the core dropping engine (octo-engine.h) with its rules on and the
 * bandwidth measured from this queue's own departures, as at a base station
 * serving one user. */
#include "octo-qdisc-private.h"

typedef struct {
  OctoQdisc parent;
  OctoEngine *engine;
} Octopus;

static const gchar *const keys[] = { NULL };

static void
engine_dropped (const OctoPacket *packet, OctoDropReason reason,
    gpointer user_data)
{
  octo_qdisc_drop (user_data, packet, reason);
}

static OctoQdisc *
octopus_create (G_GNUC_UNUSED const OctoQdiscEnv *env, guint64 limit_bytes,
    G_GNUC_UNUSED const OctoQdiscArgs *args, G_GNUC_UNUSED GError **error)
{
  Octopus *self = g_new0 (Octopus, 1);
  OctoEngineConfig config;

  octo_engine_config_init (&config);
  config.limit_bytes = limit_bytes;
  config.limit_packets = octo_qdisc_packet_limit (limit_bytes);
  config.rules = TRUE;
  config.bw_source = OCTO_BW_MEASURED;
  self->engine = octo_engine_new (&config, engine_dropped, self);
  return &self->parent;
}

static void
octopus_destroy (OctoQdisc *qdisc)
{
  Octopus *self = (Octopus *) qdisc;
  octo_engine_free (self->engine);
  g_free (self);
}

static gboolean
octopus_enqueue (OctoQdisc *qdisc, OctoPacket *packet,
    G_GNUC_UNUSED guint8 *payload, G_GNUC_UNUSED gsize *payload_len,
    OctoTime now)
{
  return octo_engine_enqueue (((Octopus *) qdisc)->engine, packet, now);
}

static const OctoPacket *
octopus_peek (OctoQdisc *qdisc, OctoTime now)
{
  return octo_engine_peek (((Octopus *) qdisc)->engine, now);
}

static gboolean
octopus_dequeue (OctoQdisc *qdisc, OctoTime now, OctoPacket *out)
{
  return octo_engine_dequeue (((Octopus *) qdisc)->engine, now, out);
}

static guint64
octopus_queued_bytes (OctoQdisc *qdisc)
{
  return octo_engine_queued_bytes (((Octopus *) qdisc)->engine);
}

static guint32
octopus_queued_packets (OctoQdisc *qdisc)
{
  return octo_engine_queued_packets (((Octopus *) qdisc)->engine);
}

const OctoQdiscOps octo_qdisc_octopus_ops = {
  .name = "octopus",
  .summary = "Octopus: the app's droppers and bitrate thresholds against "
      "this user's measured dequeue rate",
  .usage = "limit=375KB",
  .keys = keys,
  .create = octopus_create,
  .destroy = octopus_destroy,
  .enqueue = octopus_enqueue,
  .peek = octopus_peek,
  .dequeue = octopus_dequeue,
  .queued_bytes = octopus_queued_bytes,
  .queued_packets = octopus_queued_packets,
};
