#ifndef PURCHASE_SLI_C_MALLOC_TUNING_H
#define PURCHASE_SLI_C_MALLOC_TUNING_H

/// Caps glibc's malloc arenas at `count` (mallopt M_ARENA_MAX). Returns 1 when set, 0 when not (another
/// C library, or glibc refused). Call it before the process starts threads.
int purchase_sli_limit_malloc_arenas(int count);

/// Returns the free memory of every malloc arena to the system (malloc_trim(0)). Returns 1 when some was
/// released, 0 when none was or the C library has no such call.
int purchase_sli_trim_malloc(void);

#endif
