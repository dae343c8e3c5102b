/* Shape rules shared by ScatterElements and GatherElements. */
#ifndef SGK_ELEMENTS_SHAPE_H
#define SGK_ELEMENTS_SHAPE_H

#include "sgk.h"

/* rank(indices) == rank(data) >= 1, axis in [-r, r-1] (normalized into
   *axis_out), indices.shape[d] <= data.shape[d] for d != axis. */
sgk_status sgk_check_elements_shapes(const char *op, const sgk_tensor *data,
                                     const sgk_tensor *indices, int64_t axis, int *axis_out);

#endif
