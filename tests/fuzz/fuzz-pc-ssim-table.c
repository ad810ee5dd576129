/* Fuzzes the SSIM table reader (octopuspcenc's ssim-table file): every
 * refusal reads "NAME:LINE: reason", and an accepted table answers every
 * lookup with a finite SSIM. */
#include "pc-ssim-table.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  /* the parser takes a string: a NUL-terminated heap copy */
  gchar *text = g_strndup ((const gchar *) data, size);
  GError *error = NULL;
  OctoPcSsimTable *table = octo_pc_ssim_table_parse (text, "t", &error);
  static const double probes[] = { -1.0, 0.0, 1e-9, 0.3, 1.0, 2.5, 1e9 };

  if ((table == NULL) == (error == NULL))
    abort ();
  if (error && !g_str_has_prefix (error->message, "t:"))
    abort ();
  if (table) {
    for (guint i = 0; i < G_N_ELEMENTS (probes); i++)
      for (guint j = 0; j < G_N_ELEMENTS (probes); j++)
        if (!isfinite (octo_pc_ssim_table_lookup (table, probes[i],
                    probes[j])))
          abort ();
  }
  g_clear_error (&error);
  octo_pc_ssim_table_free (table);
  g_free (text);
  return 0;
}
