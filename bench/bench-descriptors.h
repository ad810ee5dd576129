/* The packet descriptors the engine benchmarks hand to the queue, at another
 * page offset in each round.  Where the harness's descriptor sits changes the
 * figures: on the development machine, with the descriptor at one fixed
 * offset of twelve tried, the 1-stream configuration of
 * octo-bench-engine-streams cost 28 ns a packet instead of 21 (a copy that
 * waits on a store to an address with the same low 12 bits, 4K aliasing, is
 * one way this happens).  With the offset varied per round, the best of the
 * rounds measures the engine rather than where its input happened to sit. */
#pragma once

#include "octo-engine.h"

#include <string.h>

/* Two zeroed descriptors for @round: the packet to enqueue, then the one
 * dequeue fills.  Offsets step by 25 cache lines (64 distinct ones). */
static inline OctoPacket *
bench_descriptors (guint round)
{
  static guint8 arena[2 * 4096] __attribute__ ((aligned (4096)));
  OctoPacket *pair = (OctoPacket *) (arena + (round * 1600u) % 4096);

  memset (pair, 0, 2 * sizeof (OctoPacket));
  return pair;
}

