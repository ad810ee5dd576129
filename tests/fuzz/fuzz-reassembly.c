/* Fuzzes the receiver with a stream of datagrams: the input is split into
 * records (2-byte big-endian length + bytes), each fed to one OctoReceiver
 * under tight memory caps and a 5 ms reorder wait, its timer run after
 * each; 10 s after the last nothing may still wait.  It must never read or
 * write out of bounds, stay within its caps,
 * deliver only messages of their announced length (a layered one: exactly
 * its delivered layers' lengths) and, per stream and connection (a new one
 * at each replacement), in increasing msg_id order; qualitative (trimmed)
 * fragments take the same path, and every NACK it queues must parse. */
#include "transport/octo-receiver.h"

#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

typedef struct {
  OctoReceiver *receiver;
  gboolean have_conn;
  guint32 conn_id;
  guint64 replaced;             /* the receiver's connections_replaced */
  GHashTable *last_id;          /* stream_id -> last msg_id delivered */
} Order;

static void
check_order (Order *o, const OctoMessage *msg)
{
  guint32 conn_id = 0;
  guint64 replaced = octo_receiver_get_stats (o->receiver)->connections_replaced;
  gpointer stream = GUINT_TO_POINTER ((guint) msg->header.stream_id);
  gpointer last;

  /* a connection id replaced more than OCTO_RECEIVER_RETIRED_CONNS
   * connections ago is forgotten: back, it is a new connection */
  octo_receiver_connection (o->receiver, &conn_id);
  if (!o->have_conn || conn_id != o->conn_id || replaced != o->replaced)
    g_hash_table_remove_all (o->last_id);
  o->have_conn = TRUE;
  o->conn_id = conn_id;
  o->replaced = replaced;
  if (g_hash_table_lookup_extended (o->last_id, stream, NULL, &last)
      && !octo_msg_id_newer (msg->header.msg_id, GPOINTER_TO_UINT (last)))
    abort ();
  g_hash_table_insert (o->last_id, stream,
      GUINT_TO_POINTER (msg->header.msg_id));
}

static void
check_message (OctoMessage *msg, gpointer user_data)
{
  guint64 layers = 0;

  check_order (user_data, msg);
  if (msg->len > 64 * 1024 || msg->layers_delivered > msg->layers_sent ||
      msg->layers_sent > OCTO_CHUNKS_MAX)
    abort ();
  /* octopussrc cuts the message into these layers */
  for (guint i = 0; i < msg->layers_delivered; i++)
    layers += msg->layer_len[i];
  if (msg->layers_delivered > 0 && layers != msg->len)
    abort ();
  g_free (msg->data);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  OctoReceiverConfig config;
  OctoReceiver *r;
  gsize pos = 0;
  OctoTime now = 0;
  Order order = { 0 };

  octo_receiver_config_init (&config);
  config.max_partial_messages = 4;
  config.max_partial_bytes = 64 * 1024;
  config.reorder_wait = 5 * OCTO_MSECOND;
  order.last_id = g_hash_table_new (NULL, NULL);
  r = octo_receiver_new (&config, check_message, &order);
  order.receiver = r;
  while (pos + 2 <= size) {
    gsize len = ((gsize) data[pos] << 8) | data[pos + 1];
    pos += 2;
    len = MIN (len, size - pos);
    guint8 *pkt = g_memdup2 (data + pos, len);
    octo_receiver_on_packet (r, pkt, len, now);
    g_free (pkt);
    pos += len;
    now += OCTO_MSECOND;
    octo_receiver_on_timer (r, now);
    const OctoReceiverStats *st = octo_receiver_get_stats (r);
    if (st->partial_messages > config.max_partial_messages ||
        st->partial_bytes + st->waiting_bytes > config.max_partial_bytes)
      abort ();
    guint8 ack[OCTO_ACK_MAX_LEN], nack[OCTO_NACK_LEN];
    octo_receiver_poll_ack (r, now, ack, NULL);
    OctoNack parsed;
    while (octo_receiver_poll_nack (r, nack, NULL) > 0)
      if (octo_nack_parse (nack, OCTO_NACK_LEN, &parsed) != OCTO_NACK_OK)
        abort ();
  }
  octo_receiver_on_timer (r, now + 10 * OCTO_SECOND);
  if (octo_receiver_get_stats (r)->waiting_messages != 0)
    abort ();
  octo_receiver_free (r);
  g_hash_table_unref (order.last_id);
  return 0;
}
