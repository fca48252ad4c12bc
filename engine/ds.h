/* stb_ds (dynamic arrays and hash maps) as carom uses it.
 *
 * - Its allocations go through carom's allocator hook.
 * - Its external symbols are renamed with a carom_ prefix, so an application that also compiles
 *   stb_ds into itself links without duplicate symbols.
 * - Its hash-map macros use typeof, which strict C11 lacks; __typeof__ is the same operator.
 * carom uses only the dynamic arrays: its hash maps are its own (hash_map.h), because stb_ds's
 * hash of 4- and 8-byte keys has undefined behaviour that UBSan reports. */
#ifndef CAROM_DS_H
#define CAROM_DS_H

#include "core.h"

#ifndef typeof
#define typeof __typeof__
#endif

#define stbds_rand_seed carom_stbds_rand_seed
#define stbds_hash_bytes carom_stbds_hash_bytes
#define stbds_hash_string carom_stbds_hash_string
#define stbds_stralloc carom_stbds_stralloc
#define stbds_strreset carom_stbds_strreset
#define stbds_unit_tests carom_stbds_unit_tests
#define stbds_arrgrowf carom_stbds_arrgrowf
#define stbds_arrfreef carom_stbds_arrfreef
#define stbds_hmfree_func carom_stbds_hmfree_func
#define stbds_hmget_key carom_stbds_hmget_key
#define stbds_hmget_key_ts carom_stbds_hmget_key_ts
#define stbds_hmput_default carom_stbds_hmput_default
#define stbds_hmput_key carom_stbds_hmput_key
#define stbds_hmdel_key carom_stbds_hmdel_key
#define stbds_shmode_func carom_stbds_shmode_func

#define STBDS_REALLOC(context, pointer, size) carom_realloc(pointer, size)
#define STBDS_FREE(context, pointer) carom_free(pointer)

#include <stb/stb_ds.h>

/* Exchange two stb_ds arrays (their pointers), e.g. this step's and the last step's: kept aside
 * without a copy. */
#define CAROM_SWAP_ARRAYS(a, b)                                                                   \
    do {                                                                                           \
        void* swapped = (a);                                                                       \
        (a) = (b);                                                                                 \
        (b) = swapped;                                                                             \
    } while (0)

/* Room for `bytes` in the stb_ds byte array *memory, from its first 64-byte boundary (a cache
 * line), which is returned. stb_ds aligns only as the allocator does (16 bytes with glibc's
 * malloc), so an array of 32-byte records, such as the solver's body states, would otherwise
 * have every other record across two lines. What the array held stays at the address returned
 * until a call asks for more room than the array has (stb_ds then moves it). */
static inline void* carom_line_aligned(unsigned char** memory, size_t bytes) {
    arrsetlen(*memory, bytes + 63);
    uintptr_t base = (uintptr_t)*memory;
    return *memory + ((64 - (base & 63)) & 63);
}

#endif
