/* IEEE binary16 and bfloat16 <-> float32, rounding to nearest-even. */
#ifndef SGK_HALF_H
#define SGK_HALF_H

#include <stdint.h>

float sgk_f16_to_f32(uint16_t h);
uint16_t sgk_f32_to_f16(float f);
float sgk_bf16_to_f32(uint16_t h);
uint16_t sgk_f32_to_bf16(float f);

#endif
