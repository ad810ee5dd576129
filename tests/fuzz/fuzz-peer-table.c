/* Fuzzes octopussrc's table of senders (core/transport/octo-peer-table.c)
 * with sequences of datagrams from many addresses: the table must stay
 * within max_peers, forget everyone after peer_timeout of silence, and
 * never read past a datagram.
 *
 * Input: records of [address byte, ms since the last record, kind, ...]:
 * kind bit 0 set: a data packet built from the next 2 bytes (connection
 * id, msg_id; kind bit 1: one of two fragments, the second if bit 3 is
 * set too, else the first), sent on path_id kind >> 4 (a multipath
 * sender's paths, 8..15 out of range); clear: raw bytes, a length byte and
 * that many.  Kind bit 2: service the table after it. */
#include "transport/octo-peer-table.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PEERS 4
#define PEER_TIMEOUT (200 * OCTO_MSECOND)
#define MTU 200

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static void
on_message (OctoMessage *msg, const OctoPeer *peer, gpointer user_data)
{
  (void) peer;
  (void) user_data;
  g_free (msg->data);
}

static void
on_ack (const OctoPeer *peer, const guint8 *ack, gsize len,
    gpointer user_data)
{
  (void) peer;
  (void) ack;
  (void) len;
  (void) user_data;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  OctoPeerTableConfig config;
  OctoPeerTable *t;
  OctoTime now = 0, last_datagram = 0;
  gsize i = 0;

  octo_peer_table_config_init (&config);
  config.max_peers = MAX_PEERS;
  config.peer_timeout = PEER_TIMEOUT;
  config.evictable_idle = 50 * OCTO_MSECOND;
  config.receiver.max_partial_bytes = 4096;
  config.max_total_partial_bytes = 8192;
  t = octo_peer_table_new (&config, on_message, NULL);
  while (i + 3 <= size) {
    guint8 addr = data[i], kind = data[i + 2];
    guint8 *datagram;
    gsize len;

    now += (OctoTime) data[i + 1] * OCTO_MSECOND;
    i += 3;
    if (kind & 1) {
      OctoHeader h = { 0 };
      OctoMsgInfo info;
      guint8 msg[2 * MTU] = { 0 };
      gsize msg_len = kind & 2 ? MTU : 8;

      if (i + 2 > size)
        break;
      octo_msg_info_init (&info);
      h.msg_id = data[i + 1];
      datagram = g_malloc (MTU);
      len = octo_fragment_write (&h, &info, msg, msg_len, MTU,
          (kind & 10) == 10 ? 1 : 0, octo_fragment_count (msg_len, MTU),
          datagram);
      octo_data_stamp (datagram, data[i], data[i + 1], 0);
      octo_data_stamp_path (datagram, kind >> 4);
      i += 2;
    } else {
      if (i + 1 > size)
        break;
      len = MIN ((gsize) data[i], size - i - 1);
      /* a heap copy of exactly the datagram so ASan sees any overread */
      datagram = g_memdup2 (data + i + 1, len);
      i += 1 + len;
    }
    octo_peer_table_receive (t, &addr, 1, datagram, len, now, NULL);
    g_free (datagram);
    last_datagram = now;
    if (octo_peer_table_size (t) > MAX_PEERS)
      abort ();
    if (kind & 4)
      octo_peer_table_service (t, now, on_ack, NULL);
  }
  /* after peer_timeout of silence everyone is forgotten */
  octo_peer_table_service (t, last_datagram + PEER_TIMEOUT, on_ack, NULL);
  if (octo_peer_table_size (t) != 0)
    abort ();
  octo_peer_table_free (t);
  return 0;
}
