/* tf32_round.h: rounding a float to TF32 on the device with cvt.rna (to
 * nearest, ties away from zero), as the HRPB kernel does below sm_90 and the
 * structured path does everywhere (sparse24.h's sp24_round on the host). */
#ifndef TCSPMM_TF32_ROUND_H
#define TCSPMM_TF32_ROUND_H

#include <stdint.h>

/* The TF32 bits of x, rounded by cvt.rna. cvt.rna only clears a NaN's low
 * 13 bits, so a NaN whose payload lies there (0x7f800001 to 0x7f801fff and
 * their negations) would read as an infinity: it becomes the TF32 NaN
 * 0x7fffe000. */
__device__ __forceinline__ uint32_t tf32_rna_bits(float x)
{
    uint32_t u;
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(u) : "f"(x));
    return x != x ? 0x7fffe000u : u;
}

#endif
