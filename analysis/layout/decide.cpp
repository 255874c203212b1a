// Exact decisions for a layout (reference/layouts.md §4): bijective by the
// sorted-stride test, surjective by the sorted prefix test, injective by a
// cascade: stride 0, gcd, superincreasing, pair collision, the rank-2 rule,
// two exact reductions (gcd block split, mode cap), then the cheaper of a
// bitset DP over [0, C) and enumeration. A layout that is not injective
// always comes with two coordinates and their offset.
//
// Everything works on the canonical modes: flattened, size-1 modes dropped,
// strides replaced by |d|. Reflecting x -> s-1-x on a negative mode only
// translates the image (by minOffset), so the verdicts do not change.
#include <algorithm>
#include <bit>
#include <cmath>
#include <numeric>
#include <unordered_map>

#include "analysis/layout/layout.h"

namespace tilesight::layout {
namespace {

using Wide = __int128;  // sums of (s-1)*d may pass int64 for huge strides

struct Mode {
  int64_t s, d;  // s > 1, d = |stride| (divided by a common gcd inside the cascade)
  size_t leaf;   // position of the mode in the flattened shape
};

// Two canonical coordinates (one entry per leaf of the shape) with equal offsets.
struct Witness {
  std::vector<int64_t> a, b;
};

struct Verdict {
  bool injective = true;
  bool decided = true;
  std::vector<std::string> methods;  // the tests that decided it, in order, no repeats
  std::optional<Witness> witness;

  void add(const std::string& m) {
    if (std::find(methods.begin(), methods.end(), m) == methods.end()) methods.push_back(m);
  }
};

Verdict injectiveBy(std::string method) { return {true, true, {std::move(method)}, std::nullopt}; }
Verdict collisionBy(std::string method, Witness w) { return {false, true, {std::move(method)}, std::move(w)}; }

std::vector<Mode> canonicalModes(const std::vector<int64_t>& s, const std::vector<int64_t>& d) {
  std::vector<Mode> m;
  for (size_t i = 0; i < s.size(); ++i)
    if (s[i] != 1) m.push_back({s[i], d[i] < 0 ? -d[i] : d[i], i});
  std::stable_sort(m.begin(), m.end(), [](const Mode& x, const Mode& y) { return x.d < y.d; });
  return m;
}

Wide maxImage(const std::vector<Mode>& m) {  // cosize - 1
  Wide c = 0;
  for (const Mode& x : m) c += Wide(x.s - 1) * x.d;
  return c;
}

// A: the sorted modes form a mixed-radix numeral system, i.e. a bijection onto [0, N).
bool compact(const std::vector<Mode>& sorted) {
  Wide cur = 1;
  for (const Mode& x : sorted) {
    if (x.d != cur) return false;
    cur *= x.s;
  }
  return true;
}

// B: the prefix image is [0, M]; the next stride must not skip M + 1.
std::optional<int64_t> firstGap(const std::vector<Mode>& sorted) {
  Wide m = 0;
  for (const Mode& x : sorted) {
    if (x.d == 0) continue;
    if (x.d > m + 1) return static_cast<int64_t>(m + 1);
    m += Wide(x.s - 1) * x.d;
  }
  return std::nullopt;
}

bool superincreasing(const std::vector<Mode>& sorted) {
  Wide m = 0;
  for (const Mode& x : sorted) {
    if (x.d <= m) return false;
    m += Wide(x.s - 1) * x.d;
  }
  return true;
}

// For modes i, j with g = gcd(d_i, d_j): x_i = d_j/g and x_j = d_i/g reach the
// same offset whenever both fit in their modes.
std::optional<Witness> pairCollision(const std::vector<Mode>& m, size_t leaves) {
  for (size_t i = 0; i < m.size(); ++i)
    for (size_t j = i + 1; j < m.size(); ++j) {
      int64_t g = std::gcd(m[i].d, m[j].d);
      int64_t xi = m[j].d / g, xj = m[i].d / g;
      if (xi < m[i].s && xj < m[j].s) {
        Witness w{std::vector<int64_t>(leaves, 0), std::vector<int64_t>(leaves, 0)};
        w.a[m[i].leaf] = xi;
        w.b[m[j].leaf] = xj;
        return w;
      }
    }
  return std::nullopt;
}

// The first k such that every stride after mode k is a multiple of some
// g > max image of modes 0..k: then f = f_low + g * f_high with f_low < g, so
// f is injective iff both halves are. Returns k and g.
std::optional<std::pair<size_t, int64_t>> blockSplit(const std::vector<Mode>& sorted) {
  size_t r = sorted.size();
  std::vector<int64_t> suffixGcd(r + 1, 0);
  for (size_t i = r; i-- > 0;) suffixGcd[i] = std::gcd(suffixGcd[i + 1], sorted[i].d);
  Wide m = 0;
  for (size_t k = 0; k + 1 < r; ++k) {
    m += Wide(sorted[k].s - 1) * sorted[k].d;
    if (suffixGcd[k + 1] > m) return std::make_pair(k, suffixGcd[k + 1]);
  }
  return std::nullopt;
}

// In any collision the coordinate difference t has |t_i| * d_i equal to a sum
// over the other modes, so |t_i| <= M_i / d_i where M_i is their max image.
// Shrinking s_i to M_i / d_i + 1 keeps every such difference (and so the
// verdict) and makes the exact search cheaper. Returns false if nothing shrank.
bool capModes(std::vector<Mode>& m) {
  Wide total = maxImage(m);
  bool changed = false;
  for (Mode& x : m) {
    Wide others = total - Wide(x.s - 1) * x.d;
    Wide cap = others / x.d + 1;
    if (cap < x.s) {
      x.s = static_cast<int64_t>(cap);
      changed = true;
    }
  }
  std::erase_if(m, [](const Mode& x) { return x.s == 1; });
  return changed;
}

// --- exact fallback: bitset DP over [0, C) ---------------------------------------

class Bits {
public:
  explicit Bits(int64_t nbits) : w_(static_cast<size_t>(nbits / 64 + 1), 0) {}
  bool test(int64_t i) const {
    return i >= 0 && static_cast<size_t>(i / 64) < w_.size() && ((w_[i / 64] >> (i % 64)) & 1);
  }
  void set(int64_t i) { w_[i / 64] |= uint64_t{1} << (i % 64); }
  // The first `words` words of src (the rest of this one is already zero
  // wherever src may have bits: see addMode).
  void copyWords(const Bits& src, size_t words) {
    words = std::min(words, w_.size());
    std::copy(src.w_.begin(), src.w_.begin() + static_cast<std::ptrdiff_t>(words), w_.begin());
  }

  // this |= src << k over the first `words` words. Returns an offset present in
  // both before the union, if any. Runs from high words to low so that src may
  // be *this.
  std::optional<int64_t> orShifted(const Bits& src, int64_t k, size_t words) {
    size_t ws = static_cast<size_t>(k / 64);
    unsigned bs = static_cast<unsigned>(k % 64);
    words = std::min(words, w_.size());
    for (size_t i = words; i-- > ws;) {
      uint64_t sh = src.w_[i - ws] << bs;
      if (bs && i > ws) sh |= src.w_[i - ws - 1] >> (64 - bs);
      if (uint64_t both = w_[i] & sh) return static_cast<int64_t>(i * 64 + std::countr_zero(both));
      w_[i] |= sh;
    }
    return std::nullopt;
  }

private:
  std::vector<uint64_t> w_;
};

// Replaces image (max element ext) by the union of its copies shifted by j*d,
// j < s, built by binary doubling in `scratch` (a bitset of the same size,
// reused by every mode: no copy is allocated, and only the words the new
// image can reach are touched); each union step is checked disjoint, so the
// first offset reached twice stops it, image unchanged. Both bitsets hold
// bits only below ext + 1, which only grows: the words past `words` are zero.
std::optional<int64_t> addMode(Bits& image, Bits& scratch, int64_t& ext, const Mode& m) {
  int64_t newExt = ext + (m.s - 1) * m.d;
  size_t words = static_cast<size_t>(newExt / 64 + 1);
  Bits& r = scratch;  // copies [0, cnt)
  r.copyWords(image, words);
  int64_t cnt = 1;
  for (int b = std::bit_width(static_cast<uint64_t>(m.s)) - 2; b >= 0; --b) {
    if (auto v = r.orShifted(r, cnt * m.d, words)) return v;
    cnt *= 2;
    if ((m.s >> b) & 1) {
      if (auto v = r.orShifted(image, cnt * m.d, words)) return v;
      ++cnt;
    }
  }
  std::swap(image, scratch);
  ext = newExt;
  return std::nullopt;
}

Bits imageOf(const std::vector<Mode>& m, size_t k, int64_t c) {  // image of modes [0, k), known injective
  Bits img(c), scratch(c);
  img.set(0);
  int64_t ext = 0;
  for (size_t i = 0; i < k; ++i) addMode(img, scratch, ext, m[i]);
  return img;
}

// Coordinates of modes [0, k) reaching each value (their image is injective, so
// they are unique): peel one mode at a time against the image of the rest.
void decompose(const std::vector<Mode>& m, size_t k, int64_t c, int64_t va, int64_t vb, Witness& w) {
  for (size_t i = k; i-- > 0;) {
    Bits rest = imageOf(m, i, c);
    for (auto [v, out] : {std::pair{&va, &w.a}, std::pair{&vb, &w.b}}) {
      int64_t j = 0;
      while (!rest.test(*v - j * m[i].d)) ++j;
      (*out)[m[i].leaf] = j;
      *v -= j * m[i].d;
    }
  }
}

std::optional<Witness> bitsetSearch(const std::vector<Mode>& m, size_t leaves, int64_t c) {
  Bits img(c), scratch(c);
  img.set(0);
  int64_t ext = 0;
  for (size_t k = 0; k < m.size(); ++k) {
    auto v = addMode(img, scratch, ext, m[k]);  // on a collision img is left as it was
    if (!v) continue;
    // Offset *v is covered by two copies j1 < j2 of the earlier image.
    std::vector<int64_t> js;
    for (int64_t j = 0; js.size() < 2; ++j)
      if (img.test(*v - j * m[k].d)) js.push_back(j);
    Witness w{std::vector<int64_t>(leaves, 0), std::vector<int64_t>(leaves, 0)};
    w.a[m[k].leaf] = js[0];
    w.b[m[k].leaf] = js[1];
    decompose(m, k, c, *v - js[0] * m[k].d, *v - js[1] * m[k].d, w);
    return w;
  }
  return std::nullopt;
}

// --- exact fallback: enumeration with a hash set ----------------------------------

std::vector<int64_t> coordsOfIndex(int64_t idx, const std::vector<Mode>& m, size_t leaves) {
  std::vector<int64_t> x(leaves, 0);
  for (const Mode& mode : m) {
    x[mode.leaf] = idx % mode.s;
    idx /= mode.s;
  }
  return x;
}

std::optional<Witness> enumerationSearch(const std::vector<Mode>& m, size_t leaves, int64_t n) {
  std::unordered_map<int64_t, int64_t> seen;  // offset -> first index
  seen.reserve(static_cast<size_t>(n));
  std::vector<int64_t> x(m.size(), 0);
  int64_t off = 0;
  for (int64_t idx = 0; idx < n; ++idx) {
    auto [it, fresh] = seen.emplace(off, idx);
    if (!fresh) return Witness{coordsOfIndex(it->second, m, leaves), coordsOfIndex(idx, m, leaves)};
    for (size_t k = 0; k < m.size(); ++k) {  // odometer, mode 0 fastest
      off += m[k].d;
      if (++x[k] < m[k].s) break;
      off -= m[k].s * m[k].d;
      x[k] = 0;
    }
  }
  return std::nullopt;
}

// The enumeration's hash set takes about this many bytes per offset; it may
// hold at most kMaxSearchBytes (the bitset's C/8 bytes are below that for
// every C the expression language allows, 2^31).
constexpr double kHashBytesPerEntry = 40;
constexpr double kMaxSearchBytes = double(1 << 30);

// The cheaper exact search: the DP costs about log2(s) passes over C/64 words
// per mode, the enumeration about N hash-set insertions. Its cost is taken
// from `budget`; when it is over, the answer is undecided.
Verdict exactSearch(const std::vector<Mode>& m, size_t leaves, int64_t n, Wide c, double& budget) {
  double dpCost = 0;
  for (const Mode& x : m) dpCost += 2.0 * std::bit_width(static_cast<uint64_t>(x.s)) * (double(c) / 64 + 1);
  double enumCost = kHashBytesPerEntry * double(n) > kMaxSearchBytes ? INFINITY : 16.0 * double(n);
  if (std::min(dpCost, enumCost) > budget) {
    Verdict v{false, false, {"undecided: the exact search exceeds the work budget"}, std::nullopt};
    return v;
  }
  budget -= std::min(dpCost, enumCost);
  if (enumCost < dpCost) {
    auto w = enumerationSearch(m, leaves, n);
    return w ? collisionBy("enumeration", *w) : injectiveBy("enumeration");
  }
  auto w = bitsetSearch(m, leaves, static_cast<int64_t>(c));
  return w ? collisionBy("bitset over [0, C)", *w) : injectiveBy("bitset over [0, C)");
}

Verdict injectivity(std::vector<Mode> m, size_t leaves, double& budget);

// v with `first` named before its own methods.
Verdict prefixed(std::string first, const Verdict& v) {
  Verdict out{v.injective, v.decided, {std::move(first)}, v.witness};
  for (const auto& m : v.methods) out.add(m);
  return out;
}

Verdict splitAt(const std::vector<Mode>& m, size_t leaves, size_t k, int64_t g, double& budget) {
  std::vector<Mode> low(m.begin(), m.begin() + static_cast<std::ptrdiff_t>(k + 1));
  std::vector<Mode> high(m.begin() + static_cast<std::ptrdiff_t>(k + 1), m.end());
  for (Mode& x : high) x.d /= g;
  Verdict v = prefixed("block split", injectivity(low, leaves, budget));
  if (!v.injective) return v;
  Verdict h = injectivity(high, leaves, budget);
  for (const auto& s : h.methods) v.add(s);
  v.injective = h.injective;
  v.decided = h.decided;
  v.witness = h.witness;
  return v;
}

// The cascade on modes with s > 1 and d > 0, sorted by d: cheap exact tests
// first, then exact reductions, then the exact search (charged to `budget`).
Verdict injectivity(std::vector<Mode> m, size_t leaves, double& budget) {
  int64_t g = 0;
  for (const Mode& x : m) g = std::gcd(g, x.d);
  for (Mode& x : m) x.d /= g;
  if (superincreasing(m)) return injectiveBy("superincreasing");
  if (auto w = pairCollision(m, leaves)) return collisionBy("pair collision", *w);
  if (m.size() == 2) return injectiveBy("rank-2 gcd rule");
  if (auto split = blockSplit(m)) return splitAt(m, leaves, split->first, split->second, budget);
  if (capModes(m)) return prefixed("mode cap", injectivity(m, leaves, budget));
  Wide c = maxImage(m) + 1;
  int64_t n = 1;
  for (const Mode& x : m) n *= x.s;
  Verdict v = exactSearch(m, leaves, n, c, budget);
  return n > c ? prefixed("pigeonhole (size > cosize)", v) : v;
}

std::string join(const std::vector<std::string>& parts) {
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : ", ") + p;
  return out;
}

// A canonical coordinate back on the original modes: reflected where d < 0.
IntTuple naturalCoord(const std::vector<int64_t>& x, const std::vector<int64_t>& s, const std::vector<int64_t>& d,
                      const IntTuple& shape) {
  std::vector<int64_t> y(x.size());
  for (size_t i = 0; i < x.size(); ++i) y[i] = d[i] < 0 ? s[i] - 1 - x[i] : x[i];
  return replaceLeaves(shape, y);
}

}  // namespace

Properties decide(const Layout& l, double workBudget) {
  std::vector<int64_t> s = leaves(l.shape), d = leaves(l.stride);
  Properties p;
  for (size_t i = 0; i < s.size(); ++i) {
    int64_t& side = d[i] < 0 ? p.minOffset : p.maxOffset;
    int64_t reach;
    if (__builtin_mul_overflow(s[i] - 1, d[i], &reach) || __builtin_add_overflow(side, reach, &side)) {
      // Offsets past 64 bits (a fuzzed stride): nothing is decided about them.
      p.decided = false;
      p.method = "offsets beyond 64 bits";
      return p;
    }
  }
  std::vector<Mode> m = canonicalModes(s, d);
  if (compact(m)) {
    p.injective = p.surjective = p.bijective = true;
    p.method = "sorted strides";
    return p;
  }
  if (auto gap = firstGap(m)) p.gap = *gap + p.minOffset;
  p.surjective = !p.gap;

  Verdict v;
  if (!m.empty() && m.front().d == 0) {  // a broadcast mode: 0 and 1 on it meet
    Witness w{std::vector<int64_t>(s.size(), 0), std::vector<int64_t>(s.size(), 0)};
    w.b[m.front().leaf] = 1;
    v = collisionBy("stride 0 (broadcast)", w);
  } else {
    double left = workBudget;
    v = injectivity(m, s.size(), left);
    p.work = workBudget - left;
  }
  p.injective = v.injective;
  p.decided = v.decided;
  p.bijective = p.injective && p.surjective;
  p.method = join(v.methods);
  if (v.witness) {
    Collision c{naturalCoord(v.witness->a, s, d, l.shape), naturalCoord(v.witness->b, s, d, l.shape), 0};
    c.offset = crd2idx(c.coord1, l.shape, l.stride);
    p.collision = c;
  }
  return p;
}

}  // namespace tilesight::layout
