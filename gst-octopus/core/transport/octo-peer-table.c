/* The receiver's table of senders (octo-peer-table.h). */
#include "octo-peer-table.h"

#include <string.h>

typedef struct _Sender Sender;

/* One address a sender sends from (one path, or several sharing it). */
typedef struct {
  OctoPeer peer;                /* first: an OctoPeer * is an Address * */
  Sender *sender;
} Address;

/* One sender (one connection id at a time): its receiver, fed by every
 * address it sends from. */
struct _Sender {
  OctoPeerTable *table;
  OctoReceiver *receiver;
  Address *addrs[OCTO_PEER_MAX_ADDRS];
  guint n_addrs;
  /* where each path's ACKs go: the address of its last packet taken */
  Address *path_addr[OCTO_RECEIVER_MAX_PATHS];
  Address *current;             /* feeding the receiver now */
  OctoTime last_packet;         /* of any of its addresses */
};

struct _OctoPeerTable {
  OctoPeerTableConfig config;
  OctoPeerMessageFunc on_message;
  gpointer user_data;
  GHashTable *addrs;            /* OctoPeer (its address) -> Address */
  GPtrArray *senders;           /* Sender* */
  OctoPartialBudget budget;
  OctoReceiverStats retired;    /* counters of senders removed */
  OctoPeerTableStats stats;
};

void
octo_peer_table_config_init (OctoPeerTableConfig *config)
{
  memset (config, 0, sizeof (*config));
  config->max_peers = OCTO_PEER_TABLE_DEFAULT_MAX_PEERS;
  config->peer_timeout = OCTO_PEER_TABLE_DEFAULT_TIMEOUT;
  config->evictable_idle = OCTO_PEER_TABLE_DEFAULT_EVICTABLE_IDLE;
  octo_receiver_config_init (&config->receiver);
  config->max_total_partial_bytes = OCTO_RECEIVER_DEFAULT_PARTIAL_BUDGET;
}

static guint
peer_addr_hash (gconstpointer key)
{
  const OctoPeer *p = key;
  guint h = (guint) p->addr_len;

  for (gsize i = 0; i < p->addr_len; i++)
    h = h * 31 + p->addr[i];
  return h;
}

static gboolean
peer_addr_equal (gconstpointer x, gconstpointer y)
{
  const OctoPeer *a = x, *b = y;

  return a->addr_len == b->addr_len
      && memcmp (a->addr, b->addr, a->addr_len) == 0;
}

static void
on_receiver_message (OctoMessage *msg, gpointer user_data)
{
  Sender *sender = user_data;

  sender->table->on_message (msg, &sender->current->peer,
      sender->table->user_data);
}

OctoPeerTable *
octo_peer_table_new (const OctoPeerTableConfig *config,
    OctoPeerMessageFunc on_message, gpointer user_data)
{
  OctoPeerTable *t = g_new0 (OctoPeerTable, 1);

  t->on_message = on_message;
  t->user_data = user_data;
  t->addrs = g_hash_table_new_full (peer_addr_hash, peer_addr_equal, NULL,
      g_free);
  t->senders = g_ptr_array_new ();
  octo_peer_table_configure (t, config);
  return t;
}

static void
sender_free (Sender *sender)
{
  octo_receiver_free (sender->receiver);
  g_free (sender);
}

void
octo_peer_table_free (OctoPeerTable *t)
{
  if (!t)
    return;
  g_hash_table_unref (t->addrs);
  for (guint i = 0; i < t->senders->len; i++)
    sender_free (g_ptr_array_index (t->senders, i));
  g_ptr_array_free (t->senders, TRUE);
  g_free (t);
}

void
octo_peer_table_configure (OctoPeerTable *t, const OctoPeerTableConfig *config)
{
  t->config = *config;
  t->config.max_peers = MAX (t->config.max_peers, 1u);
  t->config.receiver.budget = &t->budget;
  t->budget.limit = config->max_total_partial_bytes;
}

/* Adds @st's counters (not its current partials) to @sum. */
static void
add_counters (OctoReceiverStats *sum, const OctoReceiverStats *st)
{
  sum->packets_received += st->packets_received;
  sum->bytes_received += st->bytes_received;
  for (guint i = 0; i < OCTO_DATA_N_RESULTS; i++)
    sum->packets_invalid[i] += st->packets_invalid[i];
  sum->packets_duplicate += st->packets_duplicate;
  sum->packets_late += st->packets_late;
  sum->padding_packets += st->padding_packets;
  sum->packets_qualitative += st->packets_qualitative;
  sum->packets_qualitative_invalid += st->packets_qualitative_invalid;
  sum->packets_trimmed += st->packets_trimmed;
  sum->chunks_trimmed += st->chunks_trimmed;
  sum->nacks_sent += st->nacks_sent;
  sum->nacks_not_sent += st->nacks_not_sent;
  sum->messages_lower_layers += st->messages_lower_layers;
  sum->messages_unusable += st->messages_unusable;
  sum->messages_delivered += st->messages_delivered;
  sum->bytes_delivered += st->bytes_delivered;
  sum->messages_late += st->messages_late;
  sum->messages_reordered += st->messages_reordered;
  sum->messages_timed_out += st->messages_timed_out;
  sum->messages_evicted += st->messages_evicted;
  sum->messages_too_large += st->messages_too_large;
  sum->messages_refused += st->messages_refused;
  sum->messages_inconsistent += st->messages_inconsistent;
  sum->messages_abandoned += st->messages_abandoned;
  sum->keyframe_requests += st->keyframe_requests;
  sum->messages_lost_across_paths += st->messages_lost_across_paths;
  sum->packets_bad_path += st->packets_bad_path;
  sum->connections_replaced += st->connections_replaced;
  sum->packets_stale += st->packets_stale;
}

/* The sender to drop for a new one, or NULL. */
static Sender *
sender_to_evict (OctoPeerTable *t, OctoTime now)
{
  Sender *unproven = NULL, *idle = NULL;

  for (guint i = 0; i < t->senders->len; i++) {
    Sender *s = g_ptr_array_index (t->senders, i);
    if (octo_receiver_get_stats (s->receiver)->messages_delivered == 0) {
      if (!unproven || s->last_packet < unproven->last_packet)
        unproven = s;
    } else if (!idle || s->last_packet < idle->last_packet) {
      idle = s;
    }
  }
  if (unproven)
    return unproven;
  if (idle && idle->last_packet + t->config.evictable_idle <= now)
    return idle;
  return NULL;
}

/* Forgets @a; its sender too when it was the sender's last address. */
static void
remove_address (OctoPeerTable *t, Address *a)
{
  Sender *s = a->sender;

  for (guint i = 0; i < s->n_addrs; i++)
    if (s->addrs[i] == a)
      s->addrs[i] = s->addrs[--s->n_addrs];
  for (guint p = 0; p < OCTO_RECEIVER_MAX_PATHS; p++)
    if (s->path_addr[p] == a)
      s->path_addr[p] = NULL;
  g_hash_table_remove (t->addrs, &a->peer);
  if (s->n_addrs > 0)
    return;
  add_counters (&t->retired, octo_receiver_get_stats (s->receiver));
  g_ptr_array_remove_fast (t->senders, s);
  sender_free (s);
}

static void
remove_sender (OctoPeerTable *t, Sender *s)
{
  while (s->n_addrs > 1)
    remove_address (t, s->addrs[0]);
  remove_address (t, s->addrs[0]);
}

/* The sender whose current connection is @conn_id, or NULL. */
static Sender *
sender_of_connection (OctoPeerTable *t, guint32 conn_id)
{
  for (guint i = 0; i < t->senders->len; i++) {
    Sender *s = g_ptr_array_index (t->senders, i);
    guint32 id;

    if (octo_receiver_connection (s->receiver, &id) && id == conn_id)
      return s;
  }
  return NULL;
}

static Address *
add_address (OctoPeerTable *t, Sender *s, const void *addr, gsize addr_len)
{
  Address *a = g_new0 (Address, 1);

  a->peer.addr_len = addr_len;
  memcpy (a->peer.addr, addr, addr_len);
  a->peer.receiver = s->receiver;
  a->sender = s;
  s->addrs[s->n_addrs++] = a;
  g_hash_table_insert (t->addrs, &a->peer, a);
  return a;
}

OctoPeerReceiveResult
octo_peer_table_receive (OctoPeerTable *t, const void *addr, gsize addr_len,
    const guint8 *data, gsize len, OctoTime now, OctoDataParseResult *parse)
{
  OctoPeer key;
  Address *a;
  Sender *s;
  OctoDataParseResult res;
  gint path;

  if (octo_packet_is_control (data, len)) {
    t->stats.packets_control++;
    return OCTO_PEER_CONTROL;
  }
  addr_len = MIN (addr_len, (gsize) OCTO_PEER_ADDR_MAX);
  key.addr_len = addr_len;
  memcpy (key.addr, addr, addr_len);
  a = g_hash_table_lookup (t->addrs, &key);
  if (!a) {
    OctoDataPacket pkt;

    res = octo_data_parse (data, len, &pkt, NULL);
    if (res != OCTO_DATA_OK) {
      t->stats.packets_invalid++;
      if (res == OCTO_DATA_BAD_VERSION)
        t->stats.packets_bad_version++;
      if (parse)
        *parse = res;
      return OCTO_PEER_UNKNOWN_INVALID;
    }
    /* Another path of a sender we know: it names that sender's
     * unpredictable connection id (docs/design.md §5, multipath). */
    s = sender_of_connection (t, pkt.conn_id);
    if (s && s->n_addrs >= OCTO_PEER_MAX_ADDRS) {
      t->stats.addresses_refused++;
      return OCTO_PEER_REFUSED;
    }
    if (s) {
      t->stats.addresses_joined++;
    } else {
      if (t->senders->len >= t->config.max_peers) {
        Sender *victim = sender_to_evict (t, now);
        if (!victim) {
          t->stats.peers_refused++;
          return OCTO_PEER_REFUSED;
        }
        t->stats.peers_evicted++;
        remove_sender (t, victim);
      }
      s = g_new0 (Sender, 1);
      s->table = t;
      s->receiver = octo_receiver_new (&t->config.receiver,
          on_receiver_message, s);
      g_ptr_array_add (t->senders, s);
    }
    a = add_address (t, s, addr, addr_len);
  }
  s = a->sender;
  a->peer.last_packet = s->last_packet = now;
  s->current = a;
  res = octo_receiver_on_path_packet (s->receiver, data, len, now, &path);
  if (path >= 0)
    s->path_addr[path] = a;
  if (parse)
    *parse = res;
  return OCTO_PEER_TAKEN;
}

/* Hands @s's due ACKs and NACKs, each to the address of its path. */
static void
send_feedback (Sender *s, OctoTime now, OctoPeerAckFunc send_ack,
    gpointer user_data)
{
  guint8 buf[OCTO_ACK_MAX_LEN];
  guint8 path;
  gsize len;

  /* QUCO: one NACK per packet a queue trimmed, ahead of the ACK that
   * covers it, so that the sender counts only what was left of it as
   * delivered (octo_flight_on_trimmed) */
  while ((len = octo_receiver_poll_nack (s->receiver, buf, &path)) > 0)
    if (s->path_addr[path])
      send_ack (&s->path_addr[path]->peer, buf, len, user_data);
  while ((len = octo_receiver_poll_ack (s->receiver, now, buf, &path)) > 0)
    if (s->path_addr[path])
      send_ack (&s->path_addr[path]->peer, buf, len, user_data);
}

OctoTime
octo_peer_table_service (OctoPeerTable *t, OctoTime now,
    OctoPeerAckFunc send_ack, gpointer user_data)
{
  GHashTableIter iter;
  gpointer value;
  OctoTime next = OCTO_TIME_NONE;
  GPtrArray *silent = g_ptr_array_new ();

  /* addresses silent for peer_timeout go; a sender with its last */
  g_hash_table_iter_init (&iter, t->addrs);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    if (((Address *) value)->peer.last_packet + t->config.peer_timeout <= now)
      g_ptr_array_add (silent, value);
  for (guint i = 0; i < silent->len; i++) {
    Address *a = g_ptr_array_index (silent, i);

    if (a->sender->n_addrs == 1)
      t->stats.peers_expired++;
    remove_address (t, a);
  }
  g_ptr_array_free (silent, TRUE);

  for (guint i = 0; i < t->senders->len; i++) {
    Sender *s = g_ptr_array_index (t->senders, i);

    octo_receiver_on_timer (s->receiver, now);
    send_feedback (s, now, send_ack, user_data);
    next = MIN (next, octo_receiver_next_deadline (s->receiver));
    for (guint k = 0; k < s->n_addrs; k++)
      next = MIN (next, s->addrs[k]->peer.last_packet +
          t->config.peer_timeout);
  }
  return next;
}

guint
octo_peer_table_size (const OctoPeerTable *t)
{
  return t->senders->len;
}

const OctoPeerTableStats *
octo_peer_table_get_stats (const OctoPeerTable *t)
{
  return &t->stats;
}

void
octo_peer_table_receiver_stats (const OctoPeerTable *t, OctoReceiverStats *sum)
{
  *sum = t->retired;
  for (guint i = 0; i < t->senders->len; i++) {
    const OctoReceiverStats *st = octo_receiver_get_stats (((Sender *)
            g_ptr_array_index (t->senders, i))->receiver);
    add_counters (sum, st);
    sum->partial_messages += st->partial_messages;
  }
}

void
octo_peer_table_request_keyframe (OctoPeerTable *t, OctoTime now)
{
  for (guint i = 0; i < t->senders->len; i++)
    octo_receiver_request_keyframe (((Sender *) g_ptr_array_index
            (t->senders, i))->receiver, now);
}

guint64
octo_peer_table_partial_bytes (const OctoPeerTable *t)
{
  return t->budget.held;
}
