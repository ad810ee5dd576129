/* octo-svc-quality: scores a live run's layers with real SSIM.
 *
 * Reads octopussvclog's layer dump, decodes every message in order exactly as the
 * sender produced them, renders each layer at the full size the way octopussvcdec
 * shows it (lower layers upscaled), and compares it with the source frame
 * of the same id (the clip decoded again, looped: frame id n = the n-th
 * frame the sender encoded).  A layer the receiver can decode decodes
 * bit-exactly as here (tests/svc-encoder/test-svc-codec.c), so this is the SSIM of
 * the picture shown at that layer (luma, gst-octopus/core/eval/octo-ssim.h).
 * Writes the sent log of octo-metrics:
 *
 *   frame,index,capture_ns,keyframe,temporal_layer,level,quality
 *
 * with quality the linear SSIM (level 0: the encoder's rate is not a
 * discrete level).  --scores also writes SSIM and PSNR side by side:
 *
 *   frame,index,ssim,psnr_db */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/svc-decodability.h"
#include "octo-frame-log.h"
#include "octo-ssim.h"
#include "core/svc-dump.h"
#include "svc-clip.h"
#include "svc-scale.h"
#include "svc-vpx-decoder.h"

static gchar *dump_path = NULL, *clip_path = NULL, *out_path = NULL;
static gchar *scores_path = NULL;
static gchar *codec_name = NULL;
static gint width = 640, height = 360, temporal_layers = 0;

static GOptionEntry entries[] = {
  {"dump", 0, 0, G_OPTION_ARG_FILENAME, &dump_path,
      "Layer dump written by octopussvclog", "FILE"},
  {"clip", 0, 0, G_OPTION_ARG_FILENAME, &clip_path,
      "The source clip the sender encoded (looped)", "FILE"},
  {"codec", 0, 0, G_OPTION_ARG_STRING, &codec_name, "vp8 or vp9", "CODEC"},
  {"width", 0, 0, G_OPTION_ARG_INT, &width, "Encoded width (640)", "W"},
  {"height", 0, 0, G_OPTION_ARG_INT, &height, "Encoded height (360)", "H"},
  {"temporal-layers", 0, 0, G_OPTION_ARG_INT, &temporal_layers,
      "Temporal layers of the stream (default: 3 for vp8, 1 for vp9)", "N"},
  {"out", 0, 0, G_OPTION_ARG_FILENAME, &out_path,
      "Sent log to write (CSV for octo-metrics --sent)", "FILE"},
  {"scores", 0, 0, G_OPTION_ARG_FILENAME, &scores_path,
      "Also write each scored message's SSIM and PSNR (CSV)", "FILE"},
  G_OPTION_ENTRY_NULL
};

typedef struct {
  SvcVpxDecoder *decoder;
  SvcClip *clip;
  SvcScaler scaler;
  SvcDecodability decodability;
  GstBuffer *shown;
  GstVideoInfo info;
  const guint8 *source;         /* clip frame of the current frame id */
  gboolean have_source;
  guint32 frame_id;
  FILE *out, *scores;
  /* what was scored: means for the closing line */
  guint n_scored, n_psnr;
  gdouble ssim_sum, psnr_sum;
} Scorer;

static gdouble
score (Scorer *s, const SvcDumpRecord *r, const vpx_image_t *img)
{
  GstVideoFrame frame;
  const guint8 *shown;
  gint stride;
  gdouble ssim, psnr;

  gst_video_frame_map (&frame, &s->info, s->shown, GST_MAP_READWRITE);
  svc_scaler_render (&s->scaler, img, &frame);
  shown = GST_VIDEO_FRAME_PLANE_DATA (&frame, 0);
  stride = GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0);
  ssim = octo_ssim (s->source, width, shown, stride, (guint) width,
      (guint) height);
  psnr = octo_psnr (s->source, width, shown, stride, (guint) width,
      (guint) height);
  gst_video_frame_unmap (&frame);
  if (s->scores)
    fprintf (s->scores, "%u,%u,%.6f,%.3f\n", r->frame_id, r->index, ssim,
        psnr);
  s->n_scored++;
  s->ssim_sum += ssim;
  if (isfinite (psnr)) {
    s->n_psnr++;
    s->psnr_sum += psnr;
  }
  return ssim;
}

static void
write_row (Scorer *s, const SvcDumpRecord *r, gdouble quality)
{
  OctoSentRow row = {
    .frame = r->frame_id, .index = r->index, .capture = r->capture_ns,
    .keyframe = r->keyframe, .temporal_layer = r->temporal_layer,
    .quality = quality,
  };
  gchar line[OCTO_FRAME_LOG_ROW_MAX];
  fwrite (line, 1, octo_frame_log_sent_row (&row, line), s->out);
}

static gboolean
process (Scorer *s, const SvcDumpRecord *r, GError **error)
{
  const vpx_image_t *img;

  if (s->have_source && r->frame_id < s->frame_id) {
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
        "frame ids go back (%u after %u)", r->frame_id, s->frame_id);
    return FALSE;
  }
  /* the clip's frame with this id: frame ids count the encoded frames */
  while (!s->have_source || svc_clip_position (s->clip) <=
      (guint64) r->frame_id) {
    s->source = svc_clip_next (s->clip, error);
    if (!s->source)
      return FALSE;
    s->have_source = TRUE;
  }
  s->frame_id = r->frame_id;
  /* a message whose reference was never sent (the sender flushed) cannot
   * be shown: it keeps its row, scored 0, and stays out of the decoder */
  if (!svc_decodability_add_layer (&s->decodability, r->frame_id,
          r->keyframe, r->temporal_layer, r->index)) {
    write_row (s, r, 0);
    return TRUE;
  }
  img = svc_vpx_decoder_decode (s->decoder, r->payload, r->size, error);
  if (!img) {
    if (error && *error)
      return FALSE;
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
        "frame %u layer %u produced no picture", r->frame_id, r->index);
    return FALSE;
  }
  write_row (s, r, score (s, r, img));
  return TRUE;
}

int
main (int argc, char **argv)
{
  GOptionContext *ctx = g_option_context_new ("- SSIM of every layer a "
      "sender produced, as octo-metrics' sent log");
  GError *error = NULL;
  GMappedFile *dump;
  const guint8 *data;
  gsize len, offset = SVC_DUMP_MAGIC_LEN;
  Scorer s = { 0 };
  guint records = 0;
  int status = 1;

  g_option_context_add_main_entries (ctx, entries, NULL);
  gst_init (&argc, &argv);
  if (!g_option_context_parse (ctx, &argc, &argv, &error) || !dump_path
      || !clip_path || !out_path || !codec_name
      || (strcmp (codec_name, "vp8") && strcmp (codec_name, "vp9"))
      || width < 16 || height < 16 || width % 2 || height % 2
      || temporal_layers < 0 || temporal_layers > 3) {
    g_printerr ("octo-svc-quality: %s\n%s", error ? error->message :
        "need --dump, --clip, --codec vp8|vp9 and --out (even sizes >= 16, "
        "0..3 temporal layers)",
        g_option_context_get_help (ctx, TRUE, NULL));
    return 2;
  }
  if (temporal_layers == 0)
    temporal_layers = strcmp (codec_name, "vp8") == 0 ? 3 : 1;
  dump = g_mapped_file_new (dump_path, FALSE, &error);
  if (!dump) {
    g_printerr ("octo-svc-quality: %s\n", error->message);
    return 1;
  }
  data = (const guint8 *) g_mapped_file_get_contents (dump);
  len = g_mapped_file_get_length (dump);
  if (len < SVC_DUMP_MAGIC_LEN || memcmp (data, SVC_DUMP_MAGIC,
          SVC_DUMP_MAGIC_LEN)) {
    g_printerr ("octo-svc-quality: %s: not a layer dump (no %s header)\n",
        dump_path, SVC_DUMP_MAGIC);
    goto done;
  }
  s.decoder = svc_vpx_decoder_new (strcmp (codec_name, "vp9") ?
      SVC_CODEC_VP8 : SVC_CODEC_VP9, 2, &error);
  s.clip = s.decoder ? svc_clip_open (clip_path, (guint) width,
      (guint) height, &error) : NULL;
  s.out = fopen (out_path, "w");
  s.scores = scores_path ? fopen (scores_path, "w") : NULL;
  if (!s.decoder || !s.clip || !s.out || (scores_path && !s.scores)) {
    g_printerr ("octo-svc-quality: %s\n", error ? error->message :
        g_strerror (errno));
    goto done;
  }
  svc_decodability_init (&s.decodability, temporal_layers);
  gst_video_info_set_format (&s.info, GST_VIDEO_FORMAT_I420, (guint) width,
      (guint) height);
  s.shown = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&s.info),
      NULL);
  fputs (OCTO_FRAME_LOG_SENT_HEADER, s.out);
  if (s.scores)
    fputs ("frame,index,ssim,psnr_db\n", s.scores);
  for (;;) {
    SvcDumpRecord r;
    gssize used = svc_dump_parse_record (data + offset, len - offset, offset,
        &r, &error);
    if (used == 0)
      break;
    if (used < 0 || !process (&s, &r, &error)) {
      g_printerr ("octo-svc-quality: %s: %s\n", dump_path, error->message);
      goto done;
    }
    offset += (gsize) used;
    records++;
  }
  g_print ("octo-svc-quality: scored %u layer messages of %" G_GUINT64_FORMAT
      " frames into %s: mean " OCTO_SSIM_NAME " %.4f, mean PSNR %.2f dB "
      "(%u identical)\n", records, svc_clip_position (s.clip), out_path,
      s.n_scored ? s.ssim_sum / s.n_scored : NAN,
      s.n_psnr ? s.psnr_sum / s.n_psnr : NAN, s.n_scored - s.n_psnr);
  status = 0;

done:
  if (s.out && fclose (s.out) != 0 && status == 0) {
    g_printerr ("octo-svc-quality: %s: %s\n", out_path, g_strerror (errno));
    status = 1;
  }
  if (s.scores && fclose (s.scores) != 0 && status == 0) {
    g_printerr ("octo-svc-quality: %s: %s\n", scores_path,
        g_strerror (errno));
    status = 1;
  }
  g_clear_error (&error);
  gst_clear_buffer (&s.shown);
  svc_scaler_clear (&s.scaler);
  svc_clip_free (s.clip);
  svc_vpx_decoder_free (s.decoder);
  g_mapped_file_unref (dump);
  g_option_context_free (ctx);
  return status;
}
