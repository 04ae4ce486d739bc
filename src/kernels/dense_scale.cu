/* dense_scale.cu: D = S + beta * D and D = beta * D elementwise on the
 * device, between float, bf16 and fp16 (dense_scale.h).
 *
 * A matrix is seen as `outer` lines of `inner` contiguous elements, ld apart
 * (rows of a row-major matrix, columns of a column-major one). Block y of the
 * grid owns lines y, y + gridDim.y, ...; within a line the threads of the x
 * blocks stride along its elements, four at a time where the lines'
 * alignment allows; a matrix without gaps between its lines is one line.
 * Without S (NULL) the update is D = beta * D. */
#include <cuda_runtime.h>
#include <stdint.h>

#include "../error.h"
#include "c_store.h"
#include "dense_scale.h"
#include "sp24_gpu.h"

/* MAX_GRID_X: enough blocks to keep a whole GPU's loads in flight on one
 * long line (the gapless matrices of tcspmm_spmm_ex's float copies). */
enum { THREADS = 256, MAX_GRID_X = 4096, MAX_GRID_Y = 65535 };

template <typename ST, typename DT, int V>
__global__ void __launch_bounds__(THREADS)
dense_update_kernel(const ST *__restrict__ S, int64_t lds, DT *__restrict__ D, int64_t ldd,
                    int64_t outer, int64_t inner, float beta)
{
    typedef c_vector<ST, V> s_vec;
    typedef c_vector<DT, V> d_vec;
    const int64_t stride = (int64_t)gridDim.x * THREADS, groups = inner / V;
    for (int64_t o = blockIdx.y; o < outer; o += gridDim.y) {
        const s_vec *s = S ? reinterpret_cast<const s_vec *>(S + o * lds) : NULL;
        d_vec *d = reinterpret_cast<d_vec *>(D + o * ldd);
        for (int64_t i = (int64_t)blockIdx.x * THREADS + threadIdx.x; i < groups; i += stride) {
            const d_vec old = beta == 0.0f ? d_vec{} : d[i];
            const s_vec x = s ? s[i] : s_vec{};
            d_vec out;
#pragma unroll
            for (int v = 0; v < V; v++) {
                const float kept = beta == 0.0f ? 0.0f : beta * to_float(old.e[v]);
                out.e[v] = from_float<DT>(s ? to_float(x.e[v]) + kept : kept);
            }
            d[i] = out;
        }
    }
}

/* Elements moved per access: 4 where every line's start is aligned to
 * four elements of both types and its length is a multiple of 4, else 1. */
template <typename ST, typename DT>
static bool by_four(const void *S, int64_t lds, const void *D, int64_t ldd, int64_t outer,
                    int64_t inner)
{
    const bool s_ok = !S || ((uintptr_t)S % (4 * sizeof(ST)) == 0 && (outer == 1 || lds % 4 == 0));
    const bool d_ok = (uintptr_t)D % (4 * sizeof(DT)) == 0 && (outer == 1 || ldd % 4 == 0);
    return inner % 4 == 0 && s_ok && d_ok;
}

template <typename ST, typename DT>
static tcspmm_status launch(const void *S, int64_t lds, void *D, int64_t ldd, int64_t outer,
                            int64_t inner, float beta, cudaStream_t stream)
{
    const bool four = by_four<ST, DT>(S, lds, D, ldd, outer, inner);
    const int64_t blocks_x = (inner / (four ? 4 : 1) + THREADS - 1) / THREADS;
    const dim3 grid((unsigned)(blocks_x < MAX_GRID_X ? blocks_x : MAX_GRID_X),
                    (unsigned)(outer < MAX_GRID_Y ? outer : MAX_GRID_Y));
    if (four)
        dense_update_kernel<ST, DT, 4>
            <<<grid, THREADS, 0, stream>>>((const ST *)S, lds, (DT *)D, ldd, outer, inner, beta);
    else
        dense_update_kernel<ST, DT, 1>
            <<<grid, THREADS, 0, stream>>>((const ST *)S, lds, (DT *)D, ldd, outer, inner, beta);
    return TCSPMM_CUDA(cudaGetLastError());
}

/* The launch for D's element type DT and S's type s_type. */
template <typename DT>
static tcspmm_status launch_into(const void *S, int s_type, int64_t lds, void *D, int64_t ldd,
                                 int64_t outer, int64_t inner, float beta, cudaStream_t stream)
{
    if (s_type == SP24_DATA_BF16)
        return launch<__nv_bfloat16, DT>(S, lds, D, ldd, outer, inner, beta, stream);
    if (s_type == SP24_DATA_FP16) return launch<__half, DT>(S, lds, D, ldd, outer, inner, beta, stream);
    return launch<float, DT>(S, lds, D, ldd, outer, inner, beta, stream);
}

extern "C" tcspmm_status dense_add_converted(const void *dS, int s_type, int64_t lds, void *dD,
                                             int d_type, int64_t ldd, int64_t rows, int64_t n,
                                             int row_major, float beta, void *stream)
{
    if (rows == 0 || n == 0) return TCSPMM_SUCCESS;
    int64_t outer = row_major ? rows : n, inner = row_major ? n : rows;
    if ((!dS || lds == inner) && ldd == inner) { /* no gaps: one line */
        inner *= outer;
        outer = 1;
    }
    cudaStream_t s = (cudaStream_t)stream;
    if (d_type == SP24_DATA_BF16)
        return launch_into<__nv_bfloat16>(dS, s_type, lds, dD, ldd, outer, inner, beta, s);
    if (d_type == SP24_DATA_FP16)
        return launch_into<__half>(dS, s_type, lds, dD, ldd, outer, inner, beta, s);
    return launch_into<float>(dS, s_type, lds, dD, ldd, outer, inner, beta, s);
}

extern "C" tcspmm_status dense_scale(void *dC, int c_type, int64_t rows, int64_t n, int64_t ldc,
                                     int row_major, float beta, void *stream)
{
    if (beta == 1.0f) return TCSPMM_SUCCESS;
    return dense_add_converted(NULL, c_type, 0, dC, c_type, ldc, rows, n, row_major, beta, stream);
}
