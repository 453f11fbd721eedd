/* Compiler differences, in one place (as msgpack's sysdep.h): the bit scans and the
   prefetch hint the core uses, and the loop-unrolling hint, each for GCC and clang (builtins),
   MSVC (intrinsics) and any other C99 compiler (plain loops, or nothing for a hint).
   None of them changes a result: the fallbacks compute the same bits. */
#ifndef ASIAPOKER_SYSDEP_H
#define ASIAPOKER_SYSDEP_H

#include <stdint.h>

#if defined(__GNUC__) || defined(__clang__)
/* the index of the lowest set bit of x (x != 0), and the count of leading zero bits of a
   64-bit x (x != 0) */
#define asiapoker_ctz32(x) __builtin_ctz((unsigned int)(x))
#define asiapoker_ctz64(x) __builtin_ctzll((unsigned long long)(x))
#define asiapoker_clz64(x) __builtin_clzll((unsigned long long)(x))
#define ASIAPOKER_PREFETCH(p) __builtin_prefetch(p)

#elif defined(_MSC_VER)
#include <intrin.h>
static __inline int asiapoker_ctz32(uint32_t x) {
    unsigned long i;
    _BitScanForward(&i, x);
    return (int)i;
}
#if defined(_M_X64) || defined(_M_ARM64)
static __inline int asiapoker_ctz64(uint64_t x) {
    unsigned long i;
    _BitScanForward64(&i, x);
    return (int)i;
}
static __inline int asiapoker_clz64(uint64_t x) {
    unsigned long i;
    _BitScanReverse64(&i, x);
    return 63 - (int)i;
}
#else
static __inline int asiapoker_ctz64(uint64_t x) {
    return (uint32_t)x ? asiapoker_ctz32((uint32_t)x) : 32 + asiapoker_ctz32((uint32_t)(x >> 32));
}
static __inline int asiapoker_clz64(uint64_t x) {
    unsigned long i;
    if (x >> 32) {
        _BitScanReverse(&i, (unsigned long)(x >> 32));
        return 31 - (int)i;
    }
    _BitScanReverse(&i, (unsigned long)x);
    return 63 - (int)i;
}
#endif
#if defined(_M_X64) || defined(_M_IX86)
#include <xmmintrin.h>
#define ASIAPOKER_PREFETCH(p) _mm_prefetch((const char*)(p), _MM_HINT_T0)
#else
#define ASIAPOKER_PREFETCH(p) ((void)(p))
#endif

#else  /* any other C99 compiler: plain loops */
static inline int asiapoker_ctz32(uint32_t x) {
    int n = 0;
    while (!(x & 1u)) { x >>= 1; n++; }
    return n;
}
static inline int asiapoker_ctz64(uint64_t x) {
    int n = 0;
    while (!(x & 1u)) { x >>= 1; n++; }
    return n;
}
static inline int asiapoker_clz64(uint64_t x) {
    int n = 0;
    while (!(x >> 63)) { x <<= 1; n++; }
    return n;
}
#define ASIAPOKER_PREFETCH(p) ((void)(p))
#endif

/* a hint that the loop after it may be unrolled eight times (GCC 8 and newer take it) */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 8
#define ASIAPOKER_UNROLL8 _Pragma("GCC unroll 8")
#else
#define ASIAPOKER_UNROLL8
#endif

#endif /* ASIAPOKER_SYSDEP_H */
