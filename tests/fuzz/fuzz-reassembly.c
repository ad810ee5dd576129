/* Fuzzes the receiver with a stream of datagrams: the input is split into
 * records (2-byte big-endian length + bytes), each fed to one OctoReceiver
 * under tight memory caps.  It must never read or write out of bounds, stay
 * within its caps, and deliver only messages of their announced length
 * (a layered one: exactly its delivered layers' lengths);
 * qualitative (trimmed) fragments take the same path, and every NACK it
 * queues must parse. */
#include "transport/octo-receiver.h"

#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static void
check_message (OctoMessage *msg, gpointer user_data)
{
  guint64 layers = 0;

  (void) user_data;
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

  octo_receiver_config_init (&config);
  config.max_partial_messages = 4;
  config.max_partial_bytes = 64 * 1024;
  r = octo_receiver_new (&config, check_message, NULL);
  while (pos + 2 <= size) {
    gsize len = ((gsize) data[pos] << 8) | data[pos + 1];
    pos += 2;
    len = MIN (len, size - pos);
    guint8 *pkt = g_memdup2 (data + pos, len);
    octo_receiver_on_packet (r, pkt, len, now);
    g_free (pkt);
    pos += len;
    now += OCTO_MSECOND;
    const OctoReceiverStats *st = octo_receiver_get_stats (r);
    if (st->partial_messages > config.max_partial_messages ||
        st->partial_bytes > config.max_partial_bytes)
      abort ();
    guint8 ack[OCTO_ACK_MAX_LEN], nack[OCTO_NACK_LEN];
    octo_receiver_poll_ack (r, now, ack, NULL);
    OctoNack parsed;
    while (octo_receiver_poll_nack (r, nack, NULL) > 0)
      if (octo_nack_parse (nack, OCTO_NACK_LEN, &parsed) != OCTO_NACK_OK)
        abort ();
  }
  octo_receiver_on_timer (r, now + 10 * OCTO_SECOND);
  octo_receiver_free (r);
  return 0;
}
