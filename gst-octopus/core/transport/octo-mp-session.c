/* gst-octopus core: a send session over several paths (see
 * octo-mp-session.h). */
#include "octo-mp-session.h"

#include <string.h>

/* A committed message whose lost packets are resent: what its packets
 * share. */
typedef struct {
  guint refs;                   /* its entries still held */
  guint acked_paths;            /* bit p: a packet of it sent on p was ACKed */
} MpMessage;

/* A committed packet, or one still in the send buffer (whose descriptor's
 * data is the entry). */
typedef struct {
  OctoPacket packet;            /* data: the caller's */
  OctoTime capture;
  OctoTime deadline;            /* set when committed */
  guint64 seq;                  /* flight sequence number once sent */
  guint origin;                 /* rescheduled: the path it was taken from */
  gboolean resend;              /* asked for at enqueue (config.resend) */
  MpMessage *message;           /* committed with resend; else NULL */
} MpEntry;

/* A message committed within the deadline (in_order_receiver). */
typedef struct {
  guint64 source;
  guint16 stream_id;
  guint32 msg_id;
  OctoTime at;
} MpCommitted;

/* The newest message of a stream committed without a packet among those
 * of paths just gone down. */
typedef struct {
  guint64 source;
  guint16 stream_id;
  guint32 msg_id;
} MpLatest;

typedef struct {
  OctoSendPath *path;
  GQueue pacer;                 /* MpEntry*, waiting to leave */
  GQueue unacked;               /* MpEntry*, sent, in send order */
  MpEntry *sending;             /* given by dequeue, on_sent not yet told */
  OctoTime unanswered_since;    /* first send after the last ACK, or NONE */
  OctoTime last_probe;          /* the last probe sent, or declined (idle) */
  OctoTime last_sent;           /* anything, data or padding; or NONE */
  gboolean idle;                /* told to idle; nothing queued since */
  OctoMpPathStats stats;
} MpPath;

struct _OctoMpSession {
  OctoMpSessionConfig config;
  OctoEngine *engine;
  OctoSched *sched;
  MpPath paths[OCTO_SCHED_MAX_PATHS];
  guint n_paths;
  guint next_path;              /* where dequeue starts looking, rotating */
  guint64 last_bandwidth;
  OctoTime last_data;           /* the last data packet on any path, or NONE */
  GQueue committed;             /* MpCommitted*, oldest first */
  GArray *latest;               /* MpLatest, scratch */
  GHashTable *in_batch;         /* batch_key()s of s->batch's messages, scratch */
  GArray *sizes;                /* guint32, scratch for one message */
  GPtrArray *batch;             /* MpEntry*, scratch */
  guint8 *assigned;             /* scratch, batch->len */
  guint assigned_len;
  OctoMpStats stats;
};

static void
release (OctoMpSession *s, MpEntry *e, OctoMpFate fate, OctoDropReason reason)
{
  s->config.release (&e->packet, fate, reason, s->config.user_data);
  if (e->message && --e->message->refs == 0)
    g_free (e->message);
  g_free (e);
}

static void
on_buffer_drop (const OctoPacket *packet, OctoDropReason reason,
    gpointer user_data)
{
  release (user_data, packet->data, OCTO_MP_DROPPED, reason);
}

/* The sum of @rate over the paths that are up. */
static guint64
sum_up_paths (const OctoMpSession *s,
    guint64 (*rate) (const OctoSendPath *path))
{
  guint64 bw = 0;

  for (guint i = 0; i < s->n_paths; i++)
    if (s->paths[i].stats.up)
      bw += rate (s->paths[i].path);
  return bw;
}

/* The buffer's bitrate rule sees the sum of the paths' rule rates
 * (octo_send_path_rule_bandwidth). */
static void
update_bandwidth (OctoMpSession *s)
{
  guint64 bw = sum_up_paths (s, octo_send_path_rule_bandwidth);

  for (guint i = 0; i < s->n_paths; i++)
    octo_send_path_update_pacer (s->paths[i].path);
  if (bw != s->last_bandwidth) {
    octo_engine_set_bandwidth (s->engine, bw);
    s->last_bandwidth = bw;
  }
}

OctoMpSession *
octo_mp_session_new (const OctoMpSessionConfig *config, OctoSendPath **paths,
    guint n_paths)
{
  OctoSched *sched = octo_sched_new (config->scheduler ? config->scheduler :
      "min-cost");
  OctoMpSession *s;
  OctoEngineConfig ec;

  if (!sched || n_paths == 0 || n_paths > OCTO_SCHED_MAX_PATHS) {
    octo_sched_free (sched);
    return NULL;
  }
  s = g_new0 (OctoMpSession, 1);
  s->config = *config;
  s->sched = sched;
  octo_engine_config_init (&ec);
  ec.limit_bytes = config->buffer_bytes;
  ec.rules = config->rules;
  ec.bw_source = OCTO_BW_EXTERNAL;
  s->engine = octo_engine_new (&ec, on_buffer_drop, s);
  s->n_paths = n_paths;
  for (guint i = 0; i < n_paths; i++) {
    s->paths[i].path = paths[i];
    g_queue_init (&s->paths[i].pacer);
    g_queue_init (&s->paths[i].unacked);
    s->paths[i].unanswered_since = OCTO_TIME_NONE;
    s->paths[i].last_sent = OCTO_TIME_NONE;
    s->paths[i].stats.up = TRUE;
  }
  s->sizes = g_array_new (FALSE, FALSE, sizeof (guint32));
  s->batch = g_ptr_array_new ();
  g_queue_init (&s->committed);
  s->latest = g_array_new (FALSE, FALSE, sizeof (MpLatest));
  s->in_batch = g_hash_table_new (g_direct_hash, g_direct_equal);
  s->last_bandwidth = OCTO_BW_UNKNOWN;
  s->last_data = OCTO_TIME_NONE;
  update_bandwidth (s);
  return s;
}

void
octo_mp_session_free (OctoMpSession *s)
{
  OctoPacket p;

  if (!s)
    return;
  while (octo_engine_dequeue (s->engine, G_MAXUINT64 / 2, &p))
    release (s, p.data, OCTO_MP_CLOSED, OCTO_DROP_OVERFLOW);
  octo_engine_free (s->engine);
  for (guint i = 0; i < s->n_paths; i++) {
    MpPath *mp = &s->paths[i];
    MpEntry *e;

    while ((e = g_queue_pop_head (&mp->pacer)))
      release (s, e, OCTO_MP_CLOSED, OCTO_DROP_OVERFLOW);
    while ((e = g_queue_pop_head (&mp->unacked)))
      release (s, e, OCTO_MP_CLOSED, OCTO_DROP_OVERFLOW);
    if (mp->sending)
      release (s, mp->sending, OCTO_MP_CLOSED, OCTO_DROP_OVERFLOW);
    octo_send_path_free (mp->path);
  }
  octo_sched_free (s->sched);
  g_queue_clear_full (&s->committed, g_free);
  g_array_free (s->latest, TRUE);
  g_hash_table_destroy (s->in_batch);
  g_array_free (s->sizes, TRUE);
  g_ptr_array_free (s->batch, TRUE);
  g_free (s->assigned);
  g_free (s);
}

guint
octo_mp_session_n_paths (const OctoMpSession *session)
{
  return session->n_paths;
}

const gchar *
octo_mp_session_scheduler (const OctoMpSession *session)
{
  return octo_sched_name (session->sched);
}

OctoSendPath *
octo_mp_session_path (const OctoMpSession *session, guint i)
{
  return session->paths[i].path;
}

gboolean
octo_mp_session_enqueue (OctoMpSession *s, const OctoPacket *packet,
    OctoTime capture, gboolean resend, OctoTime now)
{
  MpEntry *e = g_new0 (MpEntry, 1);
  OctoPacket p = *packet;

  e->packet = *packet;
  e->capture = capture;
  e->resend = resend && s->config.resend;
  p.data = e;
  return octo_engine_enqueue (s->engine, &p, now);
}

gboolean
octo_mp_session_would_drop (OctoMpSession *s, const OctoHeader *header,
    OctoTime now)
{
  return octo_engine_would_drop_arrival (s->engine, 0, header, now);
}

/* Silent this long with packets out: down (the flight's loss timeout). */
static OctoTime
silence_limit (const MpPath *mp)
{
  return octo_flight_loss_timeout (octo_send_path_flight (mp->path));
}

/* When the up path @mp, which has nothing waiting, is due its next probe:
 * one silence limit after it last sent (or declined a probe), if data has
 * gone to other paths since it sent (the scheduler passes it over, so
 * nothing else measures it); OCTO_TIME_NONE if not. */
static OctoTime
idle_probe_time (const OctoMpSession *s, const MpPath *mp)
{
  if (mp->last_sent == OCTO_TIME_NONE || s->last_data == OCTO_TIME_NONE ||
      s->last_data <= mp->last_sent)
    return OCTO_TIME_NONE;
  return MAX (mp->last_sent, mp->last_probe) + silence_limit (mp);
}

gboolean
octo_mp_session_probe_due (const OctoMpSession *s, guint path, OctoTime now)
{
  const MpPath *mp = &s->paths[path];
  OctoTime due;

  if (!mp->stats.up)
    return now >= mp->last_probe + silence_limit (mp);
  if (mp->pacer.length > 0 || mp->sending)
    return FALSE;
  due = idle_probe_time (s, mp);
  return due != OCTO_TIME_NONE && now >= due;
}

/* Padding that probes for bandwidth up to @ceiling
 * (octo_send_path_wants_padding(): the path's own estimate, so that each
 * path is measured), unless the path's queue stands, since padding in a
 * dip only holds up what the scheduler puts on the path next (design §5
 * Multipath). */
static gboolean
wants_padding (const OctoMpSession *s, guint path, guint64 ceiling)
{
  const OctoSendPath *p = s->paths[path].path;

  return octo_send_path_wants_padding (p, ceiling) &&
      !octo_send_path_queue_standing (p);
}

gboolean
octo_mp_session_pads (const OctoMpSession *s, guint path, guint64 ceiling,
    OctoTime now)
{
  return octo_mp_session_probe_due (s, path, now) ||
      wants_padding (s, path, ceiling);
}

static gboolean
any_up (const OctoMpSession *s)
{
  for (guint i = 0; i < s->n_paths; i++)
    if (s->paths[i].stats.up)
      return TRUE;
  return FALSE;
}

/* Schedules the entries of s->batch on the live paths (at least one). */
static void
schedule_batch (OctoMpSession *s, OctoTime now)
{
  OctoSchedPath state[OCTO_SCHED_MAX_PATHS];
  guint n = s->batch->len;

  if (n == 0)
    return;
  g_array_set_size (s->sizes, n);
  if (s->assigned_len < n) {
    s->assigned = g_realloc (s->assigned, n);
    s->assigned_len = n;
  }
  for (guint i = 0; i < n; i++)
    g_array_index (s->sizes, guint32, i) =
        ((MpEntry *) g_ptr_array_index (s->batch, i))->packet.size;
  for (guint i = 0; i < s->n_paths; i++) {
    const MpPath *mp = &s->paths[i];

    state[i].srtt = octo_flight_srtt (octo_send_path_flight (mp->path));
    state[i].min_rtt = octo_send_path_min_rtt (mp->path);
    state[i].queued_bytes = mp->stats.queued_bytes;
    state[i].inflight_bytes =
        octo_flight_inflight (octo_send_path_flight (mp->path));
    state[i].pacing_rate = octo_send_path_pacing_rate (mp->path);
    state[i].bandwidth = octo_send_path_bandwidth (mp->path);
    state[i].up = mp->stats.up;
  }
  /* callers make sure a path is up, so a scheduler always finds one */
  if (!octo_sched_assign (s->sched, state, s->n_paths,
          (const guint32 *) s->sizes->data, n, now, s->assigned))
    g_error ("multipath scheduler %s assigned no path", s->config.scheduler);
  for (guint i = 0; i < n; i++) {
    MpEntry *e = g_ptr_array_index (s->batch, i);
    MpPath *mp = &s->paths[s->assigned[i]];

    g_queue_push_tail (&mp->pacer, e);
    mp->stats.queued_bytes += e->packet.size;
    mp->idle = FALSE;
  }
  g_ptr_array_set_size (s->batch, 0);
}

static gboolean
same_message (const OctoPacket *a, const OctoPacket *b)
{
  return a->tagged && b->tagged && a->source == b->source &&
      a->header.stream_id == b->header.stream_id &&
      a->header.msg_id == b->header.msg_id;
}

/* Forgets the messages committed a deadline ago: nothing of them can be
 * rescheduled any more (a deadline runs from the capture, at or before the
 * commit). */
static void
prune_committed (OctoMpSession *s, OctoTime now)
{
  MpCommitted *c;

  while ((c = g_queue_peek_head (&s->committed)) &&
      c->at + OCTO_MP_DEADLINE <= now)
    g_free (g_queue_pop_head (&s->committed));
}

static void
remember_committed (OctoMpSession *s, const OctoPacket *p, OctoTime now)
{
  MpCommitted *c;

  if (!s->config.in_order_receiver || !p->tagged)
    return;
  prune_committed (s, now);
  c = g_new (MpCommitted, 1);
  c->source = p->source;
  c->stream_id = p->header.stream_id;
  c->msg_id = p->header.msg_id;
  c->at = now;
  g_queue_push_tail (&s->committed, c);
}

/* A message's key in s->in_batch.  Keys of different messages may
 * collide: a message then counts as having a packet in the batch, so
 * fewer are released, never more. */
static gpointer
batch_key (guint16 stream_id, guint32 msg_id)
{
  return GUINT_TO_POINTER (msg_id ^ ((guint32) stream_id << 16));
}

/* What s->latest holds for the stream (@source, @stream_id), or NULL. */
static const MpLatest *
latest_of_stream (const OctoMpSession *s, guint64 source, guint16 stream_id)
{
  for (guint i = 0; i < s->latest->len; i++) {
    const MpLatest *f = &g_array_index (s->latest, MpLatest, i);

    if (f->source == source && f->stream_id == stream_id)
      return f;
  }
  return NULL;
}

/* In-order receiver: releases the entries of s->batch (packets of paths
 * gone down) whose message is older than one of its stream committed
 * without a packet among them.  That one left on live paths before these
 * go (or waits in a live pacer ahead of them), so the receiver has it
 * first and would discard these as late; see
 * OctoMpSessionConfig.in_order_receiver for what this assumes. */
static void
drop_superseded (OctoMpSession *s, OctoTime now)
{
  guint kept = 0;

  if (!s->config.in_order_receiver || s->batch->len == 0)
    return;
  prune_committed (s, now);
  g_array_set_size (s->latest, 0);
  g_hash_table_remove_all (s->in_batch);
  for (guint i = 0; i < s->batch->len; i++) {
    const OctoPacket *p =
        &((const MpEntry *) g_ptr_array_index (s->batch, i))->packet;

    if (p->tagged)
      g_hash_table_add (s->in_batch, batch_key (p->header.stream_id,
              p->header.msg_id));
  }
  for (GList * l = s->committed.tail; l; l = l->prev) {
    const MpCommitted *c = l->data;
    MpLatest f = { c->source, c->stream_id, c->msg_id };

    if (!latest_of_stream (s, c->source, c->stream_id) &&
        !g_hash_table_contains (s->in_batch, batch_key (c->stream_id,
                c->msg_id)))
      g_array_append_val (s->latest, f);
  }
  for (guint i = 0; i < s->batch->len; i++) {
    MpEntry *e = g_ptr_array_index (s->batch, i);
    const MpLatest *f = e->packet.tagged ? latest_of_stream (s,
        e->packet.source, e->packet.header.stream_id) : NULL;

    if (f && octo_msg_id_newer (f->msg_id, e->packet.header.msg_id)) {
      s->stats.packets_superseded++;
      s->paths[e->origin].stats.packets_rescheduled--;
      release (s, e, OCTO_MP_SUPERSEDED, OCTO_DROP_OVERFLOW);
    } else {
      g_ptr_array_index (s->batch, kept++) = e;
    }
  }
  g_ptr_array_set_size (s->batch, kept);
}

/* Moves the next message, whole, from the send buffer to the paths; FALSE
 * if the buffer is empty. */
static gboolean
commit_message (OctoMpSession *s, OctoTime now)
{
  OctoPacket p;

  MpMessage *message = NULL;

  if (!octo_engine_dequeue (s->engine, now, &p))
    return FALSE;
  for (;;) {
    MpEntry *e = p.data;
    const OctoPacket *next;

    e->deadline = (e->capture != OCTO_TIME_NONE ? e->capture : now) +
        OCTO_MP_DEADLINE;
    if (e->resend) {
      if (!message)
        message = g_new0 (MpMessage, 1);
      message->refs++;
      e->message = message;
    }
    g_ptr_array_add (s->batch, e);
    if (!p.tagged || p.header.last)
      break;
    next = octo_engine_peek (s->engine, now);
    if (!next || !same_message (&e->packet, next) ||
        !octo_engine_dequeue (s->engine, now, &p))
      break;
  }
  s->stats.messages_committed++;
  remember_committed (s, &((MpEntry *) g_ptr_array_index (s->batch, 0))->packet,
      now);
  schedule_batch (s, now);
  return TRUE;
}

/* Commits messages while a live path's pacer drains within commit_ahead. */
static void
commit (OctoMpSession *s, OctoTime now)
{
  for (;;) {
    gboolean hungry = FALSE;

    for (guint i = 0; i < s->n_paths; i++) {
      const MpPath *mp = &s->paths[i];

      hungry |= mp->stats.up && !mp->sending &&
          octo_sched_drain_time (mp->stats.queued_bytes,
          octo_send_path_pacing_rate (mp->path)) <= s->config.commit_ahead;
    }
    if (!hungry || !commit_message (s, now))
      return;
  }
}

/* Takes the down path @i's waiting packets (and, when @unacked, its
 * unACKed ones) whose deadline has not passed into s->batch. */
static void
take_from (OctoMpSession *s, guint i, gboolean unacked, OctoTime now)
{
  MpPath *mp = &s->paths[i];
  GQueue *queues[2] = { unacked ? &mp->unacked : NULL, &mp->pacer };
  MpEntry *e;

  for (guint q = 0; q < 2; q++) {
    if (!queues[q])
      continue;
    while ((e = g_queue_pop_head (queues[q]))) {
      if (queues[q] == &mp->pacer)
        mp->stats.queued_bytes -= e->packet.size;
      if (e->deadline <= now) {
        s->stats.packets_expired++;
        release (s, e, OCTO_MP_EXPIRED, OCTO_DROP_OVERFLOW);
        continue;
      }
      mp->stats.packets_rescheduled++;
      e->origin = i;
      g_ptr_array_add (s->batch, e);
    }
  }
}

/* Paths silent too long go down; what they hold goes to live paths. */
static void
check_paths (OctoMpSession *s, OctoTime now)
{
  gboolean changed = FALSE;

  for (guint i = 0; i < s->n_paths; i++) {
    MpPath *mp = &s->paths[i];

    if (!mp->stats.up || mp->unanswered_since == OCTO_TIME_NONE ||
        now < mp->unanswered_since + silence_limit (mp))
      continue;
    mp->stats.up = FALSE;
    mp->stats.downs++;
    mp->last_probe = now;
    changed = TRUE;
    take_from (s, i, TRUE, now);
    if (!any_up (s)) {
      /* nowhere to go: each waits in the pacer of the path it came from,
       * the unACKed first, and was not rescheduled after all */
      for (guint k = s->batch->len; k > 0; k--) {
        MpEntry *e = g_ptr_array_index (s->batch, k - 1);
        MpPath *from = &s->paths[e->origin];

        g_queue_push_head (&from->pacer, e);
        from->stats.queued_bytes += e->packet.size;
        from->stats.packets_rescheduled--;
      }
      g_ptr_array_set_size (s->batch, 0);
    }
  }
  if (changed)
    update_bandwidth (s);
  if (!any_up (s))
    return;
  /* what waits on down paths (also from before any path was up) */
  for (guint i = 0; i < s->n_paths; i++)
    if (!s->paths[i].stats.up && !g_queue_is_empty (&s->paths[i].pacer))
      take_from (s, i, FALSE, now);
  drop_superseded (s, now);
  schedule_batch (s, now);
}

/* The live path with the smallest sRTT (one without a sample counts as the
 * slowest); G_MAXUINT if none is up. */
static guint
fastest_up (const OctoMpSession *s)
{
  guint best = G_MAXUINT;
  OctoTime best_srtt = 0;

  for (guint i = 0; i < s->n_paths; i++) {
    OctoTime srtt;

    if (!s->paths[i].stats.up)
      continue;
    srtt = octo_flight_srtt (octo_send_path_flight (s->paths[i].path));
    if (srtt == 0)
      srtt = G_MAXUINT64;
    if (best == G_MAXUINT || srtt < best_srtt) {
      best = i;
      best_srtt = srtt;
    }
  }
  return best;
}

/* Resends (config.resend) the packets of path @i its flight declared lost,
 * of messages of which a packet sent on @i was ACKed, while their deadline
 * has not passed: at the head of the fastest live path's pacer, in send
 * order.  A queue's rules drop a message only while none of its packets
 * has left that queue (design §3, rule 3), and a path's packets cross one
 * queue, so such a loss is that queue's overflow (rule 4) or the link's:
 * what a queue's rules dropped stays dropped. */
static void
resend_lost (OctoMpSession *s, guint i, OctoTime now)
{
  MpPath *mp = &s->paths[i];
  const OctoFlight *flight = octo_send_path_flight (mp->path);
  GQueue lost = G_QUEUE_INIT;
  guint to = fastest_up (s);
  GList *l;

  if (to == G_MAXUINT)
    return;
  for (l = mp->unacked.head; l;) {
    GList *next = l->next;
    const MpEntry *e = l->data;

    if (e->message && (e->message->acked_paths & (1u << i)) &&
        e->deadline > now && !octo_flight_outstanding (flight, e->seq)) {
      g_queue_unlink (&mp->unacked, l);
      g_queue_push_tail_link (&lost, l);
    }
    l = next;
  }
  while ((l = g_queue_pop_tail_link (&lost))) {
    MpPath *dest = &s->paths[to];

    dest->stats.queued_bytes += ((const MpEntry *) l->data)->packet.size;
    dest->idle = FALSE;
    g_queue_push_head_link (&dest->pacer, l);
    s->stats.packets_resent++;
  }
}

static void
expire_unacked (OctoMpSession *s, MpPath *mp, OctoTime now)
{
  MpEntry *e;

  while ((e = g_queue_peek_head (&mp->unacked)) && e->deadline <= now) {
    g_queue_pop_head (&mp->unacked);
    s->stats.packets_expired++;
    release (s, e, OCTO_MP_EXPIRED, OCTO_DROP_OVERFLOW);
  }
}

/* The next packet of @mp that may still make its deadline. */
static MpEntry *
pop_live (OctoMpSession *s, MpPath *mp, OctoTime now)
{
  MpEntry *e;

  while ((e = g_queue_pop_head (&mp->pacer))) {
    mp->stats.queued_bytes -= e->packet.size;
    if (e->deadline > now)
      return e;
    s->stats.packets_expired++;
    release (s, e, OCTO_MP_EXPIRED, OCTO_DROP_OVERFLOW);
  }
  return NULL;
}

OctoSendNext
octo_mp_session_dequeue (OctoMpSession *s, OctoTime now, OctoPacket *out,
    guint *path, OctoTime *wake)
{
  gboolean timed_out = FALSE;

  *wake = OCTO_TIME_NONE;
  for (guint i = 0; i < s->n_paths; i++) {
    gboolean lost = octo_send_path_on_timer (s->paths[i].path, now);

    if (lost && s->config.resend && s->paths[i].stats.up)
      resend_lost (s, i, now);
    timed_out |= lost;
  }
  if (timed_out)
    update_bandwidth (s);
  check_paths (s, now);
  commit (s, now);

  for (guint k = 0; k < s->n_paths; k++) {
    guint i = (s->next_path + k) % s->n_paths;
    MpPath *mp = &s->paths[i];
    OctoTime path_wake;

    expire_unacked (s, mp, now);
    if (mp->stats.up && mp->unanswered_since != OCTO_TIME_NONE)
      *wake = MIN (*wake, mp->unanswered_since + silence_limit (mp));
    if (!mp->stats.up) {
      OctoTime probe = mp->last_probe + silence_limit (mp);

      if (probe > now) {
        *wake = MIN (*wake, probe);
        continue;
      }
    } else if (g_queue_is_empty (&mp->pacer) && mp->idle) {
      OctoTime probe = idle_probe_time (s, mp);

      if (probe == OCTO_TIME_NONE || probe > now) {
        if (probe != OCTO_TIME_NONE)
          *wake = MIN (*wake, probe);
        continue;
      }
    }
    if (!octo_send_path_may_send (mp->path, now, FALSE, &path_wake)) {
      *wake = MIN (*wake, path_wake);
      continue;
    }
    /* the packet handed out last must have been reported sent */
    g_return_val_if_fail (mp->sending == NULL, OCTO_SEND_HELD);
    s->next_path = (i + 1) % s->n_paths;
    *path = i;
    if (mp->stats.up && (mp->sending = pop_live (s, mp, now))) {
      *out = mp->sending->packet;
      return OCTO_SEND_PACKET;
    }
    return OCTO_SEND_EMPTY;
  }
  return OCTO_SEND_HELD;
}

void
octo_mp_session_idle (OctoMpSession *s, guint path, OctoTime now)
{
  MpPath *mp = &s->paths[path];
  OctoTime flight_wake;

  /* a probe declined counts as sent: the next is due a silence later */
  if (octo_mp_session_probe_due (s, path, now))
    mp->last_probe = now;
  octo_send_path_idle (mp->path, &flight_wake);
  if (mp->stats.up)
    mp->idle = TRUE;
}

guint64
octo_mp_session_on_sent (OctoMpSession *s, guint path, guint32 size,
    OctoTime now)
{
  MpPath *mp = &s->paths[path];
  guint64 seq;

  /* a probe: the sRTT of a path measured last a silence limit ago says
   * nothing of now, so the probe's sample replaces it; its rate sample is
   * app-limited, lest one packet per probe pass for the path's rate */
  if (!mp->sending && octo_mp_session_probe_due (s, path, now)) {
    octo_flight_expire_srtt (octo_send_path_flight (mp->path));
    octo_flight_mark_app_limited (octo_send_path_flight (mp->path));
  }
  seq = octo_send_path_on_sent (mp->path, size, TRUE, now);
  mp->last_sent = now;
  if (mp->sending)
    s->last_data = now;
  if (mp->unanswered_since == OCTO_TIME_NONE)
    mp->unanswered_since = now;
  if (!mp->stats.up)
    mp->last_probe = now;
  if (mp->sending) {
    mp->sending->seq = seq;
    g_queue_push_tail (&mp->unacked, mp->sending);
    mp->sending = NULL;
    mp->stats.packets_sent++;
    mp->stats.bytes_sent += size;
  }
  return seq;
}

static gboolean
acked (const OctoAck *ack, guint64 seq)
{
  for (guint r = 0; r < ack->n_ranges; r++)
    if ((guint32) ((guint32) seq - ack->ranges[r].first) <=
        (guint32) (ack->ranges[r].last - ack->ranges[r].first))
      return TRUE;
  return FALSE;
}

void
octo_mp_session_on_ack (OctoMpSession *s, guint path, const OctoAck *ack,
    OctoTime now)
{
  MpPath *mp = &s->paths[path];
  GList *l = mp->unacked.head;

  octo_send_path_on_feedback (mp->path, OCTO_TIME_NONE);
  octo_send_path_on_ack (mp->path, ack, now);
  /* silence counts again from now while packets are still out */
  mp->unanswered_since = octo_flight_inflight (octo_send_path_flight
      (mp->path)) > 0 ? now : OCTO_TIME_NONE;
  mp->stats.up = TRUE;
  while (l) {
    GList *next = l->next;
    MpEntry *e = l->data;

    if (acked (ack, e->seq)) {
      g_queue_delete_link (&mp->unacked, l);
      mp->stats.packets_acked++;
      if (e->message)
        e->message->acked_paths |= 1u << path;
      release (s, e, OCTO_MP_ACKED, OCTO_DROP_OVERFLOW);
    }
    l = next;
  }
  if (s->config.resend)
    resend_lost (s, path, now);
  update_bandwidth (s);
}

guint64
octo_mp_session_bandwidth (const OctoMpSession *s)
{
  return sum_up_paths (s, octo_send_path_bandwidth);
}

guint64
octo_mp_session_path_threshold (const OctoMpSession *s, guint path,
    guint64 threshold)
{
  guint64 own, total, share;
  gdouble exact;

  g_return_val_if_fail (path < s->n_paths, threshold);
  own = octo_send_path_bandwidth (s->paths[path].path);
  total = octo_mp_session_bandwidth (s);
  /* a path taking a packet while down is one more path */
  if (!s->paths[path].stats.up)
    total += own;
  if (threshold == 0 || own == 0 || own >= total)
    return threshold;
  /* rounded up; the wire code then rounds to its nearest value, within
   * 0.4 % */
  exact = (gdouble) threshold * (gdouble) own / (gdouble) total;
  share = (guint64) exact;
  return share < exact ? share + 1 : share;
}

void
octo_mp_session_update (OctoMpSession *s)
{
  update_bandwidth (s);
}

guint64
octo_mp_session_queued_bytes (const OctoMpSession *s)
{
  guint64 n = octo_engine_queued_bytes (s->engine);

  for (guint i = 0; i < s->n_paths; i++)
    n += s->paths[i].stats.queued_bytes;
  return n;
}

guint32
octo_mp_session_queued_packets (const OctoMpSession *s)
{
  guint32 n = octo_engine_queued_packets (s->engine);

  for (guint i = 0; i < s->n_paths; i++)
    n += g_queue_get_length ((GQueue *) & s->paths[i].pacer);
  return n;
}

void
octo_mp_session_path_stats (const OctoMpSession *s, guint path,
    OctoMpPathStats *stats)
{
  *stats = s->paths[path].stats;
}

void
octo_mp_session_get_stats (const OctoMpSession *s, OctoMpStats *stats)
{
  *stats = s->stats;
}

const OctoEngineStats *
octo_mp_session_buffer_stats (const OctoMpSession *s)
{
  return octo_engine_get_stats (s->engine);
}
