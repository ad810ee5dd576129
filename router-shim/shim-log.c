/* octopus-shim: the --log event log, one line per event, in the spirit of
 * Mahimahi's mm-link log ("TIME + BYTES", "TIME - BYTES DELAY",
 * "TIME # BYTES") with the direction, user and stream appended, and for
 * RTP packets their sequence number and timestamp (clear in SRTP too), so
 * a drop can be tied to the frame it hit.  Times are ms since start with
 * us resolution; sizes are link bytes (IP datagrams). */
#include "shim.h"

#include <errno.h>
#include <string.h>

#define MS_F(t) ((gdouble) (t) / OCTO_MSECOND)

gboolean
shim_log_open (Shim *shim, GError **error)
{
  shim->log = fopen (shim->log_path, "w");
  if (shim->log == NULL) {
    g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno),
        "cannot write log '%s': %s", shim->log_path, g_strerror (errno));
    return FALSE;
  }
  setvbuf (shim->log, NULL, _IOFBF, 1 << 20);
  fprintf (shim->log, "# octopus-shim event log: times in ms since start, "
      "sizes in IP bytes\n"
      "# TIME # BYTES DIR                          delivery opportunity\n"
      "# TIME + BYTES DIR USER STREAM [rtp SEQ TS] arrival\n"
      "# TIME - BYTES DELAY_MS DIR USER STREAM [rtp SEQ TS] departure "
      "(queueing delay)\n"
      "# TIME d BYTES REASON DIR USER STREAM [rtp SEQ TS] drop "
      "(trim: bytes cut)\n"
      "# base timestamp: 0\n"
      "# init timestamp: %" G_GINT64_FORMAT "\n",
      g_get_real_time () / 1000);
  return TRUE;
}

void
shim_log_close (Shim *shim)
{
  if (shim->log)
    fclose (shim->log);
  shim->log = NULL;
}

/* " rtp SEQ TS" for an RTP (or SRTP) packet, nothing for other traffic. */
static void
print_rtp (FILE *f, const ShimPacket *p)
{
  const guint8 *data = p->data;
  gsize len = p->len;
  OctoRtpPacket rtp;

  if (p->user->tun) {
    ShimAddr source;
    gssize payload = shim_ip_udp_payload (p->data, p->len, &source);

    if (payload < 0)
      return;
    /* the UDP length, not the IP packet's, bounds the datagram */
    len = ((gsize) data[payload - 4] << 8 | data[payload - 3]) - 8;
    data += payload;
  }
  if (octo_dgram_classify (data, len) != OCTO_DGRAM_RTP
      || octo_rtp_parse (data, len, &rtp) != OCTO_RTP_PARSE_OK)
    return;
  fprintf (f, " rtp %u %u", rtp.seq, (guint32) data[4] << 24
      | (guint32) data[5] << 16 | (guint32) data[6] << 8 | data[7]);
}

static void
print_stream (FILE *f, const ShimPacket *p)
{
  if (p->stream->stream_id >= 0)
    fprintf (f, " %u s%d@%s", p->user->index, p->stream->stream_id,
        p->stream->source_str);
  else
    fprintf (f, " %u -@%s", p->user->index, p->stream->source_str);
  print_rtp (f, p);
  fputc ('\n', f);
}

void
shim_log_opportunity (Shim *shim, ShimDirection dir, OctoTime t,
    guint32 bytes)
{
  fprintf (shim->log, "%.3f # %u %s\n", MS_F (t - shim->start), bytes,
      shim_direction_name (dir));
}

void
shim_log_arrival (Shim *shim, const ShimPacket *p, guint32 size)
{
  fprintf (shim->log, "%.3f + %u %s", MS_F (p->arrival - shim->start), size,
      shim_direction_name (p->dir));
  print_stream (shim->log, p);
}

void
shim_log_departure (Shim *shim, const ShimPacket *p, guint32 size,
    OctoTime departure)
{
  fprintf (shim->log, "%.3f - %u %.3f %s", MS_F (departure - shim->start),
      size, MS_F (departure - p->arrival), shim_direction_name (p->dir));
  print_stream (shim->log, p);
}

/* Stamped with the link's decision time: the arrival's for a drop on
 * enqueue, the opportunity's for one decided while the link runs. */
void
shim_log_drop (Shim *shim, const ShimPacket *p, guint32 size,
    OctoDropReason reason)
{
  OctoTime t = octo_link_time (shim->links[p->user->link].link[p->dir]);

  fprintf (shim->log, "%.3f d %u %s %s", MS_F (t - shim->start),
      size, octo_drop_reason_to_string (reason),
      shim_direction_name (p->dir));
  print_stream (shim->log, p);
}
