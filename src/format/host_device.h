/* host_device.h: TCSPMM_HOST_DEVICE marks the format helpers that the host
 * code and the kernels share (compiled for both under nvcc, plain C
 * elsewhere). */
#ifndef TCSPMM_HOST_DEVICE_H
#define TCSPMM_HOST_DEVICE_H

#ifdef __CUDACC__
#define TCSPMM_HOST_DEVICE __host__ __device__
#else
#define TCSPMM_HOST_DEVICE
#endif

#endif
