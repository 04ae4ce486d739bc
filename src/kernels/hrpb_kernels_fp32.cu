/* hrpb_kernels_fp32.cu: the HRPB kernel's instances for a float B and C in
 * FP32-accurate 3xTF32 (hrpb_kernel.h): a module of their own, loaded at the
 * first use of one. */
#include "hrpb_kernel.h"

HRPB_KERNEL_FAMILY(true, SP24_DATA_FP32, SP24_DATA_FP32);
