/* The schemes the simulator compares (docs/design.md "Baselines"): what the
 * endpoint does and which queue the network has. */
#pragma once

#include "sim-world.h"

G_BEGIN_DECLS

/* Who decides what the app sends. */
typedef enum {
  SIM_ENDPOINT_TRACE,           /* the trace source's rule on the transport's estimate */
  SIM_ENDPOINT_GCC,             /* WebRTC: single layer at GCC's target (case 2) */
  SIM_ENDPOINT_SALSIFY,         /* per-frame fit to what the link absorbs now */
  SIM_ENDPOINT_AWSTREAM,        /* degrade on queueing, probe after 2 s idle */
  SIM_ENDPOINT_VIVO,            /* harmonic mean of 20 frames' download rates */
} SimEndpointKind;

typedef struct {
  const gchar *name;
  const gchar *summary;
  gboolean sender_rules;        /* Octopus rules in the send buffer */
  gboolean tag;                 /* the app tags its messages */
  gboolean adapt;               /* the app follows the transport's estimate */
  gboolean oracle;              /* paced at the capacity the link will offer */
  SimEndpointKind endpoint;
  SimTransport transport;       /* TCP: reliable CUBIC instead of OctoSender */
  guint cases;                  /* bit c: runs case c */
  const gchar *down_queue;      /* the bottleneck's qdisc spec */
} SimScheme;

/* NULL-terminated, in report order. */
const SimScheme *const *sim_scheme_list (void);
const SimScheme *sim_scheme_find (const gchar *name);
/* The endpoint baselines model only some cases (cases 0: every case). */
gboolean sim_scheme_runs_case (const SimScheme *scheme, guint case_id);

G_END_DECLS
