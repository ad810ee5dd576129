/* Fuzzes trimmed-fragment reassembly: the input is split into records
 * (2-byte big-endian length + bytes), each parsed as a data packet and a
 * qualitative fragment and added to the message its first valid fragment
 * started (capped at 64 KiB).  It must never read or write out of bounds,
 * and the usable segments must be the message's own and fit it. */
#include "transport/octo-qpacket.h"

#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  OctoQMessage *m = NULL;
  guint64 msg_len = 0;
  guint n_segments = 0;
  gsize pos = 0;

  while (pos + 2 <= size) {
    gsize len = MIN ((gsize) (data[pos] << 8 | data[pos + 1]), size - pos - 2);
    guint8 *copy = g_memdup2 (data + pos + 2, len);
    OctoDataPacket pkt;
    OctoQFragment frag;
    OctoNack nack;

    pos += 2 + len;
    if (octo_data_parse (copy, len, &pkt, NULL) == OCTO_DATA_OK &&
        octo_qpacket_parse (&pkt, &frag)) {
      if (octo_qpacket_nack (&pkt, &frag, &nack) &&
          (nack.trimmed == 0 || nack.trimmed > frag.chunks.n_chunks))
        abort ();
      if (!m) {
        m = octo_qmessage_new (&pkt, &frag, 64 * 1024);
        msg_len = pkt.msg_len;
        n_segments = frag.layout.n_segments;
      }
      /* a fragment the message refuses (another layout) changes nothing */
      if (m && octo_qmessage_add (m, &pkt, &frag)) {
        guint usable = octo_qmessage_usable_segments (m);
        if (usable > n_segments ||
            octo_qmessage_prefix_len (m, usable) > msg_len)
          abort ();
      }
    }
    g_free (copy);
  }
  octo_qmessage_free (m);
  return 0;
}
