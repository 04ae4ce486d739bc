/* device_scope.h: a public call that works on a plan's GPU makes that GPU
 * current for its work and gives the caller back its own current device
 * before it returns (src/device_scope.c). */
#ifndef TCSPMM_DEVICE_SCOPE_H
#define TCSPMM_DEVICE_SCOPE_H

#include "tcspmm.h"

typedef struct device_scope {
    int caller;  /* the caller's current device */
    int changed; /* whether enter made another one current */
} device_scope;

/* Makes device current if it is not, remembering the caller's. */
tcspmm_status device_scope_enter(device_scope *s, int device);

/* Makes the caller's device current again, if enter changed it. */
void device_scope_leave(const device_scope *s);

#endif
