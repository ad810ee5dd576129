/* The receiver's table of senders (octo-peer-table.h). */
#include "octo-peer-table.h"

#include <string.h>

typedef struct {
  OctoPeer peer;                /* first: an OctoPeer * is a Peer * */
  OctoPeerTable *table;
} Peer;

struct _OctoPeerTable {
  OctoPeerTableConfig config;
  OctoPeerMessageFunc on_message;
  gpointer user_data;
  GHashTable *peers;            /* OctoPeer (its address) -> Peer */
  OctoPartialBudget budget;
  OctoReceiverStats retired;    /* counters of peers removed */
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
peer_free (Peer *peer)
{
  octo_receiver_free (peer->peer.receiver);
  g_free (peer);
}

static void
on_receiver_message (OctoMessage *msg, gpointer user_data)
{
  Peer *peer = user_data;

  peer->table->on_message (msg, &peer->peer, peer->table->user_data);
}

OctoPeerTable *
octo_peer_table_new (const OctoPeerTableConfig *config,
    OctoPeerMessageFunc on_message, gpointer user_data)
{
  OctoPeerTable *t = g_new0 (OctoPeerTable, 1);

  t->on_message = on_message;
  t->user_data = user_data;
  t->peers = g_hash_table_new_full (peer_addr_hash, peer_addr_equal, NULL,
      (GDestroyNotify) peer_free);
  octo_peer_table_configure (t, config);
  return t;
}

void
octo_peer_table_free (OctoPeerTable *t)
{
  if (!t)
    return;
  g_hash_table_unref (t->peers);
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
  sum->messages_timed_out += st->messages_timed_out;
  sum->messages_evicted += st->messages_evicted;
  sum->messages_too_large += st->messages_too_large;
  sum->messages_refused += st->messages_refused;
  sum->messages_inconsistent += st->messages_inconsistent;
  sum->messages_abandoned += st->messages_abandoned;
  sum->connections_replaced += st->connections_replaced;
  sum->packets_stale += st->packets_stale;
}

/* The peer to drop for a new one, or NULL. */
static Peer *
peer_to_evict (OctoPeerTable *t, OctoTime now)
{
  GHashTableIter iter;
  gpointer value;
  Peer *unproven = NULL, *idle = NULL;

  g_hash_table_iter_init (&iter, t->peers);
  while (g_hash_table_iter_next (&iter, NULL, &value)) {
    Peer *p = value;
    if (octo_receiver_get_stats (p->peer.receiver)->messages_delivered == 0) {
      if (!unproven || p->peer.last_packet < unproven->peer.last_packet)
        unproven = p;
    } else if (!idle || p->peer.last_packet < idle->peer.last_packet) {
      idle = p;
    }
  }
  if (unproven)
    return unproven;
  if (idle && idle->peer.last_packet + t->config.evictable_idle <= now)
    return idle;
  return NULL;
}

static void
remove_peer (OctoPeerTable *t, Peer *peer)
{
  add_counters (&t->retired, octo_receiver_get_stats (peer->peer.receiver));
  g_hash_table_remove (t->peers, &peer->peer);
}

OctoPeerReceiveResult
octo_peer_table_receive (OctoPeerTable *t, const void *addr, gsize addr_len,
    const guint8 *data, gsize len, OctoTime now, OctoDataParseResult *parse)
{
  OctoPeer key;
  Peer *peer;
  OctoDataParseResult res;

  if (octo_packet_is_control (data, len)) {
    t->stats.packets_control++;
    return OCTO_PEER_CONTROL;
  }
  addr_len = MIN (addr_len, (gsize) OCTO_PEER_ADDR_MAX);
  key.addr_len = addr_len;
  memcpy (key.addr, addr, addr_len);
  peer = g_hash_table_lookup (t->peers, &key);
  if (!peer) {
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
    if (g_hash_table_size (t->peers) >= t->config.max_peers) {
      Peer *victim = peer_to_evict (t, now);
      if (!victim) {
        t->stats.peers_refused++;
        return OCTO_PEER_REFUSED;
      }
      t->stats.peers_evicted++;
      remove_peer (t, victim);
    }
    peer = g_new0 (Peer, 1);
    peer->peer.addr_len = addr_len;
    memcpy (peer->peer.addr, addr, addr_len);
    peer->table = t;
    peer->peer.receiver = octo_receiver_new (&t->config.receiver,
        on_receiver_message, peer);
    g_hash_table_insert (t->peers, &peer->peer, peer);
  }
  peer->peer.last_packet = now;
  res = octo_receiver_on_packet (peer->peer.receiver, data, len, now);
  if (parse)
    *parse = res;
  return OCTO_PEER_TAKEN;
}

OctoTime
octo_peer_table_service (OctoPeerTable *t, OctoTime now,
    OctoPeerAckFunc send_ack, gpointer user_data)
{
  GHashTableIter iter;
  gpointer value;
  OctoTime next = OCTO_TIME_NONE;
  guint8 ack[OCTO_ACK_MAX_LEN];

  g_hash_table_iter_init (&iter, t->peers);
  while (g_hash_table_iter_next (&iter, NULL, &value)) {
    Peer *peer = value;
    gsize len;

    if (peer->peer.last_packet + t->config.peer_timeout <= now) {
      t->stats.peers_expired++;
      add_counters (&t->retired,
          octo_receiver_get_stats (peer->peer.receiver));
      g_hash_table_iter_remove (&iter);
      continue;
    }
    octo_receiver_on_timer (peer->peer.receiver, now);
    len = octo_receiver_poll_ack (peer->peer.receiver, now, ack);
    if (len > 0)
      send_ack (&peer->peer, ack, len, user_data);
    /* QUCO: one NACK per packet a queue trimmed */
    while ((len = octo_receiver_poll_nack (peer->peer.receiver, ack)) > 0)
      send_ack (&peer->peer, ack, len, user_data);
    next = MIN (next, octo_receiver_next_deadline (peer->peer.receiver));
    next = MIN (next, peer->peer.last_packet + t->config.peer_timeout);
  }
  return next;
}

guint
octo_peer_table_size (const OctoPeerTable *t)
{
  return g_hash_table_size (t->peers);
}

const OctoPeerTableStats *
octo_peer_table_get_stats (const OctoPeerTable *t)
{
  return &t->stats;
}

void
octo_peer_table_receiver_stats (const OctoPeerTable *t, OctoReceiverStats *sum)
{
  GHashTableIter iter;
  gpointer value;

  *sum = t->retired;
  g_hash_table_iter_init (&iter, t->peers);
  while (g_hash_table_iter_next (&iter, NULL, &value)) {
    const OctoReceiverStats *st =
        octo_receiver_get_stats (((Peer *) value)->peer.receiver);
    add_counters (sum, st);
    sum->partial_messages += st->partial_messages;
  }
}

guint64
octo_peer_table_partial_bytes (const OctoPeerTable *t)
{
  return t->budget.held;
}
