/* Fuzzes a sender's ACK handling past the parser: a BBR sender with 64
 * packets in flight is fed the input as a sequence of control datagrams
 * (records: 2-byte big-endian length + bytes), 5 ms apart, then keeps
 * sending.  Whatever ranges, delays and repeats a hostile or broken
 * receiver claims, no read or write goes out of bounds, the sender keeps
 * pacing, and the flight's accounts balance (acked + lost + in flight =
 * sent).
 * The connection id and initial sequence number are fixed here so the
 * seeds (valid ACKs) reach the flight and BBR. */
#include "transport/octo-sender.h"

#include <stdint.h>
#include <stdlib.h>

#define CONN_ID 0x01020304u
#define MTU 1200
#define IN_FLIGHT 64

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static OctoTime
send_all (OctoSender *s, OctoTime now, guint8 *buf)
{
  OctoTime wake = now;

  /* until the send buffer is empty: the pacer's and window's waits only,
   * so the flight's loss timer has not fired before the ACKs come */
  for (guint i = 0; i < 1000 && octo_sender_queued_packets (s) > 0; i++) {
    if (octo_sender_poll (s, now, buf, &wake) == 0) {
      if (wake == OCTO_TIME_NONE || wake > now + OCTO_SECOND)
        break;
      now = MAX (now + 1, wake);
    }
  }
  return now;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  OctoSenderConfig config;
  OctoSenderStats st;
  OctoHeader params = { .stream_id = 1 };
  OctoMsgInfo info;
  guint8 msg[MTU / 2] = { 0 }, buf[MTU];
  OctoTime now = 0;
  gboolean accepted;
  gsize pos = 0;

  octo_sender_config_init (&config);
  config.mtu = MTU;
  config.conn_id = CONN_ID;
  config.isn = 0;
  config.probe = FALSE;
  OctoSender *s = octo_sender_new (&config, now);
  octo_msg_info_init (&info);
  for (guint i = 0; i < IN_FLIGHT; i++)
    octo_sender_submit (s, &params, &info, msg, sizeof msg, now, &accepted);
  now = send_all (s, now, buf);

  while (pos + 2 <= size) {
    gsize len = ((gsize) data[pos] << 8) | data[pos + 1];
    pos += 2;
    len = MIN (len, size - pos);
    guint8 *ack = g_memdup2 (data + pos, len);
    now += 5 * OCTO_MSECOND;
    octo_sender_on_control (s, ack, len, now);
    g_free (ack);
    pos += len;
  }
  for (guint i = 0; i < 8; i++)
    octo_sender_submit (s, &params, &info, msg, sizeof msg, now, &accepted);
  now = send_all (s, now + OCTO_MSECOND, buf);

  octo_sender_get_stats (s, &st);
  const OctoFlightStats *f = st.session.flight;
  if (f->bytes_acked + f->bytes_lost + st.session.inflight != f->bytes_sent)
    abort ();
  octo_sender_free (s);
  return 0;
}
