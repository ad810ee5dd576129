/* gst-octopus core: reassembly and ACK bookkeeping (see octo-receiver.h). */
#include "octo-receiver.h"
#include "octo-qpacket.h"

#include <string.h>

/* NACKs waiting for the shell beyond this are counted and not kept: the
 * sender backs off at most once per round trip anyway. */
#define MAX_PENDING_NACKS 64

typedef struct {
  guint64 key;                  /* stream_id << 32 | msg_id */
  OctoHeader header;
  OctoMsgInfo info;
  gboolean have_first;
  guint8 *data;
  guint32 len;
  guint32 frag_count, frag_received;
  guint64 bytes_received;
  guint8 *bitmap;
  OctoQMessage *qmessage;       /* qualitative (chunked) messages only */
  OctoTime first_arrival;
  guint8 paths;                 /* bit p: a fragment came over path_id p */
  gboolean resends;             /* OCTO_DATA_FLAG_RESENDS: lost parts come again */
  GList *link;                  /* in OctoReceiver.by_age */
} Partial;

/* A complete message waiting for an older partial of its stream. */
typedef struct {
  OctoMessage msg;
  OctoTime completed;
  gboolean waited;              /* not delivered when it completed */
  GList *age_link;              /* in OctoReceiver.held_by_age */
} Held;

typedef struct {
  gboolean delivered_any;
  guint32 last_delivered;
  guint32 n_partials;
  GQueue held;                  /* Held, by msg_id */
} StreamState;

struct _OctoReceiver {
  OctoReceiverConfig config;
  OctoMessageFunc func;
  gpointer user_data;
  OctoAcker ackers[OCTO_RECEIVER_MAX_PATHS];  /* by path_id */
  GHashTable *partials;         /* &key -> Partial */
  GQueue by_age;                /* oldest first */
  GHashTable *streams;          /* stream_id -> StreamState */
  GQueue held_by_age;           /* Held of every stream, by completion */
  gboolean have_conn;
  guint32 conn_id;
  guint32 retired[OCTO_RECEIVER_RETIRED_CONNS];
  guint n_retired;
  GArray *nacks;                /* OctoNack, oldest first */
  OctoTime keyframe_request_until;      /* ACKs before then ask for one */
  OctoReceiverStats stats;
};

void
octo_receiver_config_init (OctoReceiverConfig *config)
{
  config->max_partial_messages = OCTO_RECEIVER_DEFAULT_MAX_PARTIAL_MESSAGES;
  config->max_partial_bytes = OCTO_RECEIVER_DEFAULT_MAX_PARTIAL_BYTES;
  config->timeout = OCTO_RECEIVER_DEFAULT_TIMEOUT;
  config->reorder_wait = 0;
  config->resend_wait = OCTO_RECEIVER_DEFAULT_RESEND_WAIT;
  config->ack_every = OCTO_ACKER_DEFAULT_EVERY;
  config->ack_delay = OCTO_ACKER_DEFAULT_DELAY;
  config->ack_timestamps = TRUE;
  config->budget = NULL;
}

static void
stream_state_free (StreamState *st)
{
  Held *h;

  while ((h = g_queue_pop_head (&st->held))) {
    g_free (h->msg.data);
    g_free (h);
  }
  g_free (st);
}

static void
partial_free (Partial *p)
{
  g_free (p->data);
  g_free (p->bitmap);
  octo_qmessage_free (p->qmessage);
  g_free (p);
}

OctoReceiver *
octo_receiver_new (const OctoReceiverConfig *config, OctoMessageFunc func,
    gpointer user_data)
{
  OctoReceiver *r = g_new0 (OctoReceiver, 1);

  r->config = *config;
  r->config.max_partial_messages = MAX (r->config.max_partial_messages, 1);
  r->func = func;
  r->user_data = user_data;
  for (guint p = 0; p < OCTO_RECEIVER_MAX_PATHS; p++)
    octo_acker_init (&r->ackers[p], config->ack_every, config->ack_delay);
  r->partials = g_hash_table_new_full (g_int64_hash, g_int64_equal, NULL,
      (GDestroyNotify) partial_free);
  g_queue_init (&r->by_age);
  r->streams = g_hash_table_new_full (NULL, NULL, NULL,
      (GDestroyNotify) stream_state_free);
  g_queue_init (&r->held_by_age);
  r->nacks = g_array_new (FALSE, FALSE, sizeof (OctoNack));
  return r;
}

void
octo_receiver_free (OctoReceiver *receiver)
{
  if (!receiver)
    return;
  if (receiver->config.budget)
    receiver->config.budget->held -= receiver->stats.partial_bytes +
        receiver->stats.waiting_bytes;
  g_queue_clear (&receiver->by_age);
  g_queue_clear (&receiver->held_by_age);
  g_hash_table_unref (receiver->partials);
  g_hash_table_unref (receiver->streams);
  g_array_free (receiver->nacks, TRUE);
  g_free (receiver);
}

static StreamState *
stream_state (OctoReceiver *r, guint16 stream_id)
{
  gpointer key = GUINT_TO_POINTER ((guint) stream_id);
  StreamState *st = g_hash_table_lookup (r->streams, key);
  if (!st) {
    st = g_new0 (StreamState, 1);
    g_hash_table_insert (r->streams, key, st);
  }
  return st;
}

static void
remove_partial (OctoReceiver *r, Partial *p)
{
  StreamState *st = stream_state (r, (guint16) (p->key >> 32));
  st->n_partials--;
  r->stats.partial_messages--;
  r->stats.partial_bytes -= p->len;
  if (r->config.budget)
    r->config.budget->held -= p->len;
  g_queue_delete_link (&r->by_age, p->link);
  g_hash_table_remove (r->partials, &p->key);
}

/* Removes a partial that will never be delivered; one whose fragments came
 * over several paths was cut short by different fates on them. */
static void
give_up_partial (OctoReceiver *r, Partial *p)
{
  if (p->paths & (p->paths - 1))
    r->stats.messages_lost_across_paths++;
  remove_partial (r, p);
}

/* Partials of @stream older than the message just delivered can never be. */
static void
give_up_older (OctoReceiver *r, guint16 stream_id, StreamState *st)
{
  GList *l = r->by_age.head;
  while (l && st->n_partials > 0) {
    Partial *p = l->data;
    l = l->next;
    if ((guint16) (p->key >> 32) == stream_id &&
        !octo_msg_id_newer ((guint32) p->key, st->last_delivered)) {
      /* Without its first fragment it is counted when that arrives. */
      if (p->have_first)
        r->stats.messages_late++;
      give_up_partial (r, p);
    }
  }
}

static void
deliver (OctoReceiver *r, StreamState *st, OctoMessage *msg)
{
  st->delivered_any = TRUE;
  st->last_delivered = msg->header.msg_id;
  msg->header.first = msg->header.last = TRUE;
  r->stats.messages_delivered++;
  r->stats.bytes_delivered += msg->len;
  if (st->n_partials > 0)
    give_up_older (r, msg->header.stream_id, st);
  r->func (msg, r->user_data);
}

/* Whether @len more bytes would pass the byte caps (own and shared). */
static gboolean
over_byte_caps (const OctoReceiver *r, guint32 len)
{
  const OctoPartialBudget *budget = r->config.budget;
  return r->stats.partial_bytes + r->stats.waiting_bytes + len >
      r->config.max_partial_bytes || (budget
      && budget->held + len > budget->limit);
}

static gboolean
over_caps (const OctoReceiver *r, guint32 len)
{
  return r->stats.partial_messages >= r->config.max_partial_messages ||
      over_byte_caps (r, len);
}

/* Whether a partial of @stream_id older than @msg_id is pending, which
 * delivering @msg_id would give up.  (A msg_id merely missing is not waited
 * for: senders drop messages, and padding takes msg_ids too.) */
static gboolean
older_partial_pending (const OctoReceiver *r, guint16 stream_id,
    const StreamState *st, guint32 msg_id)
{
  if (st->n_partials == 0)
    return FALSE;
  for (const GList * l = r->by_age.head; l; l = l->next) {
    const Partial *p = l->data;
    guint32 id = (guint32) p->key;
    /* every partial is newer than the last delivered (late packets are
     * refused, older partials given up) */
    if ((guint16) (p->key >> 32) == stream_id && octo_msg_id_newer (msg_id, id))
      return TRUE;
  }
  return FALSE;
}

/* The oldest pending partial of @stream_id whose sender resends its lost
 * packets, in @msg_id; FALSE if there is none, or if the resend wait is no
 * longer than the reorder wait (then none extends a wait).  One pass over
 * the partials, so that a caller judging many waiting messages does not
 * make one per message. */
static gboolean
oldest_resending (const OctoReceiver *r, guint16 stream_id,
    const StreamState *st, guint32 *msg_id)
{
  gboolean found = FALSE;

  if (r->config.resend_wait <= r->config.reorder_wait || st->n_partials == 0)
    return FALSE;
  for (const GList * l = r->by_age.head; l; l = l->next) {
    const Partial *p = l->data;
    guint32 id = (guint32) p->key;

    if (p->resends && (guint16) (p->key >> 32) == stream_id &&
        (!found || octo_msg_id_newer (*msg_id, id))) {
      *msg_id = id;
      found = TRUE;
    }
  }
  return found;
}

/* When @h's wait ends: its reorder wait after it completed, or its resend
 * wait if a partial older than it whose sender resends is pending
 * (@resending: the oldest such is @oldest). */
static OctoTime
held_until (const OctoReceiver *r, const Held *h, gboolean resending,
    guint32 oldest)
{
  if (resending && octo_msg_id_newer (h->msg.header.msg_id, oldest))
    return h->completed + r->config.resend_wait;
  return h->completed + r->config.reorder_wait;
}

/* Delivers @st's waiting messages, oldest first, each once no older partial
 * is pending; one whose wait ended (or, with @force, not newer than
 * @force_id) goes anyway, with every older one. */
static void
release_held (OctoReceiver *r, guint16 stream_id, StreamState *st,
    OctoTime now, gboolean force, guint32 force_id)
{
  guint32 oldest = 0;
  gboolean resending = oldest_resending (r, stream_id, st, &oldest);
  Held *h;

  for (GList * l = st->held.head; l; l = l->next) {
    h = l->data;
    if (held_until (r, h, resending, oldest) <= now && (!force
            || octo_msg_id_newer (h->msg.header.msg_id, force_id))) {
      force = TRUE;
      force_id = h->msg.header.msg_id;
    }
  }
  while ((h = g_queue_peek_head (&st->held))) {
    gboolean forced = force
        && !octo_msg_id_newer (h->msg.header.msg_id, force_id);
    if (!forced && older_partial_pending (r, stream_id, st,
            h->msg.header.msg_id))
      break;
    g_queue_pop_head (&st->held);
    g_queue_delete_link (&r->held_by_age, h->age_link);
    r->stats.waiting_messages--;
    r->stats.waiting_bytes -= h->msg.len;
    if (r->config.budget)
      r->config.budget->held -= h->msg.len;
    if (h->waited)
      r->stats.messages_reordered++;
    deliver (r, st, &h->msg);
    g_free (h);
  }
}

/* A message is complete.  Without a wait (no reorder wait, and no older
 * partial pending whose sender resends) it is delivered now; else it joins
 * its stream's waiting messages (in msg_id order: it may be
 * the partial newer ones waited for), which go as far as nothing older is
 * pending; a message that would pass the memory caps goes at once, with
 * every older waiting one. */
static void
complete (OctoReceiver *r, StreamState *st, OctoMessage *msg, OctoTime now)
{
  guint16 stream_id = msg->header.stream_id;
  guint32 msg_id = msg->header.msg_id;
  gboolean force;
  guint32 oldest;
  Held *mine, *h;
  GList *l;

  if (r->config.reorder_wait == 0 && !(oldest_resending (r, stream_id, st,
              &oldest) && octo_msg_id_newer (msg_id, oldest))) {
    deliver (r, st, msg);
    return;
  }
  force = over_byte_caps (r, msg->len);
  mine = g_new0 (Held, 1);
  mine->msg = *msg;
  mine->completed = now;
  for (l = st->held.tail; l && octo_msg_id_newer (((Held *) l->data)->
          msg.header.msg_id, msg_id); l = l->prev);
  if (l)
    g_queue_insert_after (&st->held, l, mine);
  else
    g_queue_push_head (&st->held, mine);
  g_queue_push_tail (&r->held_by_age, mine);
  mine->age_link = r->held_by_age.tail;
  r->stats.waiting_messages++;
  r->stats.waiting_bytes += msg->len;
  if (r->config.budget)
    r->config.budget->held += msg->len;
  release_held (r, stream_id, st, now, force, msg_id);
  /* released oldest first: @mine still waits iff the oldest waiting one is
   * not newer */
  h = g_queue_peek_head (&st->held);
  if (h && !octo_msg_id_newer (h->msg.header.msg_id, msg_id))
    mine->waited = TRUE;
}

static gboolean
make_room (OctoReceiver *r, guint32 len)
{
  if (len > r->config.max_partial_bytes ||
      (r->config.budget && len > r->config.budget->limit)) {
    r->stats.messages_too_large++;
    return FALSE;
  }
  while (over_caps (r, len)) {
    if (r->held_by_age.head) {
      /* complete messages: deliver the longest waiting (and older ones)
       * rather than give up a partial */
      Held *h = r->held_by_age.head->data;
      guint16 stream_id = h->msg.header.stream_id;
      release_held (r, stream_id, stream_state (r, stream_id), 0, TRUE,
          h->msg.header.msg_id);
      continue;
    }
    if (!r->by_age.head) {
      /* Theirs to give up, by timeout or to their own new partials. */
      r->stats.messages_refused++;
      return FALSE;
    }
    r->stats.messages_evicted++;
    give_up_partial (r, r->by_age.head->data);
  }
  return TRUE;
}

static Partial *
new_partial (OctoReceiver *r, StreamState *st, guint64 key,
    const OctoDataPacket *pkt, OctoTime now)
{
  if (!make_room (r, pkt->msg_len))
    return NULL;
  /* making room may have delivered waiting messages past this one */
  if (st->delivered_any
      && !octo_msg_id_newer (pkt->header.msg_id, st->last_delivered)) {
    r->stats.messages_late++;
    return NULL;
  }
  Partial *p = g_new0 (Partial, 1);
  p->key = key;
  p->header = pkt->header;
  p->len = pkt->msg_len;
  p->frag_count = pkt->frag_count;
  p->first_arrival = now;
  g_queue_push_tail (&r->by_age, p);
  p->link = r->by_age.tail;
  g_hash_table_insert (r->partials, &p->key, p);
  st->n_partials++;
  r->stats.partial_messages++;
  r->stats.partial_bytes += p->len;
  if (r->config.budget)
    r->config.budget->held += p->len;
  return p;
}

static void
add_fragment (OctoReceiver *r, StreamState *st, const OctoDataPacket *pkt,
    OctoTime now)
{
  guint64 key = ((guint64) pkt->header.stream_id << 32) | pkt->header.msg_id;
  Partial *p = g_hash_table_lookup (r->partials, &key);

  if (!p) {
    if (!(p = new_partial (r, st, key, pkt, now)))
      return;
    p->data = g_malloc (MAX (pkt->msg_len, 1));
    p->bitmap = g_malloc0 ((pkt->frag_count + 7) / 8);
  } else if (p->qmessage || p->len != pkt->msg_len ||
      p->frag_count != pkt->frag_count) {
    r->stats.messages_inconsistent++;
    give_up_partial (r, p);
    return;
  }

  p->paths |= 1u << pkt->path_id;
  p->resends |= (pkt->flags & OCTO_DATA_FLAG_RESENDS) != 0;
  guint8 bit = 1 << (pkt->frag_index & 7);
  if (p->bitmap[pkt->frag_index / 8] & bit) {
    r->stats.packets_duplicate++;
    return;
  }
  p->bitmap[pkt->frag_index / 8] |= bit;
  memcpy (p->data + pkt->offset, pkt->payload, pkt->payload_len);
  p->frag_received++;
  p->bytes_received += pkt->payload_len;
  if (pkt->frag_index == 0) {
    p->have_first = TRUE;
    p->header = pkt->header;
    p->info = pkt->info;
  }
  if (p->frag_received < p->frag_count)
    return;

  if (p->bytes_received != p->len) {
    /* Overlapping fragments left a hole: never hand out stale memory. */
    r->stats.messages_inconsistent++;
    give_up_partial (r, p);
    return;
  }
  OctoMessage msg = {
    .header = p->header,
    .info = p->info,
    .data = p->data,
    .len = p->len,
    .first_arrival = p->first_arrival,
    .complete_time = now,
  };
  p->data = NULL;
  remove_partial (r, p);
  complete (r, st, &msg, now);
}

/* A trimmed packet is NACKed (Algorithm 2) whether or not its message is
 * still wanted: the trim is a congestion signal either way. */
static void
nack_trimmed (OctoReceiver *r, const OctoDataPacket *pkt,
    const OctoQFragment *frag)
{
  OctoNack nack;

  if (!octo_qpacket_nack (pkt, frag, &nack))
    return;
  r->stats.packets_trimmed++;
  r->stats.chunks_trimmed += nack.trimmed;
  if (r->nacks->len < MAX_PENDING_NACKS)
    g_array_append_val (r->nacks, nack);
  else
    r->stats.nacks_not_sent++;
}

/* A qualitative fragment (parsed): once every fragment arrived, hand over
 * the leading layers whose bytes all did. */
static void
add_qualitative (OctoReceiver *r, StreamState *st, const OctoDataPacket *pkt,
    const OctoQFragment *fragment, OctoTime now)
{
  guint64 key = ((guint64) pkt->header.stream_id << 32) | pkt->header.msg_id;
  Partial *p = g_hash_table_lookup (r->partials, &key);
  OctoQFragment frag = *fragment;

  if (!p) {
    if (pkt->msg_len > r->config.max_partial_bytes) {
      r->stats.messages_too_large++;
      return;
    }
    if (!(p = new_partial (r, st, key, pkt, now)))
      return;
    p->qmessage = octo_qmessage_new (pkt, &frag, r->config.max_partial_bytes);
  }
  p->paths |= 1u << pkt->path_id;
  p->resends |= (pkt->flags & OCTO_DATA_FLAG_RESENDS) != 0;
  if (!p->qmessage || !octo_qmessage_add (p->qmessage, pkt, &frag)) {
    r->stats.messages_inconsistent++;
    give_up_partial (r, p);
    return;
  }
  if (pkt->frag_index == 0) {
    p->header = pkt->header;
    p->info = pkt->info;
    p->have_first = TRUE;
  }
  if (!octo_qmessage_all_fragments (p->qmessage))
    return;

  guint usable = octo_qmessage_usable_segments (p->qmessage);
  if (usable == 0) {
    r->stats.messages_unusable++;
    give_up_partial (r, p);
    return;
  }
  if (usable < frag.layout.n_segments)
    r->stats.messages_lower_layers++;
  gsize len = octo_qmessage_prefix_len (p->qmessage, usable);
  OctoMessage msg = {
    .header = p->header,
    .info = p->info,
    .data = g_memdup2 (octo_qmessage_data (p->qmessage), len),
    .len = len,
    .first_arrival = p->first_arrival,
    .complete_time = now,
  };
  if (!frag.layout.equal) {
    msg.layers_sent = frag.layout.n_segments;
    msg.layers_delivered = usable;
    memcpy (msg.layer_len, frag.layout.len, usable * sizeof msg.layer_len[0]);
  }
  remove_partial (r, p);
  complete (r, st, &msg, now);
}

gsize
octo_receiver_poll_nack (OctoReceiver *r, guint8 *out, guint8 *path_id)
{
  if (r->nacks->len == 0)
    return 0;
  if (path_id)
    *path_id = g_array_index (r->nacks, OctoNack, 0).path_id;
  gsize len = octo_nack_write (&g_array_index (r->nacks, OctoNack, 0), out,
      OCTO_NACK_LEN);
  g_array_remove_index (r->nacks, 0);
  r->stats.nacks_sent++;
  return len;
}

static gboolean
is_retired (const OctoReceiver *r, guint32 conn_id)
{
  for (guint i = 0; i < r->n_retired; i++)
    if (r->retired[i] == conn_id)
      return TRUE;
  return FALSE;
}

/* The sender restarted: nothing of the old connection applies to the new. */
static void
replace_connection (OctoReceiver *r, guint32 conn_id)
{
  memmove (&r->retired[1], &r->retired[0],
      (OCTO_RECEIVER_RETIRED_CONNS - 1) * sizeof (guint32));
  r->retired[0] = r->conn_id;
  r->n_retired = MIN (r->n_retired + 1, OCTO_RECEIVER_RETIRED_CONNS);
  while (r->by_age.head) {
    r->stats.messages_abandoned++;
    give_up_partial (r, r->by_age.head->data);
  }
  r->stats.messages_abandoned += r->held_by_age.length;
  if (r->config.budget)
    r->config.budget->held -= r->stats.waiting_bytes;
  r->stats.waiting_bytes = 0;
  r->stats.waiting_messages = 0;
  g_queue_clear (&r->held_by_age);
  g_hash_table_remove_all (r->streams);
  g_array_set_size (r->nacks, 0);
  for (guint p = 0; p < OCTO_RECEIVER_MAX_PATHS; p++)
    octo_acker_init (&r->ackers[p], r->config.ack_every, r->config.ack_delay);
  r->conn_id = conn_id;
  r->stats.connections_replaced++;
}

/* A copy of a waiting message (a multipath sender resends a down path's
 * packets over another) must not complete it twice. */
static gboolean
is_waiting (const StreamState *st, guint32 msg_id)
{
  for (const GList * l = st->held.head; l; l = l->next)
    if (((const Held *) l->data)->msg.header.msg_id == msg_id)
      return TRUE;
  return FALSE;
}

OctoDataParseResult
octo_receiver_on_packet (OctoReceiver *r, const guint8 *data, gsize len,
    OctoTime now)
{
  return octo_receiver_on_path_packet (r, data, len, now, NULL);
}

OctoDataParseResult
octo_receiver_on_path_packet (OctoReceiver *r, const guint8 *data, gsize len,
    OctoTime now, gint *path_id)
{
  OctoDataPacket pkt;
  OctoDataParseResult res = octo_data_parse (data, len, &pkt, NULL);

  if (path_id)
    *path_id = -1;

  if (res != OCTO_DATA_OK) {
    r->stats.packets_invalid[res]++;
    return res;
  }
  if (!r->have_conn) {
    r->have_conn = TRUE;
    r->conn_id = pkt.conn_id;
  } else if (pkt.conn_id != r->conn_id) {
    if (is_retired (r, pkt.conn_id)) {
      r->stats.packets_stale++;
      return res;
    }
    replace_connection (r, pkt.conn_id);
  }
  if (pkt.path_id >= OCTO_RECEIVER_MAX_PATHS) {
    r->stats.packets_bad_path++;
    return res;
  }
  if (path_id)
    *path_id = pkt.path_id;
  if (!octo_acker_on_packet (&r->ackers[pkt.path_id], pkt.seq, now)) {
    r->stats.packets_duplicate++;
    return res;
  }
  r->stats.packets_received++;
  r->stats.bytes_received += len;
  if (pkt.frag_index == 0 && (pkt.info.flags & OCTO_MSG_FLAG_PADDING)) {
    r->stats.padding_packets++;
    return res;
  }

  OctoQFragment frag;
  if (pkt.flags & OCTO_DATA_FLAG_CHUNKED) {
    r->stats.packets_qualitative++;
    if (!octo_qpacket_parse (&pkt, &frag)) {
      r->stats.packets_qualitative_invalid++;
      return res;
    }
    nack_trimmed (r, &pkt, &frag);
  }
  StreamState *st = stream_state (r, pkt.header.stream_id);
  if (st->delivered_any &&
      !octo_msg_id_newer (pkt.header.msg_id, st->last_delivered)) {
    r->stats.packets_late++;
    if (pkt.frag_index == 0)
      r->stats.messages_late++;
    return res;
  }
  if (is_waiting (st, pkt.header.msg_id)) {
    r->stats.packets_duplicate++;
    return res;
  }
  if (pkt.flags & OCTO_DATA_FLAG_CHUNKED) {
    add_qualitative (r, st, &pkt, &frag, now);
    return res;
  }
  if (pkt.frag_count == 1) {
    OctoMessage msg = {
      .header = pkt.header,
      .info = pkt.info,
      .data = g_memdup2 (pkt.payload, pkt.payload_len),
      .len = pkt.payload_len,
      .first_arrival = now,
      .complete_time = now,
    };
    complete (r, st, &msg, now);
    return res;
  }
  add_fragment (r, st, &pkt, now);
  return res;
}

void
octo_receiver_on_timer (OctoReceiver *r, OctoTime now)
{
  while (r->by_age.head) {
    Partial *p = r->by_age.head->data;
    if (p->first_arrival + r->config.timeout > now)
      break;
    r->stats.messages_timed_out++;
    give_up_partial (r, p);
  }
  /* messages whose wait ended or whose older partial was just given up,
   * of every stream (a release frees entries: start over after one) */
  gboolean released;
  do {
    released = FALSE;
    for (GList * l = r->held_by_age.head; l && !released; l = l->next) {
      Held *h = l->data;
      guint16 stream_id = h->msg.header.stream_id;
      guint before = r->held_by_age.length;

      release_held (r, stream_id, stream_state (r, stream_id), now, FALSE, 0);
      released = r->held_by_age.length != before;
    }
  } while (released);
}

OctoTime
octo_receiver_next_deadline (const OctoReceiver *r)
{
  OctoTime t = OCTO_TIME_NONE;

  for (guint p = 0; p < OCTO_RECEIVER_MAX_PATHS; p++)
    t = MIN (t, octo_acker_deadline (&r->ackers[p]));
  if (r->by_age.head) {
    const Partial *p = r->by_age.head->data;
    t = MIN (t, p->first_arrival + r->config.timeout);
  }
  if (r->held_by_age.head) {
    GHashTableIter iter;
    gpointer key, value;

    g_hash_table_iter_init (&iter, r->streams);
    while (g_hash_table_iter_next (&iter, &key, &value)) {
      const StreamState *st = value;
      guint32 oldest = 0;
      gboolean resending;

      if (st->held.head == NULL)
        continue;
      resending = oldest_resending (r, (guint16) GPOINTER_TO_UINT (key), st,
          &oldest);
      for (const GList * l = st->held.head; l; l = l->next)
        t = MIN (t, held_until (r, l->data, resending, oldest));
    }
  }
  return t;
}

gsize
octo_receiver_poll_ack (OctoReceiver *r, OctoTime now, guint8 *out,
    guint8 *path_id)
{
  OctoAck ack;

  for (guint p = 0; p < OCTO_RECEIVER_MAX_PATHS; p++) {
    if (octo_acker_deadline (&r->ackers[p]) > now ||
        !octo_acker_build (&r->ackers[p], now, &ack))
      continue;
    ack.conn_id = r->conn_id;
    ack.path_id = p;
    if (!r->config.ack_timestamps)
      ack.flags &= ~OCTO_ACK_FLAG_TIMESTAMPS;
    if (now < r->keyframe_request_until)
      ack.flags |= OCTO_ACK_FLAG_KEYFRAME_REQUEST;
    if (path_id)
      *path_id = p;
    return octo_ack_write (&ack, out, OCTO_ACK_MAX_LEN);
  }
  return 0;
}

void
octo_receiver_request_keyframe (OctoReceiver *r, OctoTime now)
{
  r->keyframe_request_until = now + OCTO_RECEIVER_KEYFRAME_REQUEST_SPAN;
  r->stats.keyframe_requests++;
}

gboolean
octo_receiver_connection (const OctoReceiver *r, guint32 *conn_id)
{
  *conn_id = r->conn_id;
  return r->have_conn;
}

const OctoReceiverStats *
octo_receiver_get_stats (const OctoReceiver *receiver)
{
  return &receiver->stats;
}
