/* The contact kernels at 2 lanes (contact_solver_lanes.h): SSE2 on x86, NEON on aarch64,
 * WebAssembly SIMD where enabled, scalar pairs elsewhere. */
#include "core.h"

#define CAROM_LANES 2
#define CAROM_KERNEL_NAME carom_contact_kernel_lanes2
#include "contact_solver_lanes.h"
