/* gst-octopus core: the senders' skeleton (see octo-send-session.h). */
#include "octo-send-session.h"

#include <string.h>

struct _OctoSendSession {
  OctoSendSessionConfig config;
  OctoEngine *engine;
  OctoSendPath *path;
  guint64 last_bandwidth;       /* what the engine was last told */
  OctoTime restarted_for;       /* the outage (its unacked_since) that asked */
  guint64 restarts;
};

gboolean
octo_send_bandwidth_changed_enough (guint64 notified, guint64 bandwidth)
{
  gdouble old = notified;

  if (bandwidth == notified)
    return FALSE;
  return old == 0 || bandwidth == 0 ||
      ABS ((gdouble) bandwidth - old) >= OCTO_SEND_NOTIFY_CHANGE * old;
}

void
octo_send_session_update (OctoSendSession *s)
{
  guint64 bw = octo_send_path_rule_bandwidth (s->path);

  octo_send_path_update_pacer (s->path);
  if (bw != s->last_bandwidth) {
    octo_engine_set_bandwidth (s->engine, bw);
    s->last_bandwidth = bw;
  }
}

OctoSendSession *
octo_send_session_new (const OctoSendSessionConfig *config,
    OctoSendPath *path)
{
  OctoSendSession *s = g_new0 (OctoSendSession, 1);
  OctoEngineConfig ec;

  s->config = *config;
  octo_engine_config_init (&ec);
  ec.limit_bytes = config->buffer_bytes;
  ec.rules = config->rules;
  ec.bw_source = OCTO_BW_EXTERNAL;
  s->engine = octo_engine_new (&ec, config->drop_func, config->user_data);
  s->path = path;
  s->last_bandwidth = OCTO_BW_UNKNOWN;
  s->restarted_for = OCTO_TIME_NONE;
  octo_send_session_update (s);
  return s;
}

void
octo_send_session_free (OctoSendSession *session)
{
  OctoPacket p;

  if (!session)
    return;
  while (octo_engine_dequeue (session->engine, G_MAXUINT64 / 2, &p))
    session->config.drop_func (&p, OCTO_DROP_OVERFLOW,
        session->config.user_data);
  octo_engine_free (session->engine);
  octo_send_path_free (session->path);
  g_free (session);
}

OctoSendPath *
octo_send_session_path (const OctoSendSession *session)
{
  return session->path;
}

gboolean
octo_send_session_enqueue (OctoSendSession *session, OctoPacket *packet,
    OctoTime now)
{
  return octo_engine_enqueue (session->engine, packet, now);
}

/* When the current outage asks for a restart; OCTO_TIME_NONE if there is
 * none or it asked already. */
static OctoTime
restart_due (const OctoSendSession *s)
{
  OctoTime since = octo_send_path_unacked_since (s->path);

  if (s->config.restart_after == 0 || since == OCTO_TIME_NONE ||
      since == s->restarted_for)
    return OCTO_TIME_NONE;
  return since + s->config.restart_after;
}

gboolean
octo_send_session_take_restart (OctoSendSession *s, OctoTime now)
{
  OctoTime due = restart_due (s);

  if (due == OCTO_TIME_NONE || now < due)
    return FALSE;
  s->restarted_for = octo_send_path_unacked_since (s->path);
  s->restarts++;
  return TRUE;
}

gboolean
octo_send_session_would_drop (OctoSendSession *session,
    const OctoHeader *header, OctoTime now)
{
  return octo_engine_would_drop_arrival (session->engine, 0, header, now);
}

OctoSendNext
octo_send_session_dequeue (OctoSendSession *s, OctoTime now, OctoPacket *out,
    OctoTime *wake)
{
  if (octo_send_path_on_timer (s->path, now))
    octo_send_session_update (s);
  octo_send_path_set_backlog (s->path, octo_engine_queued_bytes (s->engine));
  if (!octo_send_path_may_send (s->path, now,
          octo_engine_front_continues_message (s->engine), wake)) {
    *wake = MIN (*wake, restart_due (s));
    return OCTO_SEND_HELD;
  }
  return octo_engine_dequeue (s->engine, now, out) ? OCTO_SEND_PACKET :
      OCTO_SEND_EMPTY;
}

void
octo_send_session_idle (OctoSendSession *session, OctoTime *wake)
{
  octo_send_path_idle (session->path, wake);
  *wake = MIN (*wake, restart_due (session));
}

guint64
octo_send_session_on_sent (OctoSendSession *session, guint32 size,
    gboolean tracked, OctoTime now)
{
  return octo_send_path_on_sent (session->path, size, tracked, now);
}

guint64
octo_send_session_bandwidth (const OctoSendSession *session)
{
  return octo_send_path_bandwidth (session->path);
}

guint64
octo_send_session_app_rate (const OctoSendSession *session)
{
  return octo_send_path_app_rate (session->path);
}

guint32
octo_send_session_queued_packets (const OctoSendSession *session)
{
  return octo_engine_queued_packets (session->engine);
}

void
octo_send_session_get_stats (const OctoSendSession *s, OctoSendStats *st)
{
  OctoFlight *flight = octo_send_path_flight (s->path);

  memset (st, 0, sizeof (*st));
  st->pacing_rate = octo_send_path_pacing_rate (s->path);
  st->bandwidth = octo_send_path_bandwidth (s->path);
  st->app_rate = octo_send_path_app_rate (s->path);
  st->srtt = octo_flight_srtt (flight);
  st->min_rtt = octo_send_path_min_rtt (s->path);
  st->cwnd = octo_send_path_cwnd (s->path);
  st->feedback_hold_back = octo_send_path_hold_back (s->path);
  st->restarts = s->restarts;
  st->inflight = octo_flight_inflight (flight);
  st->queued_bytes = octo_engine_queued_bytes (s->engine);
  st->queued_packets = octo_engine_queued_packets (s->engine);
  st->state = octo_send_path_state (s->path);
  st->flight = octo_flight_get_stats (flight);
  st->buffer = octo_engine_get_stats (s->engine);
}
