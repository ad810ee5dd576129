/* Fuzzes the ACK parser: no out-of-bounds read, a named reason for every
 * rejection, and whatever it accepts writes back to the same bytes.  The
 * accepted ACK is also fed to a sender's flight state, which must stay
 * consistent whatever ranges a hostile receiver claims. */
#include "transport/octo-flight.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  guint8 *copy = g_memdup2 (data, size);
  guint8 back[OCTO_ACK_MAX_LEN];
  OctoAck ack;
  OctoAckParseResult result = octo_ack_parse (copy, size, &ack);

  if (result >= OCTO_ACK_N_RESULTS || !octo_ack_parse_result_to_string (result))
    abort ();
  if (result == OCTO_ACK_OK) {
    gsize n = octo_ack_write (&ack, back, sizeof back);
    if (n != size || memcmp (back, copy, size) != 0)
      abort ();

    OctoFlight *flight = octo_flight_new ();
    OctoRateSample rs;
    for (guint i = 0; i < 100; i++)
      octo_flight_on_sent (flight, 1000, i * OCTO_MSECOND);
    octo_flight_on_ack (flight, &ack, 200 * OCTO_MSECOND, &rs);
    const OctoFlightStats *st = octo_flight_get_stats (flight);
    if (st->bytes_acked + st->bytes_lost + octo_flight_inflight (flight) !=
        st->bytes_sent)
      abort ();
    octo_flight_free (flight);
  }
  g_free (copy);
  return 0;
}
