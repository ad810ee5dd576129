/* gst-octopus core: the receiver's table of senders (docs/design.md §5, the
 * receiver).  One OctoReceiver per sender address; the bytes of incomplete
 * messages of all senders together are capped by one shared budget.
 *
 * Junk cannot exhaust the table: a sender gets an entry only for a datagram
 * that parses as an Octopus data packet, an entry expires after
 * peer_timeout without packets, and a full table makes room for a new
 * sender by evicting the least recently heard one that never completed a
 * message (the header's CRC-8 is no proof of a real sender), else the
 * least recently heard one if it has been idle for evictable_idle; else
 * the newcomer is refused.
 *
 * A multipath sender sends from several addresses (one per path, or paths
 * sharing one): a datagram from an unknown address that names the current
 * connection id of a known sender is another address of that sender (at
 * most OCTO_PEER_MAX_ADDRS), so its packets join the same reassembly and
 * delivery order.  The id is drawn unpredictably per connection, so an
 * off-path host cannot join a sender's stream (it guesses 1 in 2^32), and
 * a joined address takes no room in the table.  Each path's ACKs (and
 * NACKs) go to the address its last packet came from; an address expires
 * after peer_timeout of silence, the sender with its last address.
 *
 * Addresses are opaque bytes (a sockaddr in octopussrc); time is a
 * parameter. */
#pragma once

#include "octo-receiver.h"

G_BEGIN_DECLS

#define OCTO_PEER_ADDR_MAX 128
/* Addresses one sender may send from. */
#define OCTO_PEER_MAX_ADDRS OCTO_RECEIVER_MAX_PATHS

typedef struct {
  guint max_peers;
  OctoTime peer_timeout;
  OctoTime evictable_idle;
  /* each new peer's receiver config; its budget is the table's own */
  OctoReceiverConfig receiver;
  guint64 max_total_partial_bytes;      /* the shared budget's limit */
} OctoPeerTableConfig;

#define OCTO_PEER_TABLE_DEFAULT_MAX_PEERS 16
#define OCTO_PEER_TABLE_DEFAULT_TIMEOUT (10 * OCTO_SECOND)
#define OCTO_PEER_TABLE_DEFAULT_EVICTABLE_IDLE (1 * OCTO_SECOND)

void octo_peer_table_config_init (OctoPeerTableConfig *config);

/* One address of a sender; all of a sender's share its receiver. */
typedef struct {
  guint8 addr[OCTO_PEER_ADDR_MAX];
  gsize addr_len;
  OctoReceiver *receiver;
  OctoTime last_packet;
} OctoPeer;

typedef struct {
  guint64 packets_control;      /* ACK-type datagrams: not for a receiver */
  guint64 packets_invalid;      /* from unknown senders, not a data packet */
  guint64 packets_bad_version;  /* ... of them, another transport version */
  guint64 peers_refused, peers_evicted, peers_expired;
  guint64 addresses_joined;     /* another address of a known sender */
  guint64 addresses_refused;    /* ... beyond OCTO_PEER_MAX_ADDRS */
} OctoPeerTableStats;

typedef struct _OctoPeerTable OctoPeerTable;

/* A complete message; @peer: the address whose packet completed it (see
 * OctoMessageFunc for ownership). */
typedef void (*OctoPeerMessageFunc) (OctoMessage *msg, const OctoPeer *peer,
    gpointer user_data);
/* A control datagram due to @peer (the address of its path): an ACK, or a
 * QUCO NACK. */
typedef void (*OctoPeerAckFunc) (const OctoPeer *peer, const guint8 *ack,
    gsize len, gpointer user_data);

OctoPeerTable *octo_peer_table_new (const OctoPeerTableConfig *config,
    OctoPeerMessageFunc on_message, gpointer user_data);
void octo_peer_table_free (OctoPeerTable *table);

/* Later peers get the new receiver config; limits and timeouts apply from
 * now on (the budget's limit included). */
void octo_peer_table_configure (OctoPeerTable *table,
    const OctoPeerTableConfig *config);

typedef enum {
  OCTO_PEER_TAKEN,              /* a peer's receiver took it (or counted it) */
  OCTO_PEER_CONTROL,            /* an ACK-type datagram, ignored */
  OCTO_PEER_UNKNOWN_INVALID,    /* unknown sender, not a data packet */
  OCTO_PEER_REFUSED,            /* a new sender, the table is full (or a
                                 * sender's address beyond its limit) */
} OctoPeerReceiveResult;

/* One datagram from @addr.  On OCTO_PEER_TAKEN, @parse (nullable) gets the
 * receiver's verdict; on OCTO_PEER_UNKNOWN_INVALID the parser's. */
OctoPeerReceiveResult octo_peer_table_receive (OctoPeerTable *table,
    const void *addr, gsize addr_len, const guint8 *data, gsize len,
    OctoTime now, OctoDataParseResult *parse);

/* Forgets peers silent for peer_timeout, runs the others' timers and hands
 * out their due ACKs and NACKs; returns the earliest next deadline (OCTO_TIME_NONE if
 * none). */
OctoTime octo_peer_table_service (OctoPeerTable *table, OctoTime now,
    OctoPeerAckFunc send_ack, gpointer user_data);

/* Senders (not addresses). */
/* The application's decoder needs a key frame: every current sender is
 * asked (octo_receiver_request_keyframe()). */
void octo_peer_table_request_keyframe (OctoPeerTable *table, OctoTime now);

guint octo_peer_table_size (const OctoPeerTable *table);
const OctoPeerTableStats *octo_peer_table_get_stats (const OctoPeerTable *table);
/* Every receiver's counters, of peers removed too, and the current
 * peers' partial messages. */
void octo_peer_table_receiver_stats (const OctoPeerTable *table,
    OctoReceiverStats *sum);
/* Bytes of incomplete messages held by all peers. */
guint64 octo_peer_table_partial_bytes (const OctoPeerTable *table);

G_END_DECLS
