/* The grid's 3D prefix sums (dealer.pxd's grid_prefix, which every module that counts into a
   grid inlines): the one C kernel the modules share, in C for its SSE2 form. */
#ifndef ASIAPOKER_GRID_H
#define ASIAPOKER_GRID_H

#include <stdint.h>
#include <Python.h>

/* The inclusive 3D prefix sums of nh x nm rows of 8 int32 cells (grid_prefix): one pass,
   each row scanned along its 8 cells, added to the running 2D sum of its (high) plane,
   plus the plane before's row; the cells zeros after when clear.  SSE2 (every x86-64)
   scans a row in two registers; elsewhere the same sums in plain loops. */
#if defined(__SSE2__) || defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 2)
#include <emmintrin.h>
static void asiapoker_prefix8(int32_t* c, int32_t* q, Py_ssize_t nh, Py_ssize_t nm,
                              int clear) {
    const __m128i zero = _mm_setzero_si128();
    Py_ssize_t i, j;
    for (i = 0; i < nh; i++) {
        __m128i r0 = zero, r1 = zero;
        const int32_t* up = i ? q - 8 * nm : q;
        for (j = 0; j < nm; j++) {
            __m128i a = _mm_loadu_si128((const __m128i*)c);
            __m128i b = _mm_loadu_si128((const __m128i*)(c + 4));
            a = _mm_add_epi32(a, _mm_slli_si128(a, 4));
            a = _mm_add_epi32(a, _mm_slli_si128(a, 8));
            b = _mm_add_epi32(b, _mm_slli_si128(b, 4));
            b = _mm_add_epi32(b, _mm_slli_si128(b, 8));
            b = _mm_add_epi32(b, _mm_shuffle_epi32(a, 0xFF));
            r0 = _mm_add_epi32(r0, a);
            r1 = _mm_add_epi32(r1, b);
            a = r0;
            b = r1;
            if (i) {
                a = _mm_add_epi32(a, _mm_loadu_si128((const __m128i*)up));
                b = _mm_add_epi32(b, _mm_loadu_si128((const __m128i*)(up + 4)));
            }
            _mm_storeu_si128((__m128i*)q, a);
            _mm_storeu_si128((__m128i*)(q + 4), b);
            if (clear) {
                _mm_storeu_si128((__m128i*)c, zero);
                _mm_storeu_si128((__m128i*)(c + 4), zero);
            }
            c += 8;
            q += 8;
            up += 8;
        }
    }
}
#else
static void asiapoker_prefix8(int32_t* c, int32_t* q, Py_ssize_t nh, Py_ssize_t nm,
                              int clear) {
    Py_ssize_t i, j;
    int l;
    for (i = 0; i < nh; i++) {
        int32_t r[8] = {0, 0, 0, 0, 0, 0, 0, 0};
        const int32_t* up = i ? q - 8 * nm : q;
        for (j = 0; j < nm; j++) {
            int32_t run = 0;
            for (l = 0; l < 8; l++) {
                run += c[l];
                r[l] += run;
                q[l] = r[l] + (i ? up[l] : 0);
                if (clear)
                    c[l] = 0;
            }
            c += 8;
            q += 8;
            up += 8;
        }
    }
}
#endif

#endif
