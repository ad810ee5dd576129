/* The Octopus dropping engine; the rules are listed in octo-engine.h and
 * docs/design.md.  Storage is a ring of packet descriptors; messages and streams
 * are small records the descriptors point to, so the per-packet work is a
 * cached lookup and a few counters.  With thousands of active streams a
 * packet's cost is its cache misses and a stream's memory: its hot record is
 * a few cache lines; messages with packets queued have a one-line record,
 * carved from aligned blocks; once nothing of a message is queued, its
 * decision shrinks to 16 bytes in the stream's ring of idle decisions; and
 * arrivals are sampled per millisecond, not per packet (1 KB a stream). */
#include "octo-engine.h"
#include "octo-rate.h"

#include <stdlib.h>
#include <string.h>

/* Connection ids a stream remembers as replaced (their late packets). */
#define STREAM_REPLACED 4
/* Decisions on messages with no packet queued, kept per stream so that late
 * or reordered packets of a message still meet its decision: those of the 32
 * messages whose records were made last (the one made first forgotten
 * first), none older than OCTO_ENGINE_RECORD_AGE.  A power of two. */
#define IDLE_DECISIONS 32
/* A stream's arrival history (a power of two) and its sampling: arrivals in
 * one aligned 2^20 ns (1.05 ms) bucket share a sample, so 64 samples reach
 * back more than 62 buckets (65 ms), past the 50 ms rate window of a busy
 * queue. */
#define STREAM_ARRIVAL_SAMPLES 64
#define STREAM_ARRIVAL_BUCKET_SHIFT 20
/* A stream with nothing queued for this long may be forgotten to make room
 * for a new one (its partial messages are dead by then). */
#define STREAM_IDLE_EVICT (1 * OCTO_SECOND)
#define MIN_RING_SLOTS 256
/* Up to this many other streams active in the rate window, a stream's share
 * is computed afresh from their arrival rates at each decision; beyond it,
 * from a snapshot of their rates at most one window old. */
#define EXACT_SHARE_STREAMS 8

typedef enum {
  MSG_UNDECIDED = 0,
  MSG_COMMITTED,
  MSG_DROPPED,
} MessageState;

typedef struct _Stream Stream;
typedef struct _Message Message;

/* IdleDecision.bits: the state, the priority and two flags */
#define IDLE_STATE_MASK 0x03
#define IDLE_PRIORITY_SHIFT 2
#define IDLE_SENT_ANY 0x20
#define IDLE_DISCARD_ARRIVALS 0x40

/* A decided message with nothing queued: four to a cache line.  The ring
 * keeps them in the order their records were made, oldest first. */
typedef struct {
  OctoTime last_active;
  guint32 msg_id;
  guint16 made;                 /* Message.made */
  guint8 reason;
  guint8 bits;                  /* state MSG_UNDECIDED: taken back into a
                                   record by a late packet */
} IdleDecision;

/* One cache line: aligned blocks of them (MessageBlock). */
struct _Message {
  _Alignas (64) Stream *stream;
  Message *prev, *next;         /* the stream's open messages, arrival order */
  OctoTime head_time;           /* when this queue saw its first packet */
  guint32 msg_id;
  guint32 queued;               /* its packets in the ring, alive */
  guint32 epoch;                /* the stream's epoch it belongs to */
  guint8 state;
  guint8 reason;                /* OctoDropReason once dropped */
  guint8 priority;
  guint8 sent_any;
  guint8 discard_arrivals;      /* partly sent, then overflowed */
  guint8 taken_back;            /* its decision has a slot in the ring */
  /* the stream's count of records made, when this one was: its place in
   * the ring (exact while the records made since the oldest decision kept
   * or record queued number fewer than 2^16) */
  guint16 made;
};

/* Small blocks, and free records reused in turn (first freed, first reused):
 * the few records in use at a time cycle through a block that stays in L1,
 * and no one record's placement (a cache-set or way-predictor conflict with
 * a hot line, which on the development machine cost one configuration 15 ns
 * a packet in some processes) is paid by every message. */
#define MESSAGES_PER_BLOCK 15
typedef struct _MessageBlock MessageBlock;
struct _MessageBlock {
  MessageBlock *next;
  Message message[MESSAGES_PER_BLOCK];
};

#define STREAM_LINE 64

/* Cache-line aligned; what every packet or message touches is in its first
 * two lines, the fields of rarer events (droppers, restarts, fair shares
 * among many streams) after them. */
struct _Stream {
  /* line 0: the lookup, recency and the newest message */
  _Alignas (STREAM_LINE) guint64 source; /* with stream_id, the hash table's key */
  guint16 stream_id;
  guint8 has_max_id;
  guint8 dropper_valid;         /* bit t: dropper[t] holds an id */
  guint32 connection;           /* the sender's current connection id, 0 unknown */
  Stream *older, *newer;        /* every stream, by last arrival */
  OctoTime last_arrival;
  Message *newest;              /* records of queued messages, by creation */
  guint32 queued;
  guint32 epoch;                /* octo_engine_reset_stream() count */
  guint32 max_id;               /* newest msg_id seen, if has_max_id */
  guint32 n_open;
  /* line 1: arrivals, emptiness and the idle decisions */
  _Alignas (STREAM_LINE) guint16 idle_head;     /* next slot of idle[] */
  guint16 idle_count;
  guint16 made;                 /* records made, modulo 2^16 */
  guint16 idle_newest_made;     /* .made of the newest idle decision kept */
  /* newest's msg_id and epoch, if newest: a message's first packet is
   * told from its others without reading the previous message's record */
  guint32 newest_id;
  OctoArrivalCounters arrivals;
  OctoTime emptied;             /* when queued last fell to 0 */
  Message *oldest;
  guint32 newest_epoch;
  /* line 2: its share among many active streams, and restarts */
  /* == engine's: snapshot_demand is in it */
  _Alignas (STREAM_LINE) guint32 snapshot_id;
  guint32 share_snapshot_id;    /* share and skip are from that snapshot */
  guint32 snapshot_skip;        /* its own rate's index there, or beyond */
  guint64 snapshot_demand;
  guint64 share_bw;             /* ... for that bandwidth */
  guint64 share;
  guint32 replaced[STREAM_REPLACED];    /* connection ids it replaced */
  /* line 3: droppers, read only while dropper_valid says so */
  _Alignas (STREAM_LINE) guint32 dropper[OCTO_N_PRIORITIES];
  /* then what only some packets touch, never zeroed: the sample, written
   * by every packet but moving on once a ms, and the ring, written when a
   * message goes idle */
  _Alignas (STREAM_LINE) OctoArrivalSample arrival_samples[STREAM_ARRIVAL_SAMPLES];
  IdleDecision idle[IDLE_DECISIONS];
};

/* each line's fields fit in it */
G_STATIC_ASSERT (G_STRUCT_OFFSET (Stream, idle_head) == STREAM_LINE);
G_STATIC_ASSERT (G_STRUCT_OFFSET (Stream, snapshot_id) == 2 * STREAM_LINE);
G_STATIC_ASSERT (G_STRUCT_OFFSET (Stream, dropper) == 3 * STREAM_LINE);
G_STATIC_ASSERT (G_STRUCT_OFFSET (Stream, arrival_samples) == 4 * STREAM_LINE);
G_STATIC_ASSERT (sizeof (IdleDecision) == 16);

typedef struct {
  OctoPacket packet;
  Message *msg;                 /* NULL: plain FIFO packet */
  OctoTime enqueue_time;
  gboolean dead;                /* discarded by overflow, slot not yet reused */
} Entry;

struct _OctoEngine {
  OctoEngineConfig config;
  OctoDropFunc drop_func;
  gpointer user_data;

  Entry *ring;
  guint32 capacity;             /* allocated slots, power of two */
  guint32 max_slots;            /* limit_packets rounded up to a power of two */
  guint32 front, n_slots;       /* occupied slots incl. dead */
  guint32 n_dead;
  guint64 bytes;                /* alive packets only */
  gboolean busy;                /* alive packets queued, as the rate meter knows */

  /* open addressing, linear probing, at most half full: one cache line per
   * lookup besides the stream itself */
  struct {
    Stream *stream;             /* NULL: free */
    guint32 hash;
  } *table;
  guint32 table_mask;
  guint64 hash_seed;            /* placement only, never a decision */
  Stream *least_recent, *most_recent;   /* by last arrival */
  guint32 n_streams;
  Stream *last_stream;
  Message *free_messages, *free_tail;   /* first freed first */
  MessageBlock *message_blocks;

  OctoRateMeter *rate;
  OctoArrivalMeter untagged_arrivals;   /* FIFO traffic competes for BW too */
  guint64 external_bw;
  guint64 demands[EXACT_SHARE_STREAMS + 1];    /* scratch for fair shares */
  /* the arrival rates of the streams active in one window, ascending, with
   * prefix sums, for queues with many active streams */
  guint64 *snapshot, *snapshot_prefix;
  guint32 snapshot_n;
  guint32 snapshot_id;          /* 0: none taken */
  OctoTime snapshot_time;
  guint snapshot_level_rank;    /* where the last share's level was found */

  OctoEngineStats stats;
};

/* MurmurHash3's finaliser over the key and a per-engine seed: senders who
 * pick their ports cannot aim at one probe run without knowing the seed. */
static guint32
stream_hash (const OctoEngine *e, guint64 source, guint16 stream_id)
{
  guint64 h = (source ^ e->hash_seed) * 0x9e3779b97f4a7c15ull + stream_id;

  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ull;
  h ^= h >> 33;
  return (guint32) h;
}

static gint
compare_demands (gconstpointer a, gconstpointer b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;
  return x < y ? -1 : x > y;
}

void
octo_engine_config_init (OctoEngineConfig *config)
{
  memset (config, 0, sizeof (*config));
  config->limit_bytes = OCTO_ENGINE_DEFAULT_LIMIT_BYTES;
  config->rules = TRUE;
  config->bw_source = OCTO_BW_MEASURED;
}

OctoEngine *
octo_engine_new (const OctoEngineConfig *config, OctoDropFunc drop_func,
    gpointer user_data)
{
  OctoEngine *e = g_new0 (OctoEngine, 1);
  guint32 want;

  e->config = *config;
  if (e->config.limit_packets == 0)
    e->config.limit_packets = MAX (16, e->config.limit_bytes / 64);
  if (e->config.max_streams == 0)
    e->config.max_streams = 1024;
  e->drop_func = drop_func;
  e->user_data = user_data;

  want = e->config.limit_packets;
  e->max_slots = 16;
  while (e->max_slots < want && e->max_slots < (1u << 30))
    e->max_slots <<= 1;
  e->capacity = MIN (e->max_slots, MIN_RING_SLOTS);
  e->ring = g_new0 (Entry, e->capacity);
  octo_arrival_meter_init (&e->untagged_arrivals);

  e->table_mask = 1;
  while (e->table_mask < 2 * e->config.max_streams)
    e->table_mask <<= 1;
  e->table = g_malloc0_n (e->table_mask, sizeof (*e->table));
  e->table_mask--;
  e->hash_seed = GPOINTER_TO_SIZE (e) * 0x9e3779b97f4a7c15ull;
  e->rate = octo_rate_meter_new ();
  e->snapshot = g_new (guint64, e->config.max_streams + 1);
  e->snapshot_prefix = g_new (guint64, e->config.max_streams + 2);
  return e;
}

static void
free_stream (Stream *s)
{
  free (s);
}

void
octo_engine_free (OctoEngine *e)
{
  if (!e)
    return;
  /* hand every queued payload back before the records go */
  for (guint32 i = 0; i < e->n_slots; i++) {
    Entry *entry = &e->ring[(e->front + i) & (e->capacity - 1)];
    if (!entry->dead && e->drop_func)
      e->drop_func (&entry->packet, OCTO_DROP_OVERFLOW, e->user_data);
  }
  g_free (e->table);
  while (e->least_recent) {
    Stream *s = e->least_recent;
    e->least_recent = s->newer;
    free_stream (s);
  }
  while (e->message_blocks) {
    MessageBlock *block = e->message_blocks;
    e->message_blocks = block->next;
    free (block);
  }
  octo_rate_meter_free (e->rate);
  g_free (e->snapshot);
  g_free (e->snapshot_prefix);
  g_free (e->ring);
  g_free (e);
}

/* ---- streams and messages ---- */

static void
release_message (OctoEngine *e, Message *m)
{
  Stream *s = m->stream;

  if (m->prev)
    m->prev->next = m->next;
  else
    s->oldest = m->next;
  if (m->next) {
    m->next->prev = m->prev;
  } else {
    s->newest = m->prev;
    if (s->newest) {
      s->newest_id = s->newest->msg_id;
      s->newest_epoch = s->newest->epoch;
    }
  }
  if (--s->n_open == 0 && s->idle_count == 0)
    s->has_max_id = FALSE;
  m->next = NULL;
  if (e->free_tail)
    e->free_tail->next = m;
  else
    e->free_messages = m;
  e->free_tail = m;
}

#define IDLE_AT(s, i) (&(s)->idle[(i) & (IDLE_DECISIONS - 1)])

/* How many records the stream made after the one made at @made. */
static inline guint16
made_since (const Stream *s, guint16 made)
{
  return (guint16) (s->made - made);
}

static void
write_decision (IdleDecision *d, const Message *m, OctoTime now)
{
  d->last_active = now;
  d->msg_id = m->msg_id;
  d->made = m->made;
  d->reason = m->reason;
  d->bits = m->state | (m->priority << IDLE_PRIORITY_SHIFT) |
      (m->sent_any ? IDLE_SENT_ANY : 0) |
      (m->discard_arrivals ? IDLE_DISCARD_ARRIVALS : 0);
}

/* Puts @m's decision in the ring in the order records were made: a full
 * ring forgets the decision on the message made first, which is @m's own if
 * @m was made before every decision kept.  The case remember_decision() does
 * not take: a decision taken back, or one going idle after that of a
 * message made later (which overflowed behind it, say). */
static G_GNUC_NO_INLINE void
remember_decision_out_of_turn (Stream *s, const Message *m, OctoTime now)
{
  guint16 age = made_since (s, m->made);
  guint32 n = s->idle_count, i;

  if (m->taken_back) {
    /* back to the slot it was taken from, unless that was forgotten */
    for (i = 1; i <= n; i++) {
      IdleDecision *d = IDLE_AT (s, s->idle_head - i);
      if (d->made == m->made && d->msg_id == m->msg_id
          && (d->bits & IDLE_STATE_MASK) == MSG_UNDECIDED) {
        write_decision (d, m, now);
        return;
      }
    }
  }
  if (n == IDLE_DECISIONS) {
    if (made_since (s, IDLE_AT (s, s->idle_head - n)->made) < age)
      return;
    n = --s->idle_count;
  }
  for (i = 0; i < n; i++) {
    IdleDecision *before = IDLE_AT (s, s->idle_head - 1 - i);
    if (made_since (s, before->made) >= age)
      break;
    *IDLE_AT (s, s->idle_head - i) = *before;
  }
  write_decision (IDLE_AT (s, s->idle_head - i), m, now);
  s->idle_head = (s->idle_head + 1) & (IDLE_DECISIONS - 1);
  s->idle_count++;
  s->idle_newest_made = IDLE_AT (s, s->idle_head - 1)->made;
}

/* Keeps @m's decision in the ring.  Messages usually go idle in the order
 * their records were made, so it usually goes last, over the oldest kept
 * when the ring is full; the stream's own line tells, so that only the slot
 * written is touched. */
static inline void
remember_decision (Stream *s, const Message *m, OctoTime now)
{
  if (G_UNLIKELY (m->taken_back || (s->idle_count > 0
              && made_since (s, s->idle_newest_made)
              <= made_since (s, m->made)))) {
    remember_decision_out_of_turn (s, m, now);
    return;
  }
  write_decision (IDLE_AT (s, s->idle_head), m, now);
  s->idle_head = (s->idle_head + 1) & (IDLE_DECISIONS - 1);
  s->idle_newest_made = m->made;
  if (s->idle_count < IDLE_DECISIONS)
    s->idle_count++;
}

/* A record stays while it has queued packets; then its decision goes to the
 * stream's ring of idle decisions, unless it is of an earlier epoch.  Once
 * a message, not once a packet: kept out of line so that packet_left(),
 * run for every packet, stays small enough to inline. */
static G_GNUC_NO_INLINE void
message_became_idle (OctoEngine *e, Message *m, OctoTime now)
{
  if (m->epoch == m->stream->epoch)
    remember_decision (m->stream, m, now);
  release_message (e, m);
}

/* Fills the empty free list with a new block of message records. */
static void
grow_messages (OctoEngine *e)
{
  MessageBlock *block = aligned_alloc (_Alignof (MessageBlock),
      sizeof (MessageBlock));

  if (!block)
    g_error ("octo-engine: out of memory for message records");
  block->next = e->message_blocks;
  e->message_blocks = block;
  for (guint i = 0; i + 1 < MESSAGES_PER_BLOCK; i++)
    block->message[i].next = &block->message[i + 1];
  block->message[MESSAGES_PER_BLOCK - 1].next = NULL;
  e->free_messages = &block->message[0];
  e->free_tail = &block->message[MESSAGES_PER_BLOCK - 1];
}

/* A record for a late packet of a message decided to be sent: its decision
 * moves back from the idle ring, keeping its slot and its place there. */
static void
take_back_decision (Message *m, IdleDecision *d)
{
  m->state = d->bits & IDLE_STATE_MASK;
  m->reason = d->reason;
  m->priority = (d->bits >> IDLE_PRIORITY_SHIFT) & (OCTO_N_PRIORITIES - 1);
  m->sent_any = (d->bits & IDLE_SENT_ANY) != 0;
  m->discard_arrivals = (d->bits & IDLE_DISCARD_ARRIVALS) != 0;
  m->made = d->made;
  m->taken_back = TRUE;
  d->bits &= ~IDLE_STATE_MASK;
}

/* A record for @h's message; @taken: its decision in the idle ring, taken
 * back (a late packet of a message decided to be sent), whose place the
 * record keeps instead of counting as one more made. */
static Message *
new_message (OctoEngine *e, Stream *s, const OctoHeader *h,
    IdleDecision *taken, OctoTime now)
{
  Message *m;

  if (!e->free_messages)
    grow_messages (e);
  m = e->free_messages;
  e->free_messages = m->next;
  if (!e->free_messages)
    e->free_tail = NULL;
  memset (m, 0, sizeof (*m));
  m->stream = s;
  m->msg_id = h->msg_id;
  m->priority = h->priority;
  m->epoch = s->epoch;
  if (taken)
    take_back_decision (m, taken);
  else
    m->made = s->made++;
  m->head_time = now;
  m->prev = s->newest;
  if (s->newest)
    s->newest->next = m;
  else
    s->oldest = m;
  s->newest = m;
  s->newest_id = m->msg_id;
  s->newest_epoch = m->epoch;
  s->n_open++;
  if (!s->has_max_id || octo_msg_id_newer (m->msg_id, s->max_id)) {
    s->max_id = m->msg_id;
    s->has_max_id = TRUE;
  }
  return m;
}

/* The record of @msg_id in the stream's current epoch, if it has packets
 * queued. */
static Message *
find_message (Stream *s, guint32 msg_id)
{
  Message *m = s->newest;

  /* most packets continue the message before them, or start a newer one;
   * only reordered and late packets search the open records */
  if (m && s->newest_id == msg_id && s->newest_epoch == s->epoch)
    return m;
  if (!s->has_max_id || octo_msg_id_newer (msg_id, s->max_id))
    return NULL;
  for (m = s->newest; m; m = m->prev)
    if (m->msg_id == msg_id && m->epoch == s->epoch)
      return m;
  return NULL;
}

/* The idle decision on @msg_id, if the stream has one that has not expired
 * (an expired one is forgotten: the packet is a new head). */
static IdleDecision *
find_idle_decision (Stream *s, guint32 msg_id, OctoTime now)
{
  if (!s->has_max_id || octo_msg_id_newer (msg_id, s->max_id))
    return NULL;
  for (guint i = 1; i <= s->idle_count; i++) {
    IdleDecision *d = IDLE_AT (s, s->idle_head - i);
    if (d->msg_id == msg_id && (d->bits & IDLE_STATE_MASK) != MSG_UNDECIDED)
      return now >= d->last_active + OCTO_ENGINE_RECORD_AGE ? NULL : d;
  }
  return NULL;
}

/* Forgets the stream's decisions on messages with nothing queued. */
static void
forget_idle_records (Stream *s)
{
  s->idle_count = 0;
  if (s->n_open == 0)
    s->has_max_id = FALSE;
}

static void
unlink_stream (OctoEngine *e, Stream *s)
{
  if (s->older)
    s->older->newer = s->newer;
  else
    e->least_recent = s->newer;
  if (s->newer)
    s->newer->older = s->older;
  else
    e->most_recent = s->older;
}

static void
link_most_recent (OctoEngine *e, Stream *s)
{
  s->newer = NULL;
  s->older = e->most_recent;
  if (e->most_recent)
    e->most_recent->newer = s;
  else
    e->least_recent = s;
  e->most_recent = s;
}

static Stream *
lookup_stream (const OctoEngine *e, guint64 source, guint16 stream_id)
{
  guint32 hash = stream_hash (e, source, stream_id);

  for (guint32 i = hash & e->table_mask;; i = (i + 1) & e->table_mask) {
    Stream *c = e->table[i].stream;
    if (!c)
      return NULL;
    if (e->table[i].hash == hash) {
      /* among many streams, its record is rarely cached: fetch its other
       * hot line, and the line of its share among many, while the key's
       * line is read */
      __builtin_prefetch ((const char *) c + STREAM_LINE);
      __builtin_prefetch ((const char *) c + 2 * STREAM_LINE);
      if (c->source == source && c->stream_id == stream_id)
        return c;
    }
  }
}

static void
table_insert (OctoEngine *e, Stream *s)
{
  guint32 hash = stream_hash (e, s->source, s->stream_id);
  guint32 i = hash & e->table_mask;

  while (e->table[i].stream)
    i = (i + 1) & e->table_mask;
  e->table[i].stream = s;
  e->table[i].hash = hash;
}

/* Removes @s, shifting back later entries of its probe run so every entry
 * stays reachable from its home slot. */
static void
table_remove (OctoEngine *e, Stream *s)
{
  guint32 i, j;

  i = stream_hash (e, s->source, s->stream_id) & e->table_mask;

  while (e->table[i].stream != s)
    i = (i + 1) & e->table_mask;
  for (j = (i + 1) & e->table_mask; e->table[j].stream;
      j = (j + 1) & e->table_mask) {
    guint32 home = e->table[j].hash & e->table_mask;
    /* stays if its home lies cyclically in (i, j] */
    if (i <= j ? (home > i && home <= j) : (home > i || home <= j))
      continue;
    e->table[i] = e->table[j];
    i = j;
  }
  e->table[i].stream = NULL;
}

/* Only a stream with nothing queued is removed: every record it holds is
 * idle and goes back to the free list. */
static void
remove_stream (OctoEngine *e, Stream *s)
{
  while (s->oldest)
    release_message (e, s->oldest);
  unlink_stream (e, s);
  e->n_streams--;
  table_remove (e, s);
  if (e->last_stream == s)
    e->last_stream = NULL;
  free_stream (s);
}

/* The least recently active stream with nothing queued for a while: the
 * recency list is ordered by last arrival, so only streams silent for that
 * long but still holding packets are passed over. */
static Stream *
evictable_stream (OctoEngine *e, OctoTime now)
{
  for (Stream *c = e->least_recent;
      c && now >= c->last_arrival + STREAM_IDLE_EVICT; c = c->newer)
    if (c->queued == 0)
      return c;
  return NULL;
}

static Stream *
find_stream (OctoEngine *e, guint64 source, guint16 stream_id, OctoTime now)
{
  Stream *s = e->last_stream;

  if (s && s->source == source && s->stream_id == stream_id)
    return s;
  s = lookup_stream (e, source, stream_id);
  if (!s) {
    if (e->n_streams >= e->config.max_streams) {
      Stream *idle = evictable_stream (e, now);
      if (!idle)
        return NULL;
      remove_stream (e, idle);
    }
    s = aligned_alloc (_Alignof (Stream), sizeof (Stream));
    if (!s)
      g_error ("octo-engine: out of memory for a stream record");
    memset (s, 0, G_STRUCT_OFFSET (Stream, arrival_samples));
    s->source = source;
    s->stream_id = stream_id;
    table_insert (e, s);
    link_most_recent (e, s);
    e->n_streams++;
  }
  /* what this packet and its message will touch, fetched together instead
   * of one miss after another: the newest record, the arrival sample and
   * the idle decision this message will leave */
  __builtin_prefetch (s->newest);
  __builtin_prefetch (&s->arrival_samples[s->arrivals.head], 1);
  __builtin_prefetch (&s->idle[s->idle_head], 1);
  e->last_stream = s;
  return s;
}

static void
record_dropper (Stream *s, const OctoHeader *h)
{
  guint t = h->priority_threshold;

  if (!(s->dropper_valid & (1u << t))
      || octo_msg_id_newer (h->msg_id, s->dropper[t])) {
    s->dropper[t] = h->msg_id;
    s->dropper_valid |= 1u << t;
  }
}

/* ---- the ring ---- */

static inline Entry *
entry_at (const OctoEngine *e, guint32 i)
{
  return &e->ring[(e->front + i) & (e->capacity - 1)];
}

/* Doubles the ring (up to max_slots), unwrapping it to start at 0. */
static void
grow_ring (OctoEngine *e)
{
  Entry *ring = g_new0 (Entry, e->capacity * 2);

  for (guint32 i = 0; i < e->n_slots; i++)
    ring[i] = *entry_at (e, i);
  g_free (e->ring);
  e->ring = ring;
  e->front = 0;
  e->capacity *= 2;
}

/* Tells the rate meter when alive packets start or stop being queued. */
static void
update_busy (OctoEngine *e, OctoTime now)
{
  gboolean busy = e->n_slots > e->n_dead;

  if (busy != e->busy) {
    octo_rate_meter_set_busy (e->rate, busy, now);
    e->busy = busy;
  }
}

static void
compact (OctoEngine *e)
{
  guint32 out = 0;

  for (guint32 i = 0; i < e->n_slots; i++) {
    Entry *src = entry_at (e, i);
    if (!src->dead) {
      Entry *dst = entry_at (e, out++);
      if (dst != src)
        *dst = *src;
    }
  }
  e->n_slots = out;
  e->n_dead = 0;
}

static void
count_drop (OctoEngine *e, const OctoPacket *p, OctoDropReason reason)
{
  e->stats.packets_dropped[reason]++;
  e->stats.bytes_dropped[reason] += p->size;
  if (e->drop_func)
    e->drop_func (p, reason, e->user_data);
}

static void
drop_message (OctoEngine *e, Message *m, OctoDropReason reason)
{
  m->state = MSG_DROPPED;
  m->reason = reason;
  e->stats.messages_dropped[reason][m->priority]++;
}

/* Called after a packet of @m left the ring (sent or discarded). */
static void
packet_left (OctoEngine *e, Message *m, OctoTime now)
{
  Stream *s = m->stream;

  s->queued--;
  if (--m->queued == 0)
    message_became_idle (e, m, now);
  if (s->queued == 0) {
    s->dropper_valid = 0;       /* nothing older can remain (rule 5) */
    s->emptied = now;
  }
}

/* Rule 4: discard the queued packets of @m, newest first. */
static void
discard_queued (OctoEngine *e, Message *m, OctoTime now)
{
  guint32 left = m->queued;

  for (guint32 i = e->n_slots; i > 0 && left > 0; i--) {
    Entry *entry = entry_at (e, i - 1);
    if (entry->dead || entry->msg != m)
      continue;
    entry->dead = TRUE;
    e->n_dead++;
    e->bytes -= entry->packet.size;
    count_drop (e, &entry->packet, OCTO_DROP_OVERFLOW);
    left--;
    packet_left (e, m, now);
  }
}

static void
overflow (OctoEngine *e, const OctoPacket *p, Message *m, OctoTime now)
{
  if (m && m->state != MSG_DROPPED) {
    if (m->sent_any) {
      m->discard_arrivals = TRUE;
      m->reason = OCTO_DROP_OVERFLOW;
      e->stats.messages_dropped[OCTO_DROP_OVERFLOW][m->priority]++;
    } else {
      drop_message (e, m, OCTO_DROP_OVERFLOW);
      if (m->queued > 0)
        discard_queued (e, m, now);
    }
  }
  count_drop (e, p, OCTO_DROP_OVERFLOW);
}

static gboolean
has_room (OctoEngine *e, guint32 size)
{
  if (e->bytes + size > e->config.limit_bytes)
    return FALSE;
  if (e->n_slots < e->capacity)
    return TRUE;
  if (e->capacity < e->max_slots) {
    grow_ring (e);
    return TRUE;
  }
  /* full of slots: reclaim dead ones if they are worth a pass */
  if (e->n_dead >= e->capacity / 4) {
    compact (e);
    return TRUE;
  }
  return FALSE;
}

static void
reset_stream (Stream *s)
{
  forget_idle_records (s);
  /* records with packets still queued keep deciding those packets, but no
   * new packet finds them */
  s->epoch++;
  s->has_max_id = FALSE;
  s->dropper_valid = 0;
}

/* FALSE: @connection is one @s replaced, its packet is plain traffic. */
static gboolean
follow_connection (Stream *s, guint32 connection)
{
  if (connection == 0 || connection == s->connection)
    return TRUE;
  for (guint i = 0; i < STREAM_REPLACED; i++)
    if (s->replaced[i] == connection)
      return FALSE;
  if (s->connection != 0) {
    memmove (s->replaced + 1, s->replaced,
        (STREAM_REPLACED - 1) * sizeof s->replaced[0]);
    s->replaced[0] = s->connection;
    reset_stream (s);
  }
  s->connection = connection;
  return TRUE;
}

gboolean
octo_engine_enqueue (OctoEngine *e, const OctoPacket *p, OctoTime now)
{
  Stream *s = NULL;
  Message *m = NULL;
  gboolean new_record = FALSE;
  Entry *entry;

  e->stats.packets_in++;
  e->stats.bytes_in += p->size;

  if (e->config.rules && p->tagged) {
    s = find_stream (e, p->source, p->header.stream_id, now);
    if (!s)
      e->stats.streams_overflowed++;
    else if (!follow_connection (s, p->connection)) {
      s = NULL;
      e->stats.stale_connection_packets++;
    }
  }
  if (s) {
    /* a stream silent and empty for the record age starts afresh */
    if (s->queued == 0 && s->idle_count > 0
        && now >= MAX (s->last_arrival, s->emptied) + OCTO_ENGINE_RECORD_AGE)
      forget_idle_records (s);
    s->last_arrival = now;
    if (e->most_recent != s) {
      unlink_stream (e, s);
      link_most_recent (e, s);
    }
    m = find_message (s, p->header.msg_id);
    if (m && (m->state == MSG_DROPPED || m->discard_arrivals)) {
      count_drop (e, p, m->reason);     /* rule 3 */
      return FALSE;
    }
    if (!m) {
      IdleDecision *d = find_idle_decision (s, p->header.msg_id, now);
      if (d && ((d->bits & IDLE_STATE_MASK) == MSG_DROPPED
              || (d->bits & IDLE_DISCARD_ARRIVALS))) {
        d->last_active = now;
        count_drop (e, p, d->reason);   /* rule 3 */
        return FALSE;
      }
      m = new_message (e, s, &p->header, d, now);
      new_record = TRUE;
    }
  } else if (!p->tagged) {
    e->stats.untagged_packets++;
  }

  if (!has_room (e, p->size)) {
    /* discarding m's queued packets may forget m: do not touch it after */
    overflow (e, p, m, now);
    if (new_record)
      message_became_idle (e, m, now);
    update_busy (e, now);
    return FALSE;
  }

  entry = entry_at (e, e->n_slots++);
  entry->packet = *p;
  entry->msg = m;
  entry->enqueue_time = now;
  entry->dead = FALSE;
  e->bytes += p->size;
  update_busy (e, now);

  if (m) {
    m->queued++;
    s->queued++;
    if (p->header.last && p->header.drop)
      record_dropper (s, &p->header);
    octo_arrival_history_add (&s->arrivals, s->arrival_samples,
        STREAM_ARRIVAL_SAMPLES, STREAM_ARRIVAL_BUCKET_SHIFT, p->size, now);
  } else if (e->config.rules) {
    octo_arrival_meter_add (&e->untagged_arrivals, p->size, now);
  }
  return TRUE;
}

/* ---- bandwidth ---- */

guint64
octo_engine_bandwidth (OctoEngine *e, OctoTime now)
{
  if (e->config.bw_source == OCTO_BW_EXTERNAL)
    return e->external_bw;
  return octo_rate_meter_rate (e->rate, now);
}

void
octo_engine_set_bandwidth (OctoEngine *e, guint64 bps)
{
  e->external_bw = bps;
}

/* Takes the arrival rates over (start, now] of the streams that had an
 * arrival in it, and of plain FIFO traffic. */
static void
take_snapshot (OctoEngine *e, OctoTime start, OctoTime now)
{
  guint32 n = 0;
  guint64 untagged;

  if (++e->snapshot_id == 0)
    e->snapshot_id = 1;
  for (Stream *c = e->most_recent; c && c->last_arrival > start;
      c = c->older) {
    guint64 demand;
    /* the walk reaches streams long out of cache: fetch the next one's
     * lines while this one's rate is computed */
    if (c->older) {
      __builtin_prefetch (c->older);
      __builtin_prefetch ((const char *) c->older + STREAM_LINE);
      __builtin_prefetch ((const char *) c->older + 2 * STREAM_LINE, 1);
    }
    demand = octo_arrival_history_rate (&c->arrivals, c->arrival_samples,
        STREAM_ARRIVAL_SAMPLES, start, now);
    if (demand == 0)
      continue;
    c->snapshot_id = e->snapshot_id;
    c->snapshot_demand = demand;
    e->snapshot[n++] = demand;
  }
  untagged = octo_arrival_meter_rate (&e->untagged_arrivals, start, now);
  if (untagged > 0)
    e->snapshot[n++] = untagged;
  qsort (e->snapshot, n, sizeof (guint64), compare_demands);
  e->snapshot_prefix[0] = 0;
  for (guint32 i = 0; i < n; i++)
    e->snapshot_prefix[i + 1] = e->snapshot_prefix[i] + e->snapshot[i];
  e->snapshot_n = n;
  e->snapshot_time = now;
}

/* @s's share among many active streams, from rates at most one rate window
 * old: the snapshot is retaken when a decision finds it that old, so its cost
 * is spread over at least one arrival per active stream. */
static guint64
snapshot_share (OctoEngine *e, Stream *s, guint64 bw, OctoTime start,
    OctoTime now)
{
  guint32 skip;

  if (e->snapshot_id == 0 || now < e->snapshot_time
      || now >= e->snapshot_time + OCTO_RATE_WINDOW)
    take_snapshot (e, start, now);
  if (s->share_snapshot_id == e->snapshot_id) {
    if (s->share_bw == bw)
      return s->share;
  } else {
    s->share_snapshot_id = e->snapshot_id;
    s->snapshot_skip = G_MAXUINT32;
    if (s->snapshot_id == e->snapshot_id) {
      /* leave out one occurrence of its own rate */
      guint32 lo = 0, hi = e->snapshot_n;
      while (lo < hi) {
        guint32 mid = lo + (hi - lo) / 2;
        if (e->snapshot[mid] < s->snapshot_demand)
          lo = mid + 1;
        else
          hi = mid;
      }
      s->snapshot_skip = lo;
    }
  }
  skip = s->snapshot_skip;
  s->share_bw = bw;
  s->share = bw;
  if (e->snapshot_n - (skip < e->snapshot_n) > 0)
    s->share = octo_fair_share_level_sorted (e->snapshot, e->snapshot_prefix,
        e->snapshot_n, skip, bw, &e->snapshot_level_rank);
  return s->share;
}

/* BW_s (rule 6): the water level @s sees with its own demand unbounded and
 * every other stream active in the rate window capped at its arrival rate.
 * Streams are walked from the most recent arrival back to the first one that
 * had none in the window, so idle streams cost nothing. */
static guint64
share_of (OctoEngine *e, Stream *s, OctoTime now)
{
  guint64 bw = octo_engine_bandwidth (e, now);
  OctoTime start;
  guint64 untagged, share;
  guint n = 0, walked = 0;

  if (bw == OCTO_BW_UNKNOWN || bw == OCTO_BW_UNLIMITED)
    return bw;
  /* alone in the queue: the whole bandwidth */
  if (e->n_streams < 2 && e->untagged_arrivals.counters.count == 0)
    return bw;
  /* bw is the rate measured just now: its window is the meter's last */
  start = e->config.bw_source == OCTO_BW_MEASURED ?
      octo_rate_meter_window_start (e->rate) :
      (now > OCTO_RATE_WINDOW ? now - OCTO_RATE_WINDOW : 0);
  for (Stream *c = e->most_recent; c && c->last_arrival > start;
      c = c->older)
    if (c != s && ++walked > EXACT_SHARE_STREAMS)
      return MAX (snapshot_share (e, s, bw, start, now), 1);
  for (Stream *c = e->most_recent; c && c->last_arrival > start;
      c = c->older) {
    guint64 demand;
    if (c == s)
      continue;
    demand = octo_arrival_history_rate (&c->arrivals, c->arrival_samples,
        STREAM_ARRIVAL_SAMPLES, start, now);
    if (demand > 0)
      e->demands[n++] = demand;
  }
  /* plain FIFO traffic in the same queue takes its share as one more flow */
  untagged = octo_arrival_meter_rate (&e->untagged_arrivals, start, now);
  if (untagged > 0)
    e->demands[n++] = untagged;
  if (n == 0)
    return bw;
  share = octo_fair_share_level (e->demands, n, bw);
  return MAX (share, 1);        /* 0 would read as unknown */
}

guint64
octo_engine_stream_share (OctoEngine *e, guint64 source, guint16 stream_id,
    OctoTime now)
{
  Stream *s = lookup_stream (e, source, stream_id);

  return s ? share_of (e, s, now) : octo_engine_bandwidth (e, now);
}

/* ---- the front ---- */

static gboolean
dropper_covers (const Stream *s, const Message *m)
{
  if (m->epoch != s->epoch)
    return FALSE;               /* its droppers were forgotten with its epoch */
  for (guint t = 0; t <= m->priority; t++)
    if ((s->dropper_valid & (1u << t))
        && octo_msg_id_newer (s->dropper[t], m->msg_id))
      return TRUE;
  return FALSE;
}

/* Rule 2's first condition: the message has queued for its slack. */
static gboolean
slack_spent (const OctoHeader *h, OctoTime queued_for)
{
  return queued_for >= (OctoTime) h->slack_ms * OCTO_MSECOND;
}

/* Rule 2's last condition: @h's bitrate threshold exceeds the share of its
 * stream (@s; NULL: one not queued, which has the whole bandwidth). */
static gboolean
above_share (OctoEngine *e, Stream *s, const OctoHeader *h, OctoTime now)
{
  guint64 share;

  if (h->link_bitrate_threshold_bps == 0)
    return FALSE;
  share = s ? share_of (e, s, now) : octo_engine_bandwidth (e, now);
  return share != OCTO_BW_UNKNOWN && h->link_bitrate_threshold_bps > share;
}

/* Rule 2, once per message, when its head reaches the front. */
static void
decide (OctoEngine *e, Message *m, const OctoHeader *h, OctoTime now)
{
  Stream *s = m->stream;

  if (now < m->head_time || !slack_spent (h, now - m->head_time))
    m->state = MSG_COMMITTED;
  else if (dropper_covers (s, m))
    drop_message (e, m, OCTO_DROP_DROPPER);
  else if (above_share (e, s, h, now))
    drop_message (e, m, OCTO_DROP_BITRATE);
  else
    m->state = MSG_COMMITTED;
}

OctoTime
octo_engine_drain_time (OctoEngine *e, OctoTime now)
{
  guint64 bw = octo_engine_bandwidth (e, now);

  if (bw == OCTO_BW_UNKNOWN || bw == OCTO_BW_UNLIMITED)
    return 0;
  return (OctoTime) ((gdouble) e->bytes * 8 * OCTO_SECOND / bw);
}

gboolean
octo_engine_would_drop_arrival (OctoEngine *e, guint64 source,
    const OctoHeader *h, OctoTime now)
{
  if (!e->config.rules)
    return FALSE;
  return slack_spent (h, octo_engine_drain_time (e, now)) &&
      above_share (e, lookup_stream (e, source, h->stream_id), h, now);
}

static void
pop_front (OctoEngine *e)
{
  e->front = (e->front + 1) & (e->capacity - 1);
  e->n_slots--;
}

gboolean
octo_engine_front_continues_message (const OctoEngine *e)
{
  for (guint32 i = 0; i < e->n_slots; i++) {
    const Entry *entry = entry_at (e, i);

    if (!entry->dead)
      return entry->msg && entry->msg->sent_any;
  }
  return FALSE;
}

const OctoPacket *
octo_engine_peek (OctoEngine *e, OctoTime now)
{
  while (e->n_slots > 0) {
    Entry *entry = entry_at (e, 0);
    Message *m = entry->msg;

    if (entry->dead) {
      e->n_dead--;
      pop_front (e);
      continue;
    }
    if (!m)
      return &entry->packet;
    if (m->state == MSG_UNDECIDED)
      decide (e, m, &entry->packet.header, now);
    if (m->state != MSG_DROPPED)
      return &entry->packet;

    e->bytes -= entry->packet.size;
    pop_front (e);
    count_drop (e, &entry->packet, m->reason);
    packet_left (e, m, now);
  }
  update_busy (e, now);
  return NULL;
}

gboolean
octo_engine_dequeue (OctoEngine *e, OctoTime now, OctoPacket *out)
{
  Entry *entry;

  if (!octo_engine_peek (e, now))
    return FALSE;
  entry = entry_at (e, 0);
  *out = entry->packet;
  e->bytes -= out->size;
  pop_front (e);
  e->stats.packets_out++;
  e->stats.bytes_out += out->size;
  octo_rate_meter_departure (e->rate, out->size, now);
  if (entry->msg) {
    entry->msg->sent_any = TRUE;
    packet_left (e, entry->msg, now);
  }
  update_busy (e, now);
  return TRUE;
}

void
octo_engine_reset_stream (OctoEngine *e, guint64 source, guint16 stream_id)
{
  Stream *s = lookup_stream (e, source, stream_id);

  if (s)
    reset_stream (s);
}

guint64
octo_engine_queued_bytes (const OctoEngine *e)
{
  return e->bytes;
}

guint32
octo_engine_queued_packets (const OctoEngine *e)
{
  return e->n_slots - e->n_dead;
}

const OctoEngineStats *
octo_engine_get_stats (const OctoEngine *e)
{
  return &e->stats;
}
