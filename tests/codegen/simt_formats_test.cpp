// The generated kernels' small float formats against the reference's
// (runtime/float_formats.h), executed on OpenCL (PoCL in CI): every f32 to
// f8E4M3FN, f8E5M2, f8E8M0FNU and f4E2M1FN conversion of a set of inputs
// that holds each format's values, the midpoints between neighbours, their
// next floats on both sides, infinities, NaNs, zeros and float subnormals;
// and every code of each format decoded back to f32. Bit for bit.
#include <cmath>
#include <cstring>

#include <gtest/gtest.h>

#include "codegen/device/guard.h"
#include "codegen/device/probe.h"
#include "codegen/interp/float_math.h"
#include "codegen/opencl/cl_launch.h"
#include "codegen/runtime/devices.h"
#include "codegen/runtime/float_formats.h"
#include "codegen/simt/lower.h"
#include "codegen/simt/print.h"
#include "tests/codegen/interp_ops_util.h"

namespace tilesight::testing {
namespace {

constexpr Elem kFormats[] = {Elem::F8E4M3FN, Elem::F8E5M2, Elem::F8E8M0FNU, Elem::F4E2M1FN};
constexpr int kInputs = 4096;

std::string ir(Elem e) { return std::string(elemName(e)); }

// Inputs: each format's values, midpoints and their neighbours, specials, then a sweep of bit patterns.
std::vector<float> inputs() {
  std::vector<float> v = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, -NAN, 1e-45f, -1e-45f, 1e-40f, 3.4e38f, -3.4e38f};
  for (Elem e : kFormats) {
    int codes = elemBits(e) == 4 ? 16 : 256;
    for (int c = 0; c + 1 < codes; ++c) {
      double a = runtime::decodeFloat(e, c), b = runtime::decodeFloat(e, c + 1);
      if (!std::isfinite(a) || !std::isfinite(b)) continue;
      float mid = static_cast<float>((a + b) / 2);
      for (float x : {static_cast<float>(a), mid, std::nextafter(mid, -INFINITY), std::nextafter(mid, INFINITY)})
        if (v.size() < kInputs / 2) v.push_back(x);
    }
  }
  for (uint32_t i = 0; v.size() < kInputs; ++i) {
    uint32_t bits = i * 2654435761u;
    bits = (bits & 0x807fffffu) | ((96u + (bits >> 23) % 64u) << 23);  // exponents 2^-31 .. 2^32
    float f;
    std::memcpy(&f, &bits, 4);
    v.push_back(f);
  }
  return v;
}

// f4 has no memory form in the lowering (cuTile packs it): pack and unpack
// carry it through i8, two values a byte, low nibble first.
std::string program() {
  std::string params = "%in: tile<ptr<f32>>", body = load("%x", kInputs, "f32", "%in");
  std::string N = std::to_string(kInputs), last;
  for (size_t i = 0; i < 4; ++i) {
    bool f4 = elemBits(kFormats[i]) == 4;
    std::string n = std::to_string(i), t = ir(kFormats[i]), mem = f4 ? "i8" : t;
    params += ", %enc" + n + ": tile<ptr<" + mem + ">>, %codes" + n + ": tile<ptr<" + mem + ">>, %dec" + n + ": tile<ptr<f32>>";
    // f8E8M0FNU: both roundings it allows (to +inf stored, toward zero checked below).
    std::string rnd = kFormats[i] == Elem::F8E8M0FNU ? " rounding<positive_inf>" : "";
    body += "    %y" + n + " = ftof %x" + rnd + " : tile<" + N + "xf32> -> tile<" + N + "x" + t + ">\n";
    if (!rnd.empty()) {
      body += "    %w = ftof %x rounding<zero> : tile<" + N + "xf32> -> tile<" + N + "x" + t + ">\n";
      body += store("%w", N, t, "%toward_zero");
      last = ", %toward_zero: tile<ptr<" + t + ">>";
    }
    if (f4) {
      body += "    %py = pack %y" + n + " : tile<" + N + "x" + t + "> -> tile<" + std::to_string(kInputs / 2) + "xi8>\n";
      body += store("%py", std::to_string(kInputs / 2), "i8", "%enc" + n);
      body += load("%b" + n, 128, "i8", "%codes" + n);
      body += "    %c" + n + " = unpack %b" + n + " : tile<128xi8> -> tile<256x" + t + ">\n";
    } else {
      body += store("%y" + n, N, t, "%enc" + n);
      body += load("%c" + n, 256, t, "%codes" + n);
    }
    body += "    %z" + n + " = ftof %c" + n + " : tile<256x" + t + "> -> tile<256xf32>\n";
    body += store("%z" + n, "256", "f32", "%dec" + n);
  }
  return kernel(params + last, body);
}

TEST(SimtFormats, SmallFloatConversionsOnOpenClMatchTheReferenceBitForBit) {
  runtime::BackendReport cl = device::probe(runtime::Backend::OpenCL);
  if (cl.devices.empty()) GTEST_SKIP() << "no OpenCL device: " << cl.reason;
  std::string src = program();  // the analysis refers to its text
  Analysis a = analyze(src);
  VerifiedProgram::Result vp = VerifiedProgram::of(a, a.chunks.at(0));
  ASSERT_TRUE(vp.program) << (vp.reasons.empty() ? "" : vp.reasons[0]);
  auto k = simt::lower(*vp.program, *runtime::entriesOf(vp.program->program()).at(0));
  ASSERT_TRUE(static_cast<bool>(k)) << llvm::toString(k.takeError());
  std::vector<float> in = inputs();
  std::vector<runtime::HostBuffer> bufs(14);  // the last: f8E8M0FNU toward zero
  bufs[0].bytes.resize(kInputs * 4);
  std::memcpy(bufs[0].bytes.data(), in.data(), kInputs * 4);
  for (size_t i = 0; i < 4; ++i) {
    bufs[1 + 3 * i].bytes.assign(elemBits(kFormats[i]) == 4 ? kInputs / 2 : kInputs, 0);  // f4: packed
    bufs[2 + 3 * i].bytes.resize(256);
    for (int c = 0; c < 256; ++c) bufs[2 + 3 * i].bytes[c] = static_cast<uint8_t>(c);
    bufs[3 + 3 * i].bytes.assign(256 * 4, 0);
  }
  runtime::Launch l;
  l.source = simt::printKernel(*k, simt::Target::OpenCL);
  l.kernel = k->name;
  l.threads = k->threads;
  l.stageBytes = k->stageBytes;
  bufs[13].bytes.assign(kInputs, 0);
  for (auto& b : bufs) l.args.push_back({&b, {}});
  runtime::HostBuffer guard;  // the guard's table (on by default) after the buffers
  l.args.push_back({&guard, {}});
  device::fillGuard(l, l.args.size() - 1, {});
  runtime::LaunchResult r = opencl::launch(0, l);
  ASSERT_EQ(r.error, "");
  for (int j = 0; j < kInputs; ++j)
    ASSERT_EQ(bufs[13].bytes[j], runtime::encodeFloat(Elem::F8E8M0FNU, in[j], Rounding::Zero)) << "toward zero: " << in[j];
  for (size_t i = 0; i < 4; ++i) {
    Elem e = kFormats[i];
    bool f4 = elemBits(e) == 4;
    auto code = [&](const std::vector<uint8_t>& bytes, int j) { return f4 ? (bytes[j / 2] >> (4 * (j % 2))) & 15 : bytes[j]; };
    for (int j = 0; j < kInputs; ++j)
      ASSERT_EQ(code(bufs[1 + 3 * i].bytes, j), runtime::encodeFloat(e, in[j], e == Elem::F8E8M0FNU ? Rounding::PositiveInf : Rounding::NearestEven))
          << elemName(e) << " of " << in[j] << " (input " << j << ")";
    for (int c = 0; c < 256; ++c) {
      float got, want = static_cast<float>(runtime::decodeFloat(e, code(bufs[2 + 3 * i].bytes, c)));
      std::memcpy(&got, bufs[3 + 3 * i].bytes.data() + 4 * c, 4);
      if (std::isnan(want)) EXPECT_TRUE(std::isnan(got)) << elemName(e) << " code " << c;
      else EXPECT_EQ(std::memcmp(&got, &want, 4), 0) << elemName(e) << " code " << c << ": " << got << " vs " << want;
    }
  }
}

// Directed rounding of addf, subf, mulf, divf and sqrt in f32, f16, bf16 and
// f64 on OpenCL against the reference's (the FPU in the mode,
// float_directed.cpp).
constexpr int kPairs = 1024;
constexpr const char* kModes[] = {"zero", "negative_inf", "positive_inf"};
constexpr Rounding kRoundings[] = {Rounding::Zero, Rounding::NegativeInf, Rounding::PositiveInf};
constexpr OpKind kOps[] = {OpKind::Addf, OpKind::Subf, OpKind::Mulf, OpKind::Divf, OpKind::Sqrt};
constexpr const char* kOpNames[] = {"addf", "subf", "mulf", "divf", "sqrt"};
constexpr Elem kElems[] = {Elem::F32, Elem::F16, Elem::BF16, Elem::F64};

// Pairs that cancel, tie, overflow, underflow and carry specials, then a sweep.
void pairs(std::vector<float>& a, std::vector<float>& b) {
  const float specials[] = {0.0f, -0.0f, 1.0f, -1.0f, INFINITY, -INFINITY, NAN, 3.4e38f, -3.4e38f, 1e-45f, 6e-8f, 65504.0f, 0.1f};
  for (float x : specials)
    for (float y : specials) a.push_back(x), b.push_back(y);
  for (float x : {1.0f, 3.0f, 1024.0f, 0.75f}) {  // x plus half a unit and neighbours in f32 and f16
    for (float h : {std::ldexp(x, -24), std::ldexp(x, -11), std::ldexp(x, -8), std::ldexp(x, -30)})
      for (float y : {h, -h, std::nextafter(h, 0.0f), std::nextafter(h, INFINITY)}) a.push_back(x), b.push_back(y);
  }
  for (uint32_t i = 0; a.size() < kPairs; ++i) {
    uint32_t u = i * 2654435761u, v = (i + 7) * 40503u * 2654435761u;
    u = (u & 0x807fffffu) | ((100u + (u >> 23) % 56u) << 23);
    v = (v & 0x807fffffu) | ((100u + (v >> 23) % 56u) << 23);
    float x, y;
    std::memcpy(&x, &u, 4), std::memcpy(&y, &v, 4);
    a.push_back(x), b.push_back(i % 3 == 0 ? -x * 0.999f : y);
  }
  a.resize(kPairs), b.resize(kPairs);
}

std::string directedProgram() {
  std::string params = "%a: tile<ptr<f32>>, %b: tile<ptr<f32>>", body = load("%x", kPairs, "f32", "%a") + load("%y", kPairs, "f32", "%b");
  std::string N = std::to_string(kPairs);
  int out = 0;
  for (Elem e : kElems) {
    std::string t = ir(e), ty = "tile<" + N + "x" + t + ">";
    std::string xa = "%x", yb = "%y";
    if (e != Elem::F32) {
      xa = "%x_" + t, yb = "%y_" + t;
      body += "    " + xa + " = ftof %x : tile<" + N + "xf32> -> " + ty + "\n    " + yb + " = ftof %y : tile<" + N + "xf32> -> " + ty + "\n";
    }
    for (size_t m = 0; m < 3; ++m)
      for (size_t o = 0; o < 5; ++o) {
        std::string r = "%r" + std::to_string(out), args = o == 4 ? xa : xa + ", " + yb;
        body += "    " + r + " = " + kOpNames[o] + " " + args + " rounding<" + kModes[m] + "> : " + ty + "\n";
        std::string kept = e == Elem::F64 ? "f64" : "f32";  // narrow results widen exactly
        if (e != Elem::F32 && e != Elem::F64) {
          body += "    " + r + "w = ftof " + r + " : " + ty + " -> tile<" + N + "xf32>\n";
          r += "w";
        }
        body += store(r, N, kept, "%o" + std::to_string(out));
        params += ", %o" + std::to_string(out++) + ": tile<ptr<" + kept + ">>";
      }
  }
  return kernel(params, body);
}

TEST(SimtFormats, DirectedRoundingOnOpenClMatchesTheReferenceBitForBit) {
  runtime::BackendReport cl = device::probe(runtime::Backend::OpenCL);
  if (cl.devices.empty()) GTEST_SKIP() << "no OpenCL device: " << cl.reason;
  std::string src = directedProgram();  // the analysis refers to its text
  Analysis an = analyze(src);
  VerifiedProgram::Result vp = VerifiedProgram::of(an, an.chunks.at(0));
  ASSERT_TRUE(vp.program) << (vp.reasons.empty() ? "" : vp.reasons[0]);
  auto k = simt::lower(*vp.program, *runtime::entriesOf(vp.program->program()).at(0));
  ASSERT_TRUE(static_cast<bool>(k)) << llvm::toString(k.takeError());
  std::vector<float> a, b;
  pairs(a, b);
  std::vector<runtime::HostBuffer> bufs(2 + 60);
  bufs[0].bytes.resize(kPairs * 4), bufs[1].bytes.resize(kPairs * 4);
  std::memcpy(bufs[0].bytes.data(), a.data(), kPairs * 4), std::memcpy(bufs[1].bytes.data(), b.data(), kPairs * 4);
  for (size_t i = 2; i < bufs.size(); ++i) bufs[i].bytes.assign(kPairs * (i >= 47 ? 8 : 4), 0);  // the last 15: f64
  runtime::Launch l;
  l.source = simt::printKernel(*k, simt::Target::OpenCL);
  l.kernel = k->name;
  l.threads = k->threads;
  l.stageBytes = k->stageBytes;
  for (auto& buf : bufs) l.args.push_back({&buf, {}});
  runtime::HostBuffer guard;
  l.args.push_back({&guard, {}});
  device::fillGuard(l, l.args.size() - 1, {});
  runtime::LaunchResult r = opencl::launch(0, l);
  ASSERT_EQ(r.error, "");
  int out = 0, wrong = 0;
  for (Elem e : kElems) {
    std::vector<float> ea(a), eb(b);  // the operands as the format holds them
    for (int i = 0; i < kPairs && e != Elem::F32; ++i)
      ea[i] = static_cast<float>(runtime::roundTo(e, a[i])), eb[i] = static_cast<float>(runtime::roundTo(e, b[i]));
    for (size_t m = 0; m < 3; ++m)
      for (size_t o = 0; o < 5; ++o, ++out) {
        std::vector<double> want(kPairs);
        if (e == Elem::F64) {
          std::vector<double> da(a.begin(), a.end()), db(b.begin(), b.end());
          interp::directedDouble(kOps[o], kRoundings[m], da.data(), o == 4 ? nullptr : db.data(), nullptr, want.data(), kPairs);
        } else {
          std::vector<float> w(kPairs);
          interp::directedFloat(kOps[o], kRoundings[m], e, ea.data(), o == 4 ? nullptr : eb.data(), nullptr, w.data(), kPairs);
          want.assign(w.begin(), w.end());
        }
        for (int i = 0; i < kPairs; ++i) {
          double got;
          if (e == Elem::F64) std::memcpy(&got, bufs[2 + out].bytes.data() + 8 * i, 8);
          else {
            float g;
            std::memcpy(&g, bufs[2 + out].bytes.data() + 4 * i, 4);
            got = g;
          }
          bool same = std::isnan(want[i]) ? std::isnan(got) : std::memcmp(&got, &want[i], 8) == 0;
          if (!same && ++wrong <= 10)
            ADD_FAILURE() << elemName(e) << " " << kOpNames[o] << " rounding<" << kModes[m] << "> of " << ea[i] << ", " << eb[i]
                          << ": got " << got << ", the reference " << want[i];
        }
      }
  }
  EXPECT_EQ(wrong, 0);
}

}  // namespace
}  // namespace tilesight::testing
