/* The schemes the simulator compares (DESIGN.md "Baselines"): what the
 * endpoint does and which queue the network has. */
#pragma once

#include "transport/octo-sender.h"

G_BEGIN_DECLS

typedef struct {
  const gchar *name;
  const gchar *summary;
  gboolean sender_rules;        /* Octopus rules in the send buffer */
  gboolean tag;                 /* the app tags its messages */
  gboolean adapt;               /* the app follows the transport's estimate */
  gboolean oracle;              /* paced at the capacity the link will offer */
  /* endpoint adaptation: GCC paces and the app encodes one layer per frame
   * at the highest level under GCC's target (case 2 only) */
  gboolean gcc;
  const gchar *down_queue;      /* the bottleneck's qdisc spec */
} SimScheme;

/* NULL-terminated, in report order. */
const SimScheme *const *sim_scheme_list (void);
const SimScheme *sim_scheme_find (const gchar *name);

G_END_DECLS
