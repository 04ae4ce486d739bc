/* options.h: checking plan options (the defaults are tcspmm_options_init). */
#ifndef TCSPMM_OPTIONS_H
#define TCSPMM_OPTIONS_H

#include "tcspmm.h"

tcspmm_status options_check(const tcspmm_options *opt);

#endif
