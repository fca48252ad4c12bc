/* The contact kernels at 8 lanes (contact_solver_lanes.h), built with -mavx512f on x86-64 and used
 * only where the CPU has AVX-512F. */
#include "core.h"

#define CAROM_LANES 8
#define CAROM_KERNEL_NAME carom_contact_kernel_lanes8
#include "contact_solver_lanes.h"
