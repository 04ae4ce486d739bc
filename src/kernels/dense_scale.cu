/* dense_scale.cu: C = beta * C on the device (dense_scale.h).
 *
 * C is seen as `outer` lines of `inner` contiguous elements, ld apart (rows
 * of a row-major C, columns of a column-major one). Block y of the grid owns
 * lines y, y + gridDim.y, ...; within a line the threads of the x blocks
 * stride along its elements. */
#include <cuda_runtime.h>

#include "../error.h"
#include "c_store.h"
#include "dense_scale.h"
#include "sp24_gpu.h"

enum { THREADS = 256, MAX_GRID_X = 256, MAX_GRID_Y = 65535 };

template <typename CT>
__global__ void __launch_bounds__(THREADS)
dense_scale_kernel(CT *__restrict__ C, int64_t outer, int64_t inner, int64_t ld, float beta)
{
    const int64_t stride = (int64_t)gridDim.x * THREADS;
    for (int64_t o = blockIdx.y; o < outer; o += gridDim.y) {
        CT *line = C + o * ld;
        for (int64_t i = (int64_t)blockIdx.x * THREADS + threadIdx.x; i < inner; i += stride)
            line[i] = from_float<CT>(beta == 0.0f ? 0.0f : beta * to_float(line[i]));
    }
}

template <typename CT>
static tcspmm_status launch(void *dC, int64_t outer, int64_t inner, int64_t ld, float beta,
                            cudaStream_t stream)
{
    const int64_t blocks_x = (inner + THREADS - 1) / THREADS;
    const dim3 grid((unsigned)(blocks_x < MAX_GRID_X ? blocks_x : MAX_GRID_X),
                    (unsigned)(outer < MAX_GRID_Y ? outer : MAX_GRID_Y));
    dense_scale_kernel<CT><<<grid, THREADS, 0, stream>>>((CT *)dC, outer, inner, ld, beta);
    return TCSPMM_CUDA(cudaGetLastError());
}

extern "C" tcspmm_status dense_scale(void *dC, int c_type, int64_t rows, int64_t n, int64_t ldc,
                                     int row_major, float beta, void *stream)
{
    if (rows == 0 || n == 0 || beta == 1.0f) return TCSPMM_SUCCESS;
    const int64_t outer = row_major ? rows : n, inner = row_major ? n : rows;
    cudaStream_t s = (cudaStream_t)stream;
    if (c_type == SP24_DATA_BF16) return launch<__nv_bfloat16>(dC, outer, inner, ldc, beta, s);
    if (c_type == SP24_DATA_FP16) return launch<__half>(dC, outer, inner, ldc, beta, s);
    return launch<float>(dC, outer, inner, ldc, beta, s);
}
