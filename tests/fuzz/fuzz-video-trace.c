/* Fuzzes the video-trace readers octopustracesrc and the simulator load
 * from files: the first byte picks the kind (temporal, quality, cloud),
 * the rest is the file.  Every refusal reads "NAME:LINE: reason" in valid
 * UTF-8, whatever bytes the file has; a header cannot make the reader
 * allocate for entries the file cannot hold. */
#include "octo-video-trace.h"

#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  GError *error = NULL;
  gboolean ok;

  if (size == 0)
    return 0;
  /* a heap copy of exactly the file's bytes so ASan sees any overread */
  gchar *text = g_memdup2 (data + 1, size - 1);
  switch (data[0] % 3) {
    case 0:{
      OctoTemporalTrace *t = octo_temporal_trace_parse ("f", text, size - 1,
          &error);
      ok = t != NULL;
      octo_temporal_trace_free (t);
      break;
    }
    case 1:{
      OctoQualityTrace *t = octo_quality_trace_parse ("f", text, size - 1,
          &error);
      ok = t != NULL;
      octo_quality_trace_free (t);
      break;
    }
    default:{
      OctoCloudTrace *t = octo_cloud_trace_parse ("f", text, size - 1,
          &error);
      ok = t != NULL;
      octo_cloud_trace_free (t);
      break;
    }
  }
  if (ok == (error != NULL))
    abort ();
  if (error && (!g_str_has_prefix (error->message, "f:")
          || !g_utf8_validate (error->message, -1, NULL)))
    abort ();
  g_clear_error (&error);
  g_free (text);
  return 0;
}
