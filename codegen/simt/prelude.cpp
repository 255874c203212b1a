// The text every generated kernel starts with: the TS_ macros that hide the
// dialect (CUDA C++, HIP C++, OpenCL C 1.2) and the ts_ helpers, written
// once in the C subset all three accept. Narrow float formats are converted
// in software, rounding to nearest even exactly as the interpreter does
// (interp/float_formats.cpp), so integer and copy kernels match it bit for
// bit on every target.
#include "codegen/simt/print.h"

namespace tilesight::simt {

namespace {

// CUDA and HIP share the CUDA dialect (HIP keeps CUDA's names); they differ
// in how a helper is declared and how float contraction is turned off: CUDA
// adds and multiplies with the _rn intrinsics, which nvcc never fuses; HIP's
// clang takes the pragma.
constexpr const char* kCudaFamily = R"(#define TS_GLOBAL
#define TS_LOCAL
#define TS_TID ((int)threadIdx.x)
#define TS_BID(d) ((ts_i32)((d) == 0 ? blockIdx.x : (d) == 1 ? blockIdx.y : blockIdx.z))
#define TS_NBLK(d) ((ts_i32)((d) == 0 ? gridDim.x : (d) == 1 ? gridDim.y : gridDim.z))
#define TS_BARRIER() __syncthreads()
#define TS_FENCE(scope) ((scope) == 0 ? __threadfence_block() : (scope) == 1 ? __threadfence() : __threadfence_system())
typedef long long ts_i64;
typedef unsigned long long ts_u64;
#define TS_BITS_F32(u) __uint_as_float(u)
#define TS_F32_BITS(f) __float_as_uint(f)
#define TS_BITS_F64(u) __longlong_as_double((long long)(u))
#define TS_F64_BITS(d) ((ts_u64)__double_as_longlong(d))
#define TS_CAS32(a, c, v) atomicCAS((unsigned int*)(a), (c), (v))
#define TS_CAS64(a, c, v) atomicCAS((unsigned long long*)(a), (c), (v))
#define TS_ISNAN(x) isnan(x)
)";

// Tensor cores (WMMA) on sm_80 and newer, where the toolkit's mma.h is
// found; everywhere else the TensorCores statements' portable variants.
constexpr const char* kCuda = R"(#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800 && defined(__has_include)
#if __has_include(<mma.h>)
#include <mma.h>
#include <cuda_bf16.h>
#define TS_TENSOR_CORES 1
#endif
#endif
#ifndef TS_TENSOR_CORES
#define TS_TENSOR_CORES 0
#endif
#define TS_FN static __device__ __forceinline__
#define TS_ADDF(a, b) __fadd_rn(a, b)
#define TS_SUBF(a, b) __fsub_rn(a, b)
#define TS_MULF(a, b) __fmul_rn(a, b)
#define TS_ADDD(a, b) __dadd_rn(a, b)
#define TS_SUBD(a, b) __dsub_rn(a, b)
#define TS_MULD(a, b) __dmul_rn(a, b)
)";

// HIP and OpenCL turn contraction off with a pragma, so plain operators round once each.
constexpr const char* kPlainArith = R"(#define TS_ADDF(a, b) ((a) + (b))
#define TS_SUBF(a, b) ((a) - (b))
#define TS_MULF(a, b) ((a) * (b))
#define TS_ADDD(a, b) ((a) + (b))
#define TS_SUBD(a, b) ((a) - (b))
#define TS_MULD(a, b) ((a) * (b))
)";

constexpr const char* kHip = R"(#pragma clang fp contract(off)
#define TS_FN static __device__ inline
/* fragments of AMD's matrix instructions (MFMA, RDNA WMMA) */
typedef _Float16 ts_h4 __attribute__((ext_vector_type(4)));
typedef _Float16 ts_h8 __attribute__((ext_vector_type(8)));
typedef _Float16 ts_h16 __attribute__((ext_vector_type(16)));
typedef float ts_f4 __attribute__((ext_vector_type(4)));
typedef float ts_f8 __attribute__((ext_vector_type(8)));
)";

constexpr const char* kOpenCL = R"(#pragma OPENCL FP_CONTRACT OFF
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#define TS_FN static inline
#define TS_GLOBAL __global
#define TS_LOCAL __local
#define TS_TID ((int)get_local_id(0))
#define TS_BID(d) ((ts_i32)get_group_id(d))
#define TS_NBLK(d) ((ts_i32)get_num_groups(d))
#define TS_BARRIER() barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)
#define TS_FENCE(scope) mem_fence(CLK_GLOBAL_MEM_FENCE)
typedef long ts_i64;
typedef ulong ts_u64;
#define TS_BITS_F32(u) as_float((uint)(u))
#define TS_F32_BITS(f) as_uint(f)
#define TS_BITS_F64(u) as_double((ulong)(u))
#define TS_F64_BITS(d) as_ulong(d)
#define TS_CAS32(a, c, v) atomic_cmpxchg((volatile __global uint*)(a), (c), (v))
#define TS_CAS64(a, c, v) atom_cmpxchg((volatile __global ulong*)(a), (c), (v))
#define TS_ISNAN(x) isnan(x)
)";

// Shared by all three: integer widths, memory access, narrow floats,
// integer division and shifts with the spec's rules, float max/min,
// float-to-int saturation, and the fault record. The integer helpers
// (ts_wrap, ts_divi, ts_remi, ts_shl, ts_shr, ts_lt, ts_mulhi) are the C
// text of analysis/semantics/int_ops.cpp, the one C++ definition; the
// differential tests compare the two.
constexpr const char* kCommon = R"(typedef signed char ts_i8;
typedef short ts_i16;
typedef int ts_i32;
typedef unsigned char ts_u8;
typedef unsigned short ts_u16;
typedef unsigned int ts_u32;
#define TS_LD(T, addr) (*(TS_GLOBAL T*)(addr))
#define TS_ST(T, addr, v) (*(TS_GLOBAL T*)(addr) = (v))
#define TS_STAGE(T, off) ((TS_LOCAL T*)((TS_LOCAL char*)ts_stage + (off)))

TS_FN float ts_h2f(ts_u32 h) {
  ts_u32 s = (h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
  if (e == 0x1fu) return TS_BITS_F32(s | 0x7f800000u | (m << 13));
  if (e == 0) {
    float v = (float)m * 5.9604644775390625e-8f;
    return s ? -v : v;
  }
  return TS_BITS_F32(s | ((e + 112u) << 23) | (m << 13));
}
TS_FN ts_u32 ts_f2h(float f) {
  ts_u32 x = TS_F32_BITS(f), s = (x >> 16) & 0x8000u, a = x & 0x7fffffffu;
  if (a > 0x7f800000u) return s | 0x7e00u | ((a >> 13) & 0x3ffu);
  if (a >= 0x477ff000u) return s | 0x7c00u;
  if (a < 0x38800000u) {
    /* below the smallest normal: the multiple of 2^-24 nearest, ties to even */
    float v = TS_BITS_F32(a) * 16777216.0f;
    ts_u32 q = (ts_u32)v;
    float r = v - (float)q;
    if (r > 0.5f || (r == 0.5f && (q & 1u))) q += 1u;
    return s | q;
  }
  ts_u32 r = a - 0x38000000u;
  return s | ((r + 0xfffu + ((r >> 13) & 1u)) >> 13);
}
TS_FN float ts_bf2f(ts_u32 b) { return TS_BITS_F32(b << 16); }
TS_FN ts_u32 ts_f2bf(float f) {
  ts_u32 x = TS_F32_BITS(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) return (x >> 16) | 0x40u;
  return (x + 0x7fffu + ((x >> 16) & 1u)) >> 16;
}
TS_FN float ts_rf16(float f) { return ts_h2f(ts_f2h(f)); }
TS_FN float ts_rbf16(float f) { return ts_bf2f(ts_f2bf(f)); }
TS_FN float ts_rtf32(float f) {
  ts_u32 x = TS_F32_BITS(f);
  if ((x & 0x7fffffffu) >= 0x7f800000u) return f;
  return TS_BITS_F32((x + 0xfffu + ((x >> 13) & 1u)) & 0xffffe000u);
}

/* Small float formats (f8E4M3FN, f8E5M2, f4E2M1FN) held in float, as
   TS_E4M3 etc. name them: exponent and mantissa bits, bias, what an all-ones
   exponent is (0 IEEE inf/NaN, 1 only S.1111.111 is NaN, 2 finite) and
   whether out-of-range values saturate. Round to nearest even. */
#define TS_E4M3 4, 3, 7, 1, 1
#define TS_E5M2 5, 2, 15, 0, 1
#define TS_E2M1 2, 1, 1, 2, 1
TS_FN float ts_pow2(int e) {
  return e >= -126 ? TS_BITS_F32((ts_u32)(e + 127) << 23) : TS_BITS_F32(0x00400000u >> (-127 - e));
}
TS_FN float ts_decf(ts_u32 bits, int eb, int mb, int bias, int top, int sat) {
  ts_u32 man = bits & ((1u << mb) - 1u), ef = (bits >> mb) & ((1u << eb) - 1u), emax = (1u << eb) - 1u;
  ts_u32 neg = (bits >> (eb + mb)) & 1u;
  float sign = neg ? -1.0f : 1.0f;
  /* a NaN keeps its sign and payload, quiet, as the reference widens it */
  if ((ef == emax && top == 0 && man != 0u) || (ef == emax && top == 1 && man == (1u << mb) - 1u))
    return TS_BITS_F32((neg << 31) | 0x7fc00000u | (man << (23 - mb)));
  if (ef == emax && top == 0) return sign * TS_BITS_F32(0x7f800000u);
  if (ef == 0u) return sign * ((float)man * ts_pow2(1 - bias - mb));
  return sign * ((float)(man | (1u << mb)) * ts_pow2((int)ef - bias - mb));
}
TS_FN ts_u32 ts_encf(float x, int eb, int mb, int bias, int top, int sat) {
  ts_u32 xb = TS_F32_BITS(x), a = xb & 0x7fffffffu, sign = (xb >> 31) << (eb + mb);
  ts_u32 expAll = ((1u << eb) - 1u) << mb, manMask = (1u << mb) - 1u;
  ts_u32 maxFin = top == 0 ? expAll - 1u : top == 1 ? (expAll | (manMask - 1u)) : (expAll | manMask);
  if (a > 0x7f800000u) return top != 0 ? maxFin : sign | expAll | ((a & 0x7fffffu) >> (23 - mb)) | (1u << (mb - 1));
  if (a == 0x7f800000u) return sign | (sat ? maxFin : expAll);
  if (a == 0u) return sign;
  /* |x| = M * 2^E exactly; k = floor(log2 |x|) */
  ts_u64 M = (a >> 23) ? (ts_u64)((a & 0x7fffffu) | 0x800000u) : (ts_u64)a;
  int E = (a >> 23) ? (int)(a >> 23) - 150 : -149, len = 0;
  while ((M >> len) != 0u) ++len;
  int k = E + len - 1, minExp = 1 - bias;
  int s = (k > minExp ? k : minExp) - mb - E;
  if (s > 62) s = 62;
  ts_u64 q = M >> s, rem = M & ((((ts_u64)1) << s) - 1u), mid = ((ts_u64)1) << (s - 1);
  ts_u64 n = q + ((rem > mid || (rem == mid && (q & 1u))) ? 1u : 0u);
  int biasedMinus1 = k + bias - 1 > 0 ? k + bias - 1 : 0;
  ts_u64 mag = ((ts_u64)biasedMinus1 << mb) + n;
  return sign | (mag > maxFin ? (sat ? maxFin : expAll) : (ts_u32)mag);
}
TS_FN float ts_roundf(float x, int eb, int mb, int bias, int top, int sat) {
  return ts_decf(ts_encf(x, eb, mb, bias, top, sat), eb, mb, bias, top, sat);
}
/* f8E8M0FNU: 2^(bits - 127), 0xff NaN. mode 0: nearest by value, ties to the
   even encoding; 1: toward zero; 2: toward +inf */
TS_FN float ts_dece8m0(ts_u32 bits) { return bits == 0xffu ? TS_BITS_F32(0x7fc00000u) : ts_pow2((int)bits - 127); }
TS_FN ts_u32 ts_ence8m0(float x, int mode) {
  ts_u32 a = TS_F32_BITS(x);
  if ((a & 0x7fffffffu) > 0x7f800000u) return 0xffu;
  if (!(x > 0.0f)) return 0u;
  if (a == 0x7f800000u) return 0xfeu;
  ts_u32 M = (a >> 23) ? ((a & 0x7fffffu) | 0x800000u) : a;
  int E = (a >> 23) ? (int)(a >> 23) - 150 : -149, len = 0;
  while ((M >> len) != 0u) ++len;
  int k = E + len - 1;
  ts_u32 frac = (M << (24 - len)) & 0x7fffffu; /* the bits below the leading one, as a normal's mantissa */
  if (frac != 0u && (mode == 2 || (mode == 0 && (frac > 0x400000u || (frac == 0x400000u && ((k + 127) & 1)))))) ++k;
  k = k < -127 ? -127 : k > 127 ? 127 : k;
  return (ts_u32)(k + 127);
}

/* Directed rounding (mode 1 toward zero, 2 toward -inf, 3 toward +inf) of
   op k (0 add, 1 sub, 2 mul, 3 div, 4 sqrt): the nearest result s and the
   part nearest rounding dropped (err: exact by two-sum, or an fma
   remainder) decide whether the directed result is s or its neighbour.
   Overflow gives the largest finite value where the mode rounds toward it,
   and an exact zero sum is -0 toward -inf, as IEEE 754 says. (In f64, a
   remainder or product error below the smallest subnormal loses its sign.) */
#define TS_DIRECTED(T, SFX, MAXV, INFV, ADD, SUB, MUL)                                                 \
  TS_FN T ts_near##SFX(int k, T a, T b, T* err) {                                                    \
    T s;                                                                                             \
    if (k <= 1) {                                                                                    \
      if (k == 1) b = -b;                                                                            \
      s = ADD(a, b);                                                                                 \
      T bb = SUB(s, a);                                                                              \
      *err = ADD(SUB(a, SUB(s, bb)), SUB(b, bb));                                                    \
    } else if (k == 2) {                                                                             \
      s = MUL(a, b);                                                                                 \
      *err = fma(a, b, -s);                                                                          \
    } else if (k == 3) {                                                                             \
      s = a / b;                                                                                     \
      T r = fma(-s, b, a);                                                                           \
      *err = b > (T)0 ? r : -r;                                                                      \
    } else {                                                                                         \
      s = sqrt(a);                                                                                   \
      *err = fma(-s, s, a);                                                                          \
    }                                                                                                \
    if (TS_ISNAN(*err) || isinf(s) || (k == 3 && b == (T)0)) *err = (T)0;                            \
    return s;                                                                                        \
  }                                                                                                  \
  TS_FN T ts_dir##SFX(T s, T err, int mode) {                                                        \
    if (!(err != (T)0) || TS_ISNAN(s)) return s;                                                     \
    int up = err > (T)0;                                                                             \
    if (mode == 3) return up ? nextafter(s, INFV) : s;                                               \
    if (mode == 2) return up ? s : nextafter(s, -INFV);                                              \
    if (s > (T)0) return up ? s : nextafter(s, (T)0);                                                \
    if (s < (T)0) return up ? nextafter(s, (T)0) : s;                                                \
    return s;                                                                                        \
  }                                                                                                  \
  TS_FN int ts_overflows##SFX(int k, T a, T b, T s) {                                                \
    return isinf(s) && !isinf(a) && (k == 4 || !isinf(b)) && !(k == 3 && b == (T)0);                 \
  }                                                                                                  \
  TS_FN T ts_directed##SFX(int k, T a, T b, int mode) {                                              \
    T err, s = ts_near##SFX(k, a, b, &err), b2 = k == 1 ? -b : b;                                    \
    if (ts_overflows##SFX(k, a, b, s)) return s > (T)0 ? (mode == 3 ? s : MAXV) : (mode == 2 ? s : -MAXV); \
    if (k <= 1 && s == (T)0 && mode == 2) return (a == (T)0 && b2 == (T)0 && !signbit(a) && !signbit(b2)) ? (T)0 : -(T)0; \
    return ts_dir##SFX(s, err, mode);                                                                \
  }
TS_DIRECTED(double, d, 1.7976931348623157e308, TS_BITS_F64(0x7ff0000000000000u), TS_ADDD, TS_SUBD, TS_MULD)
/* f32 (fmt 0), f16 (1) and bf16 (2), held in float: the op in double (its
   nearest s and dropped part err are exact there, far from underflow), then
   s rounded toward the mode's direction in the format. r, a neighbour of s
   in the format, moves one step where the exact value lies past it. */
TS_FN float ts_step16(float r, int up, int bf) {
  ts_u32 h = bf ? ts_f2bf(r) : ts_f2h(r), neg = h >> 15;
  if ((h & 0x7fffu) == 0u) return up ? (bf ? ts_bf2f(1u) : ts_h2f(1u)) : (bf ? ts_bf2f(0x8001u) : ts_h2f(0x8001u));
  h = (up != (int)neg) ? h + 1u : h - 1u;
  return bf ? ts_bf2f(h) : ts_h2f(h);
}
TS_FN float ts_stepfmt(float r, int up, int fmt) {
  if (fmt == 0) return nextafter(r, up ? TS_BITS_F32(0x7f800000u) : TS_BITS_F32(0xff800000u));
  return ts_step16(r, up, fmt == 2);
}
TS_FN float ts_directedfmt(int k, float a, float b, int mode, int fmt) {
  double err, s = ts_neard(k, (double)a, (double)b, &err);
  float b2 = k == 1 ? -b : b;
  if (k <= 1 && s == 0.0 && mode == 2) return (a == 0.0f && b2 == 0.0f && !signbit(a) && !signbit(b2)) ? 0.0f : -0.0f;
  float f = (float)s, r = fmt == 0 ? f : fmt == 1 ? ts_rf16(f) : ts_rbf16(f);
  if (TS_ISNAN(s) || isinf(s)) return r;
  float maxv = fmt == 0 ? 3.40282347e38f : fmt == 1 ? 65504.0f : ts_bf2f(0x7f7fu);
  if (isinf(r)) r = s > 0.0 ? maxv : -maxv;
  double side = (double)r != s ? s - (double)r : err; /* the sign of (exact - r) */
  if (!(side != 0.0)) return r;
  if (side > 0.0) return (mode == 3 || (mode == 1 && r < 0.0f)) ? ts_stepfmt(r, 1, fmt) : r;
  return (mode == 2 || (mode == 1 && r > 0.0f)) ? ts_stepfmt(r, 0, fmt) : r;
}

TS_FN ts_i64 ts_wrap(ts_i64 v, int bits) {
  if (bits >= 64) return v;
  if (bits == 1) return v & 1;
  return (ts_i64)((ts_u64)v << (64 - bits)) >> (64 - bits);
}
TS_FN ts_u64 ts_uns(ts_i64 v, int bits) { return bits >= 64 ? (ts_u64)v : (ts_u64)v & ((((ts_u64)1) << bits) - 1u); }
TS_FN ts_i64 ts_sgn(ts_i64 v, int bits) { return bits == 1 ? -(v & 1) : v; }

/* 4-bit elements (pointer values count nibbles: twice the byte address, plus
   1 for the high nibble). A store replaces its nibble with a CAS on the
   aligned 32-bit word that holds it: the other nibble of the byte belongs
   to another thread. */
TS_FN ts_u32 ts_ld4(ts_u64 p) { return ((ts_u32)TS_LD(ts_u8, p >> 1) >> ((ts_u32)(p & 1u) * 4u)) & 15u; }
TS_FN void ts_st4(ts_u64 p, ts_u32 bits) {
  ts_u64 byte = p >> 1;
  TS_GLOBAL ts_u32* w = (TS_GLOBAL ts_u32*)(byte & ~(ts_u64)3);
  const int sh = (int)((byte & 3u) * 8u + (p & 1u) * 4u);
  ts_u32 cur = *(volatile TS_GLOBAL ts_u32*)w, prev;
  do { prev = cur; cur = TS_CAS32(w, prev, (prev & ~(15u << sh)) | ((bits & 15u) << sh)); } while (cur != prev);
}

/* The guard (simt::Kernel::guarded has the layout of its words g): whether
   bytes [a, a + n) lie inside one of the launch's buffers; the first access
   that does not is recorded, and its caller skips it. */
TS_FN int ts_inside(TS_GLOBAL const ts_u64* g, ts_u64 a, ts_u64 n) {
  for (ts_u64 i = 0; i < g[6]; ++i) {
    ts_u64 base = g[7 + 2 * i], size = g[8 + 2 * i];
    if (a >= base && a - base <= size && n <= size - (a - base)) return 1;
  }
  return 0;
}
TS_FN int ts_guarded(TS_GLOBAL ts_u64* g, ts_u64 a, ts_u64 n, int site, ts_i64 k) {
  if (ts_inside(g, a, n)) return 1;
  if (TS_CAS32((TS_GLOBAL ts_u32*)g, 0u, (ts_u32)(site + 1)) == 0u) {
    ts_u64 below = 0, base = 0;
    for (ts_u64 i = 0; i < g[6]; ++i)
      if (g[7 + 2 * i] <= a && (below == 0 || g[7 + 2 * i] >= base)) below = i + 1, base = g[7 + 2 * i];
    g[1] = (ts_u64)(TS_BID(0) + TS_NBLK(0) * (TS_BID(1) + TS_NBLK(1) * TS_BID(2)));
    g[2] = (ts_u64)k, g[3] = a, g[4] = below, g[5] = a - base;
  }
  return 0;
}

/* n words of the print buffer: where they start (the counter moves even when they do not fit) */
TS_FN ts_u64 ts_reserve(TS_GLOBAL ts_u64* buf, ts_u64 n) {
  ts_u64 seen = *(volatile TS_GLOBAL ts_u64*)buf, prev;
  while ((prev = TS_CAS64(buf, seen, seen + n)) != seen) seen = prev;
  return seen;
}
TS_FN void ts_fail(TS_GLOBAL ts_i32* status, int op) {
  if (TS_CAS32(status, 0u, (ts_u32)(op + 1)) == 0u)
    status[1] = TS_BID(0) + TS_NBLK(0) * (TS_BID(1) + TS_NBLK(1) * TS_BID(2));
}
/* signed or unsigned division with rounding 0: toward zero, 1: toward -inf, 2: toward +inf */
TS_FN ts_i64 ts_divi(ts_i64 a, ts_i64 b, int bits, int sgn, int mode, TS_GLOBAL ts_i32* status, int op) {
  if (ts_uns(b, bits) == 0) { ts_fail(status, op); return 0; }
  if (!sgn) {
    ts_u64 ua = ts_uns(a, bits), ub = ts_uns(b, bits), q = ua / ub;
    if (mode == 2 && q * ub != ua) q += 1u;
    return ts_wrap((ts_i64)q, bits);
  }
  a = ts_sgn(a, bits), b = ts_sgn(b, bits);
  if (b == -1) return ts_wrap((ts_i64)(0u - (ts_u64)a), bits);
  ts_i64 q = a / b, r = a - q * b;
  if (r != 0 && mode == 1 && ((r < 0) != (b < 0))) q -= 1;
  if (r != 0 && mode == 2 && ((r < 0) == (b < 0))) q += 1;
  return ts_wrap(q, bits);
}
TS_FN ts_i64 ts_remi(ts_i64 a, ts_i64 b, int bits, int sgn, TS_GLOBAL ts_i32* status, int op) {
  if (ts_uns(b, bits) == 0) { ts_fail(status, op); return 0; }
  if (!sgn) return ts_wrap((ts_i64)(ts_uns(a, bits) % ts_uns(b, bits)), bits);
  a = ts_sgn(a, bits), b = ts_sgn(b, bits);
  return b == -1 ? 0 : ts_wrap(a % b, bits);
}
TS_FN ts_i64 ts_shl(ts_i64 a, ts_i64 s, int bits) {
  ts_u64 n = ts_uns(s, bits);
  return n >= (ts_u64)bits ? 0 : ts_wrap((ts_i64)((ts_u64)a << n), bits);
}
TS_FN ts_i64 ts_shr(ts_i64 a, ts_i64 s, int bits, int sgn) {
  ts_u64 n = ts_uns(s, bits);
  if (sgn) return ts_wrap(ts_sgn(a, bits) >> (n >= (ts_u64)bits ? (ts_u64)bits - 1u : n), bits);
  return n >= (ts_u64)bits ? 0 : ts_wrap((ts_i64)(ts_uns(a, bits) >> n), bits);
}
TS_FN int ts_lt(ts_i64 a, ts_i64 b, int bits, int sgn) {
  return sgn ? ts_sgn(a, bits) < ts_sgn(b, bits) : ts_uns(a, bits) < ts_uns(b, bits);
}
TS_FN ts_i64 ts_mulhi(ts_i64 a, ts_i64 b, int bits) {
  ts_u64 ua = ts_uns(a, bits), ub = ts_uns(b, bits);
  if (bits <= 32) return ts_wrap((ts_i64)((ua * ub) >> bits), bits);
  ts_u64 lo = (ua & 0xffffffffu) * (ub & 0xffffffffu), m1 = (ua >> 32) * (ub & 0xffffffffu),
         m2 = (ua & 0xffffffffu) * (ub >> 32), hi = (ua >> 32) * (ub >> 32);
  ts_u64 mid = (lo >> 32) + (m1 & 0xffffffffu) + (m2 & 0xffffffffu);
  return (ts_i64)(hi + (m1 >> 32) + (m2 >> 32) + (mid >> 32));
}
/* the interpreter's float to integer: toward zero, saturating, NaN is 0 */
TS_FN ts_i64 ts_ftoi(double x, int bits, int sgn) {
  if (TS_ISNAN(x)) return 0;
  double lo = sgn ? -ldexp(1.0, bits - 1) : 0.0, hi = sgn ? ldexp(1.0, bits - 1) : ldexp(1.0, bits);
  if (x <= lo) return sgn ? ts_wrap((ts_i64)((ts_u64)1 << (bits - 1)), bits) : 0;
  if (x >= hi) return sgn ? ts_wrap((ts_i64)(((ts_u64)1 << (bits - 1)) - 1u), bits) : ts_wrap((ts_i64)(bits >= 64 ? ~(ts_u64)0 : (((ts_u64)1 << bits) - 1u)), bits);
  if (!sgn && x >= 9223372036854775808.0) return ts_wrap((ts_i64)((ts_u64)(x - 9223372036854775808.0) + 9223372036854775808u), bits);
  return ts_wrap((ts_i64)x, bits);
}
TS_FN float ts_maxminf(float a, float b, int max, int nan) {
  if (TS_ISNAN(a) || TS_ISNAN(b)) {
    if (nan || (TS_ISNAN(a) && TS_ISNAN(b))) return TS_BITS_F32(0x7fc00000u);
    return TS_ISNAN(a) ? b : a;
  }
  if (a == b) return ((TS_F32_BITS(a) >> 31) == (ts_u32)(max ? 0 : 1)) ? a : b;
  return (a < b) == (max != 0) ? b : a;
}
TS_FN double ts_maxmind(double a, double b, int max, int nan) {
  if (TS_ISNAN(a) || TS_ISNAN(b)) {
    if (nan || (TS_ISNAN(a) && TS_ISNAN(b))) return TS_BITS_F64(0x7ff8000000000000u);
    return TS_ISNAN(a) ? b : a;
  }
  if (a == b) return ((TS_F64_BITS(a) >> 63) == (ts_u64)(max ? 0 : 1)) ? a : b;
  return (a < b) == (max != 0) ? b : a;
}
)";

}  // namespace

const char* targetName(Target t) {
  switch (t) {
    case Target::Cuda: return "cuda";
    case Target::Hip: return "hip";
    case Target::OpenCL: return "opencl";
  }
  return "?";
}

std::string prelude(Target t) {
  switch (t) {
    case Target::Cuda: return std::string(kCuda) + kCudaFamily + kCommon;
    case Target::Hip: return std::string(kHip) + kCudaFamily + kPlainArith + kCommon;
    case Target::OpenCL: break;
  }
  return std::string(kOpenCL) + kPlainArith + kCommon;
}

}  // namespace tilesight::simt
