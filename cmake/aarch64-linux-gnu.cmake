# Cross-compiling for aarch64 (Debian's gcc-aarch64-linux-gnu); tests run under qemu-aarch64.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64 -L /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
# The host's zlib/libzstd are not aarch64 libraries: the cross-built library
# reads plain input only (and its tests make no compressed input).
set(SIMDSV_INPUT_GZIP OFF CACHE BOOL "" FORCE)
set(SIMDSV_INPUT_ZSTD OFF CACHE BOOL "" FORCE)
# Nor are its compression libraries: the cross-built writers have no codecs.
set(SIMDSV_WRITE_SNAPPY OFF CACHE BOOL "" FORCE)
set(SIMDSV_WRITE_ZLIB OFF CACHE BOOL "" FORCE)
set(SIMDSV_WRITE_ZSTD OFF CACHE BOOL "" FORCE)
set(SIMDSV_WRITE_LZ4 OFF CACHE BOOL "" FORCE)
