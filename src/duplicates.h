/* Duplicate destinations among a scatter's pairs. */
#ifndef SGK_DUPLICATES_H
#define SGK_DUPLICATES_H

#include <stdbool.h>
#include <stdint.h>

#include "sgk.h"

/* Marks keep[n] for the last pair n of each distinct slot (the one a
   sequential `none` scatter leaves in place) and stores how many were kept;
   kept == count means the slots are all distinct.  Uses a bitmap over the
   slots when that is small beside the pairs, else a sort.  Returns
   SGK_ERR_OUT_OF_MEMORY when scratch cannot be had. */
sgk_status sgk_find_last_occurrences(const int64_t *slot, int64_t count, int64_t slots,
                                     bool *keep, int64_t *kept);

#endif
