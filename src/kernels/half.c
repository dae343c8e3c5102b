#include <string.h>

#include "kernels/half.h"

static uint32_t bits_of(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static float float_of(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

float sgk_f16_to_f32(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu;
    uint32_t man = h & 0x3ffu;
    if (exp == 0x1f) /* inf or NaN: keep the payload, widened */
        return float_of(sign | 0x7f800000u | (man << 13));
    if (exp == 0) {
        /* zero or subnormal: man * 2^-24, exact in float32 */
        float magnitude = (float)man * 0x1p-24f;
        return sign ? -magnitude : magnitude;
    }
    return float_of(sign | ((exp + 112u) << 23) | (man << 13));
}

uint16_t sgk_f32_to_f16(float f)
{
    uint32_t u = bits_of(f);
    uint16_t sign = (uint16_t)((u >> 16) & 0x8000u);
    uint32_t abs = u & 0x7fffffffu;
    if (abs > 0x7f800000u) /* NaN: quiet, keep the top payload bits */
        return (uint16_t)(sign | 0x7e00u | ((abs >> 13) & 0x3ffu));
    if (abs >= 0x477ff000u) /* rounds to >= 65520: overflow to infinity */
        return (uint16_t)(sign | 0x7c00u);
    if (abs < 0x38800000u) {
        /* below the smallest normal half (2^-14): a subnormal or zero.
           Adding 0.5 (2^-1) aligns the mantissa so that the float adder's own
           round-to-nearest-even does the rounding at 2^-24. */
        float shifted = float_of(abs) + 0.5f;
        return (uint16_t)(sign | (uint16_t)(bits_of(shifted) - 0x3f000000u));
    }
    uint32_t rounded = abs + 0xfffu + ((abs >> 13) & 1u);
    return (uint16_t)(sign | (uint16_t)((rounded - 0x38000000u) >> 13));
}

float sgk_bf16_to_f32(uint16_t h)
{
    return float_of((uint32_t)h << 16);
}

uint16_t sgk_f32_to_bf16(float f)
{
    uint32_t u = bits_of(f);
    if ((u & 0x7fffffffu) > 0x7f800000u) /* NaN: quiet, never round to inf */
        return (uint16_t)((u >> 16) | 0x40u);
    return (uint16_t)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}
