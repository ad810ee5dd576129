/* gst-octopus core: multipath packet schedulers (which path each packet of a
 * message takes).
 *
 * A scheduler sees each path's state (smoothed and minimum RTT, bytes
 * waiting in its pacer and in flight, pacing rate, bandwidth estimate, up
 * or down) and assigns the packets of one message, in order, to paths.
 * One scheduler is one file with one state struct behind this small table
 * of operations, as the congestion controllers (octo-cc.h); they are
 * chosen by name:
 *  - "min-cost": the Delay-BBR paper's (003, eq. 13-15, Algorithm 6): each
 *    packet to the path of least one-way time + Q_p/c_p, so a frame's
 *    packets arrive close together (the one-way time read from the bytes
 *    in flight rather than the paper's RTT_p/2, octo-sched-min-cost.c);
 *  - "wrr": weighted round robin by available bandwidth (003 eq. 16);
 *  - "edcld": EDCLD's cost, the propagation delay plus M/M/1 and queue
 *    terms mixed with w = 0.8 (003 eq. 17);
 *  - "sfl": SFL's water filling (003 Algorithm 7): a message is cut into
 *    one sub-frame per path so that every path's one-way delay plus its
 *    share's transmission time is equal;
 *  - "min-rtt": the path of least sRTT that has room (a pacer queue shorter
 *    than one sRTT of its rate), the default of multipath transports.
 * Sizes are link bytes, rates bits/s, times OctoTime. */
#pragma once

#include "octo-types.h"

G_BEGIN_DECLS

#define OCTO_SCHED_MAX_PATHS 8

typedef struct {
  OctoTime srtt;                /* 0: unknown (no sample yet) */
  OctoTime min_rtt;             /* the controller's minimum RTT (BBR's
                                 * windowed minimum): the propagation
                                 * delay's round trip; 0: unknown */
  guint64 queued_bytes;         /* waiting in the path's pacer */
  guint64 inflight_bytes;       /* sent, neither acked nor lost */
  guint64 pacing_rate;          /* bits/s; 0: not known yet */
  guint64 bandwidth;            /* the controller's estimate; 0: unknown */
  gboolean up;
} OctoSchedPath;

typedef struct _OctoSched OctoSched;

typedef struct {
  const gchar *name;
  gsize state_size;             /* the scheduler's struct, OctoSched first */
  /* Assigns the @n_packets packets of @sizes, in order, to up paths:
   * out[i] is packet i's path index.  Each assigned packet's size is added
   * to its path's queued_bytes, as it will wait in that pacer.  @now: for
   * the schedulers that measure the rate they put on each path.  Called
   * only with at least one path up. */
  void (*assign) (OctoSched *sched, OctoSchedPath *paths, guint n_paths,
      const guint32 *sizes, guint n_packets, OctoTime now, guint8 *out);
} OctoSchedOps;

struct _OctoSched {
  const OctoSchedOps *ops;
};

/* NULL if no scheduler is called @name. */
OctoSched *octo_sched_new (const gchar *name);
void octo_sched_free (OctoSched *sched);
const gchar *octo_sched_name (const OctoSched *sched);
/* The schedulers' names, NULL-terminated. */
const gchar *const *octo_sched_names (void);

/* See OctoSchedOps.assign; FALSE (and nothing assigned) if no path is up
 * or @n_paths exceeds OCTO_SCHED_MAX_PATHS. */
gboolean octo_sched_assign (OctoSched *sched, OctoSchedPath *paths,
    guint n_paths, const guint32 *sizes, guint n_packets, OctoTime now,
    guint8 *out);

/* The time @bytes wait behind in a pacer of @rate: OCTO_TIME_NONE when
 * something waits at rate 0. */
OctoTime octo_sched_drain_time (guint64 bytes, guint64 rate);
/* The path's available bandwidth for the schedulers that weigh by it: the
 * estimate, else the pacing rate. */
guint64 octo_sched_path_bandwidth (const OctoSchedPath *path);

extern const OctoSchedOps octo_sched_min_cost_ops;
extern const OctoSchedOps octo_sched_wrr_ops;
extern const OctoSchedOps octo_sched_edcld_ops;
extern const OctoSchedOps octo_sched_sfl_ops;
extern const OctoSchedOps octo_sched_min_rtt_ops;

G_END_DECLS
