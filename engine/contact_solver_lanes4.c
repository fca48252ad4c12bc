/* The contact kernels at 4 lanes (contact_solver_lanes.h), built with -mavx2 on x86-64 and used
 * only where the CPU has AVX2. */
#include "core.h"

#define CAROM_LANES 4
#define CAROM_KERNEL_NAME carom_contact_kernel_lanes4
#include "contact_solver_lanes.h"
