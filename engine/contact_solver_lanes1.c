/* The contact kernels at 1 lane (contact_solver_lanes.h): the scalar twin every other width is
 * tested against, and the kernel of the overflow constraints. */
#include "core.h"

#define CAROM_LANES 1
#define CAROM_KERNEL_NAME carom_contact_kernel_lanes1
#include "contact_solver_lanes.h"
