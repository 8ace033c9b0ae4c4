/* ipc.h — the Arrow IPC writer (ipc.c): stream and file formats. */
#ifndef SIMDSV_IPC_H
#define SIMDSV_IPC_H

#include "write.h"

simdsv_status simdsv__ipc_write(struct ArrowArrayStream *stream, wsink *sink, const simdsv_write_options *opt);

#endif
