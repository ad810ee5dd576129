/* Fuzzes the engine with an arbitrary mix of arrivals and departures whose
 * headers come from the input bytes (so the parser is fuzzed too).  Checks:
 * every payload comes back exactly once, byte accounting matches, and the
 * buffer limit holds.
 *
 * Input: a sequence of records.  Byte 0 of a record is an opcode:
 *   0x00-0x9f  enqueue: next 12 bytes are the header (parsed; a rejected
 *              header enqueues the packet untagged), next byte size/8,
 *              next byte source (low 2 bits)
 *   0xa0-0xef  dequeue (opcode & 7) + 1 packets
 *   0xf0-0xff  advance time by (opcode & 15) ms, set external bandwidth */
#include "octo-engine.h"

#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

#define LIMIT_BYTES 4000

typedef struct {
  guint64 outstanding;
  guint64 outstanding_bytes;
} Ledger;

static void
on_drop (const OctoPacket *packet, OctoDropReason reason, gpointer user_data)
{
  Ledger *ledger = user_data;

  if (reason >= OCTO_DROP_N_REASONS || ledger->outstanding == 0)
    abort ();
  if (GPOINTER_TO_UINT (packet->data) != packet->size)
    abort ();                   /* payload and descriptor got separated */
  ledger->outstanding--;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  OctoEngineConfig config;
  OctoEngine *engine;
  Ledger ledger = { 0 };
  OctoTime now = 0;
  size_t i = 0;

  octo_engine_config_init (&config);
  config.limit_bytes = LIMIT_BYTES;
  config.limit_packets = 32;
  config.max_streams = 4;
  config.bw_source = size > 0 && (data[0] & 1) ? OCTO_BW_EXTERNAL :
      OCTO_BW_MEASURED;
  engine = octo_engine_new (&config, on_drop, &ledger);

  while (i < size) {
    guint8 op = data[i++];
    if (op < 0xa0) {
      OctoPacket p = { 0 };
      if (size - i < OCTO_WIRE_HEADER_LEN + 2)
        break;
      p.tagged = octo_header_parse (data + i, OCTO_WIRE_HEADER_LEN,
          &p.header) == OCTO_PARSE_OK;
      i += OCTO_WIRE_HEADER_LEN;
      p.size = 1 + data[i++] * 8u;
      p.source = data[i++] & 3;
      p.data = GUINT_TO_POINTER (p.size);
      ledger.outstanding++;
      octo_engine_enqueue (engine, &p, now);
    } else if (op < 0xf0) {
      for (guint n = 0; n <= (op & 7u); n++) {
        OctoPacket out;
        if (!octo_engine_dequeue (engine, now, &out))
          break;
        if (GPOINTER_TO_UINT (out.data) != out.size || ledger.outstanding == 0)
          abort ();
        ledger.outstanding--;
      }
    } else {
      now += (op & 15u) * OCTO_MSECOND;
      octo_engine_set_bandwidth (engine, (op & 15u) * 100000u);
    }
    if (octo_engine_queued_bytes (engine) > LIMIT_BYTES)
      abort ();
    if (octo_engine_queued_packets (engine) > ledger.outstanding)
      abort ();
  }
  /* everything still queued is handed back by free */
  octo_engine_free (engine);
  if (ledger.outstanding != 0)
    abort ();
  return 0;
}
