/* auto_path.h: the rule that picks HRPB or cuSPARSE for TCSPMM_PATH_AUTO
 * from the plan-time metrics, or leaves the choice to a measurement. */
#ifndef TCSPMM_AUTO_PATH_H
#define TCSPMM_AUTO_PATH_H

#include "tcspmm.h"

/* Returns the path for products of about n columns in precision (tf32, or
 * fp32 for FP32-accurate products) and writes a one-line reason. With
 * measure set it returns TCSPMM_PATH_AUTO wherever the rule's dense test
 * does not send the matrix to HRPB: the plan then measures (path_trial.h). */
tcspmm_path auto_path_choose(const tcspmm_info *info, int64_t n, tcspmm_precision precision,
                             int measure, char *reason, size_t len);

#endif
