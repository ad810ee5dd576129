/* gst-octopus core: the queue's delivery-rate estimate and max-min shares.
 *
 * The delivery rate (docs/design.md rule 6) is measured over the departures of the
 * last 50 ms, reaching further back until the window holds >= 5 departures,
 * as bytes of departures 2..k divided by the time the queue was busy
 * (non-empty) between departure 1 and k, departure 1 being the last one
 * before the window (the fence post: the time the window's first departure
 * waited counts).  Busy time since the last departure
 * beyond one mean service interval is added, so the estimate falls during an
 * outage instead of freezing.  It is unknown until 5 departures were seen and
 * after 1 s without any; a queue that was never busy while sending is
 * OCTO_BW_UNLIMITED. */
#pragma once

#include "octo-types.h"

G_BEGIN_DECLS

#define OCTO_RATE_WINDOW (50 * OCTO_MSECOND)
#define OCTO_RATE_MIN_DEPARTURES 5
#define OCTO_RATE_STALE (1 * OCTO_SECOND)
/* Departures remembered; at higher rates the window spans fewer than 50 ms. */
#define OCTO_RATE_HISTORY 4096

typedef struct _OctoRateMeter OctoRateMeter;

OctoRateMeter *octo_rate_meter_new (void);
void octo_rate_meter_free (OctoRateMeter *meter);

/* The queue became non-empty (@busy TRUE) or empty at @now.  Call on every
 * change; repeated calls with the same state are harmless. */
void octo_rate_meter_set_busy (OctoRateMeter *meter, gboolean busy,
    OctoTime now);
void octo_rate_meter_departure (OctoRateMeter *meter, guint32 bytes,
    OctoTime now);
/* Bits/s, OCTO_BW_UNKNOWN or OCTO_BW_UNLIMITED. */
guint64 octo_rate_meter_rate (OctoRateMeter *meter, OctoTime now);
/* Start of the window the last rate() used (for arrival rates "over the
 * same window"); meaningful right after a rate() that returned a rate, not
 * OCTO_BW_UNKNOWN. */
OctoTime octo_rate_meter_window_start (const OctoRateMeter *meter);

/* Arrival-rate history of one stream: bytes per time in the newest
 * @capacity samples (a power of two).  Arrivals in one aligned bucket of
 * 2^@bucket_shift ns share a sample, which holds the newest of their times
 * and the bytes up to it, so a rate over (start, now] counts the bucket that
 * straddles @start whole (at most one bucket's bytes too many).  Its
 * counters and its samples are separate so that an owner of many histories
 * (the engine) keeps the counters in a small hot record and the samples
 * elsewhere; OctoArrivalMeter holds both. */
typedef struct {
  OctoTime time;
  guint64 cum_bytes;            /* bytes arrived up to and with this instant */
} OctoArrivalSample;

typedef struct {
  guint64 total_bytes;
  OctoTime newest;              /* time of the newest sample, if count > 0 */
  guint16 head;                 /* next slot */
  guint16 count;
  /* > 0 while a sample older than the one before it (time went back) is
   * still in the history: its searches then bisect as if it were sorted */
  guint16 disorder;
} OctoArrivalCounters;

/* Stores only (the newest time is a counter): in a queue of many streams the
 * samples are the one part of a stream's history not in cache.  Inline: it
 * runs for every packet a queue takes. */
static inline void
octo_arrival_history_add (OctoArrivalCounters *c, OctoArrivalSample *samples,
    guint32 capacity, guint bucket_shift, guint32 bytes, OctoTime now)
{
  guint32 mask = capacity - 1;

  c->total_bytes += bytes;
  if (c->count > 0 && (c->newest >> bucket_shift) == (now >> bucket_shift)) {
    guint32 prev = (c->head + mask) & mask;
    samples[prev].cum_bytes = c->total_bytes;
    if (now > c->newest)
      samples[prev].time = c->newest = now;
    return;
  }
  if (c->count > 0 && now < c->newest)
    c->disorder = capacity;
  else if (c->disorder > 0)
    c->disorder--;
  samples[c->head].time = now;
  samples[c->head].cum_bytes = c->total_bytes;
  c->newest = now;
  c->head = (c->head + 1) & mask;
  if (c->count < capacity)
    c->count++;
}

/* Bits/s of arrivals in (start, now]; if the history does not reach back to
 * @start, over the span it covers. */
guint64 octo_arrival_history_rate (const OctoArrivalCounters *counters,
    const OctoArrivalSample *samples, guint32 capacity, OctoTime start,
    OctoTime now);

/* A history of its own: every instant a sample, the newest 256. */
#define OCTO_ARRIVAL_HISTORY 256
typedef struct {
  OctoArrivalCounters counters;
  OctoArrivalSample entry[OCTO_ARRIVAL_HISTORY];
} OctoArrivalMeter;

void octo_arrival_meter_init (OctoArrivalMeter *meter);
void octo_arrival_meter_add (OctoArrivalMeter *meter, guint32 bytes,
    OctoTime now);
/* Bits/s of arrivals in (start, now]; if the history does not reach back to
 * @start, over the span it covers. */
guint64 octo_arrival_meter_rate (const OctoArrivalMeter *meter,
    OctoTime start, OctoTime now);

/* Max-min fair (water-filling) allocation of @capacity among @n demands.
 * @alloc[i] <= demands[i]; unused capacity stays unallocated. */
void octo_fair_share (const guint64 *demands, guint n, guint64 capacity,
    guint64 *alloc);
/* The bandwidth stream @index could use: its max-min allocation if its own
 * demand were unbounded (the water level it sees). */
guint64 octo_fair_share_for (const guint64 *demands, guint n,
    guint64 capacity, guint index);
/* The same water level for a claimant whose demand is unbounded among @n
 * others; sorts @others in place, allocates nothing. */
guint64 octo_fair_share_level (guint64 *others, guint n, guint64 capacity);
/* The same for a claimant among @n demands @sorted ascending with prefix sums
 * (@prefix[k] = sum of the first k, n + 1 entries), leaving out the demand at
 * index @skip (its own; @skip >= n: none): O(log n).  @rank_hint (or NULL)
 * is where the search starts and receives where the level was found: with
 * the last call's, a level near the last one costs O(log distance). */
guint64 octo_fair_share_level_sorted (const guint64 *sorted,
    const guint64 *prefix, guint n, guint skip, guint64 capacity,
    guint *rank_hint);

G_END_DECLS
