/* octopusplyenc: wraps each frame in pc-ply.c's binary PLY writer.  The
 * header carries what the frame's buffer knows, as comments: "frame-id N"
 * (the buffer offset), and from octopuspcdec's density meta "grid NX NZ
 * LAYERS", "cell-layers ..." and "cell-points ..." (per spatial cell). */
#include "gstoctopusplyenc.h"

#include "gstoctopuspcdec.h"
#include "pc-ply.h"

GST_DEBUG_CATEGORY_STATIC (gst_octopus_ply_enc_debug);
#define GST_CAT_DEFAULT gst_octopus_ply_enc_debug

struct _GstOctopusPlyEnc {
  GstElement parent;
  GstPad *sinkpad, *srcpad;
};

#define gst_octopus_ply_enc_parent_class parent_class
G_DEFINE_TYPE (GstOctopusPlyEnc, gst_octopus_ply_enc, GST_TYPE_ELEMENT);
GST_ELEMENT_REGISTER_DEFINE (octopusplyenc, "octopusplyenc", GST_RANK_NONE,
    GST_TYPE_OCTOPUS_PLY_ENC);

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS (OCTO_PC_CAPS));
static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS ("application/x-ply"));

static gchar *
uint_list (const gchar *name, const GValue *arr)
{
  GString *s = g_string_new (name);
  for (guint i = 0; arr && i < gst_value_array_get_size (arr); i++)
    g_string_append_printf (s, " %u",
        g_value_get_uint (gst_value_array_get_value (arr, i)));
  return g_string_free (s, FALSE);
}

static GStrv
comments_of (GstBuffer *buf)
{
  GPtrArray *b = g_ptr_array_new ();
  GstCustomMeta *meta = gst_buffer_get_custom_meta (buf,
      GST_OCTOPUS_PC_DENSITY_META);

  if (GST_BUFFER_OFFSET_IS_VALID (buf))
    g_ptr_array_add (b, g_strdup_printf ("frame-id %" G_GUINT64_FORMAT,
            GST_BUFFER_OFFSET (buf)));
  if (meta) {
    const GstStructure *s = gst_custom_meta_get_structure (meta);
    guint nx = 0, nz = 0, layers = 0;
    gst_structure_get_uint (s, "cells-x", &nx);
    gst_structure_get_uint (s, "cells-z", &nz);
    gst_structure_get_uint (s, "density-layers", &layers);
    g_ptr_array_add (b, g_strdup_printf ("grid %u %u %u", nx, nz,
            layers));
    g_ptr_array_add (b, uint_list ("cell-layers",
            gst_structure_get_value (s, "layers")));
    g_ptr_array_add (b, uint_list ("cell-points",
            gst_structure_get_value (s, "cell-points")));
  }
  g_ptr_array_add (b, NULL);
  return (GStrv) g_ptr_array_free (b, FALSE);
}

static GstFlowReturn
gst_octopus_ply_enc_chain (GstPad *pad, GstObject *parent, GstBuffer *in)
{
  GstOctopusPlyEnc *self = GST_OCTOPUS_PLY_ENC (parent);
  GstMapInfo map;
  GstBuffer *out;
  GStrv comments = comments_of (in);

  (void) pad;
  gst_buffer_map (in, &map, GST_MAP_READ);
  out = gst_buffer_new_wrapped_bytes (octo_pc_ply_write (
          (const OctoPcPoint *) map.data, map.size / sizeof (OctoPcPoint),
          (const gchar *const *) comments));
  gst_buffer_unmap (in, &map);
  g_strfreev (comments);
  gst_buffer_copy_into (out, in, GST_BUFFER_COPY_METADATA, 0, -1);
  gst_buffer_unref (in);
  return gst_pad_push (self->srcpad, out);
}

static gboolean
gst_octopus_ply_enc_sink_event (GstPad *pad, GstObject *parent,
    GstEvent *event)
{
  GstOctopusPlyEnc *self = GST_OCTOPUS_PLY_ENC (parent);

  if (GST_EVENT_TYPE (event) == GST_EVENT_CAPS) {
    GstCaps *caps = gst_static_pad_template_get_caps (&src_template);
    gst_event_unref (event);
    event = gst_event_new_caps (caps);
    gst_caps_unref (caps);
    return gst_pad_push_event (self->srcpad, event);
  }
  return gst_pad_event_default (pad, parent, event);
}

static void
gst_octopus_ply_enc_class_init (GstOctopusPlyEncClass *klass)
{
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (element_class,
      "Octopus PLY writer", "Codec/Encoder/PointCloud",
      "Point-cloud frames as binary little-endian PLY files", GST_OCTOPUS_AUTHORS);
  GST_DEBUG_CATEGORY_INIT (gst_octopus_ply_enc_debug, "octopusplyenc", 0,
      "Octopus PLY writer");
}

static void
gst_octopus_ply_enc_init (GstOctopusPlyEnc *self)
{
  self->sinkpad = gst_pad_new_from_static_template (&sink_template, "sink");
  gst_pad_set_chain_function (self->sinkpad,
      GST_DEBUG_FUNCPTR (gst_octopus_ply_enc_chain));
  gst_pad_set_event_function (self->sinkpad,
      GST_DEBUG_FUNCPTR (gst_octopus_ply_enc_sink_event));
  gst_element_add_pad (GST_ELEMENT (self), self->sinkpad);
  self->srcpad = gst_pad_new_from_static_template (&src_template, "src");
  gst_pad_use_fixed_caps (self->srcpad);
  gst_element_add_pad (GST_ELEMENT (self), self->srcpad);
}
