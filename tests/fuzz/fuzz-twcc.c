/* Fuzzes the transport-cc feedback mapping: the bytes script packets sent
 * and feedback reports (sequence numbers, losses, receiver timestamps,
 * sizes) as rtpsession would decode them.  It must never crash, and every
 * ACK keeps octo_twcc_on_feedback's contract: at most one per report, ack
 * times non-decreasing, never before the packet was sent nor after the
 * feedback arrived. */
#include "octo-twcc.h"

#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

#define MAX_REPORTS 64
#define MAX_SENT 4096

typedef struct {
  const uint8_t *data;
  size_t size, pos;
} Bytes;

static guint
take (Bytes *b, guint n)
{
  guint v = 0;
  for (guint i = 0; i < n; i++)
    v = v << 8 | (b->pos < b->size ? b->data[b->pos++] : 0);
  return v;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  Bytes b = { data, size, 0 };
  OctoTwcc *twcc = octo_twcc_new ();
  OctoTime now = OCTO_SECOND;
  OctoTime remote = 0;
  OctoTime sent_at[MAX_SENT];
  guint64 flight_seq = 0;
  OctoTwccReport reports[MAX_REPORTS];
  OctoTwccAck acks[MAX_REPORTS];

  while (b.pos < b.size) {
    guint op = take (&b, 1);
    now += (OctoTime) take (&b, 2) * OCTO_USECOND;
    if ((op & 1) == 0) {
      /* a packet leaves: its TWCC number, payload size */
      guint16 seq = take (&b, 2);
      if (flight_seq == MAX_SENT)
        break;
      sent_at[flight_seq] = now;
      octo_twcc_on_sent (twcc, seq, flight_seq++, take (&b, 2), now);
    } else {
      /* a feedback of up to MAX_REPORTS reports */
      guint n = (op >> 1) % (MAX_REPORTS + 1);
      for (guint i = 0; i < n; i++) {
        guint flags = take (&b, 1);
        reports[i].seqnum = take (&b, 2);
        reports[i].lost = flags & 1;
        /* receiver clocks may step back or jump: a signed delta */
        remote += ((gint64) (gint16) take (&b, 2)) * OCTO_USECOND
            << (flags >> 4);
        reports[i].remote_ts = remote;
        reports[i].size = flags & 2 ? take (&b, 2) : 0;
      }
      guint acked = octo_twcc_on_feedback (twcc, reports, n, now, acks);
      if (acked > n)
        abort ();
      for (guint i = 0; i < acked; i++) {
        if (acks[i].flight_seq >= flight_seq
            || acks[i].ack_time < sent_at[acks[i].flight_seq]
            || acks[i].ack_time > now
            || (i > 0 && acks[i].ack_time < acks[i - 1].ack_time))
          abort ();
      }
    }
  }
  const OctoTwccStats *st = octo_twcc_get_stats (twcc);
  if (st->reports_received + st->reports_lost + st->reports_unknown
      + st->reports_repeated > st->reports)
    abort ();
  octo_twcc_free (twcc);
  return 0;
}
