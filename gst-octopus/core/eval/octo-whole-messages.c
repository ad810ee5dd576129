#include "octo-whole-messages.h"

typedef struct {
  guint64 bytes;
  gboolean broken;              /* a packet of it was lost */
} OpenMessage;

void
octo_whole_messages_clear (OctoWholeMessages *tally)
{
  g_clear_pointer (&tally->open, g_hash_table_destroy);
}

/* A new message starts with its first packet. */
static OpenMessage *
open_message (OctoWholeMessages *tally, guint32 msg_id)
{
  OpenMessage *m = g_new0 (OpenMessage, 1);

  if (!tally->open)
    tally->open = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  if (g_hash_table_size (tally->open) >= OCTO_WHOLE_MESSAGES_MAX_OPEN)
    g_hash_table_remove_all (tally->open);
  g_hash_table_replace (tally->open, GUINT_TO_POINTER (msg_id), m);
  return m;
}

static OpenMessage *
find_message (OctoWholeMessages *tally, const OctoHeader *header)
{
  if (header->first)
    return open_message (tally, header->msg_id);
  return tally->open ? g_hash_table_lookup (tally->open,
      GUINT_TO_POINTER (header->msg_id)) : NULL;
}

void
octo_whole_messages_delivered (OctoWholeMessages *tally,
    const OctoHeader *header, guint32 link_bytes)
{
  OpenMessage *m = find_message (tally, header);

  /* no entry: its first packet crossed before the tally began */
  if (!m)
    return;
  m->bytes += link_bytes;
  if (!header->last)
    return;
  if (!m->broken) {
    tally->whole_bytes += m->bytes;
    tally->whole_messages++;
  }
  g_hash_table_remove (tally->open, GUINT_TO_POINTER (header->msg_id));
}

void
octo_whole_messages_lost (OctoWholeMessages *tally, const OctoHeader *header)
{
  OpenMessage *m = find_message (tally, header);

  if (!m)
    return;
  m->broken = TRUE;
  if (header->last)
    g_hash_table_remove (tally->open, GUINT_TO_POINTER (header->msg_id));
}
