/* cpu.h — what the CPU can run.  Detection is recomputed on demand (it is a
 * few CPUID instructions), so there is no global state to race on. */
#ifndef SIMDSV_CPU_H
#define SIMDSV_CPU_H

#include "simdsv.h"

/* 1 if the running CPU (and OS) supports the kernel's instructions. */
int simdsv__cpu_supports(simdsv_kernel kernel);

#endif
