/* auto_path.c: the automatic choice between the HRPB tensor-core kernel and
 * cuSPARSE. Provisional rule until calibrated on the sweep: tensor cores
 * when the matrix has medium or high synergy. */
#include "auto_path.h"

#include <stdio.h>
#include <string.h>

tcspmm_path auto_path_choose(const tcspmm_info *info, int64_t n, char *reason, size_t len)
{
    (void)n;
    int good = strcmp(info->synergy, "medium") == 0 || strcmp(info->synergy, "high") == 0;
    snprintf(reason, len, "synergy %s (alpha=%.3f)", info->synergy, info->alpha);
    return good ? TCSPMM_PATH_HRPB : TCSPMM_PATH_CUSPARSE;
}
