/* hrpb_kernels_16bit.cu: the HRPB kernel's instances for a bf16 or fp16 B
 * (TF32), with a float C or one of B's type (hrpb_kernel.h): a module of
 * their own, loaded at the first use of one. */
#include "hrpb_kernel.h"

HRPB_KERNEL_FAMILY(false, SP24_DATA_BF16, SP24_DATA_FP32);
HRPB_KERNEL_FAMILY(false, SP24_DATA_BF16, SP24_DATA_BF16);
HRPB_KERNEL_FAMILY(false, SP24_DATA_FP16, SP24_DATA_FP32);
HRPB_KERNEL_FAMILY(false, SP24_DATA_FP16, SP24_DATA_FP16);
