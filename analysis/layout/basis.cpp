// Layouts with basis strides (basis.h).
#include "analysis/layout/basis.h"

#include <algorithm>
#include <map>

namespace tilesight::layout {

namespace {

// Where a repeated path makes R(i) = A(B(i)) a whole-domain check, it is
// made up to this size.
constexpr int64_t kMaxChecked = int64_t{1} << 22;

std::string pathText(const BasisPath& p) {
  std::string s;
  for (auto it = p.rbegin(); it != p.rend(); ++it) s += "@" + std::to_string(*it);
  return s;
}

struct Entry {
  const BasisPath* path;
  int64_t value;
};

// The tuple with `base` + the sum of the entries' values at each path's place
// and `base` at places no path reaches.
IntTuple tree(const std::vector<Entry>& es, size_t depth, int64_t base) {
  if (es.empty()) return IntTuple(base);
  if (es.front().path->size() == depth) {
    int64_t sum = base;
    for (const Entry& e : es) sum += e.value;
    return IntTuple(sum);
  }
  int n = 0;
  for (const Entry& e : es) n = std::max(n, (*e.path)[depth] + 1);
  std::vector<IntTuple> kids;
  for (int j = 0; j < n; ++j) {
    std::vector<Entry> sub;
    for (const Entry& e : es)
      if ((*e.path)[depth] == j) sub.push_back(e);
    kids.push_back(tree(sub, depth + 1, base));
  }
  return IntTuple::tuple(std::move(kids));
}

Expected<Layout> modeAt(const Layout& a, const BasisPath& path) {
  Layout m = a;
  for (size_t k = 0; k < path.size(); ++k) {
    if (m.shape.isLeaf() || static_cast<size_t>(path[k]) >= rank(m))
      return fail("composition: a basis stride names a mode A does not have",
                  "the stride's place " + basisStrideText(1, BasisPath(path.begin(), path.begin() + static_cast<long>(k) + 1)) +
                      " is not a mode of A = " + toString(a));
    m = mode(m, static_cast<size_t>(path[k]));
  }
  return m;
}

// A(coordinate of B at i): the coordinate's entry along each path indexes
// that mode of A; modes no path names take 0.
int64_t callAtCoordinate(const Layout& b, const std::vector<BasisPath>& paths,
                         const std::vector<Layout>& modes, int64_t i) {
  std::vector<int64_t> c = leaves(idx2crd(i, b.shape)), d = leaves(b.stride);
  std::map<BasisPath, int64_t> along;
  for (size_t k = 0; k < c.size(); ++k) along[paths[k]] += c[k] * d[k];
  int64_t r = 0;
  for (size_t k = 0; k < paths.size(); ++k) {
    auto it = along.find(paths[k]);
    if (it == along.end()) continue;
    r += call(modes[k], it->second);
    along.erase(it);
  }
  return r;
}

}  // namespace

std::optional<LayoutError> checkBasis(const Layout& l, const std::vector<BasisPath>& paths) {
  std::vector<int64_t> d = leaves(l.stride);
  for (size_t k = 0; k < paths.size(); ++k) {
    if (d[k] < 0 && !paths[k].empty())
      return fail("basis strides need non-negative scales", basisStrideText(d[k], paths[k]) + " is negative");
    for (size_t j = 0; j < paths.size(); ++j) {
      const BasisPath &p = paths[k], &q = paths[j];
      if (p.size() < q.size() && std::equal(p.begin(), p.end(), q.begin()))
        return fail("a coordinate place is either an integer or a tuple",
                    "strides " + basisStrideText(d[k], p) + " and " + basisStrideText(d[j], q) +
                        " name the same place as both" + (p.empty() ? " (an integer stride has no @)" : ""));
    }
  }
  return std::nullopt;
}

std::string basisStrideText(int64_t scale, const BasisPath& path) { return std::to_string(scale) + pathText(path); }

IntTuple basisCoord(const Layout& l, const std::vector<BasisPath>& paths, int64_t i) {
  std::vector<int64_t> c = leaves(idx2crd(i, l.shape)), d = leaves(l.stride);
  std::vector<Entry> es;
  for (size_t k = 0; k < paths.size(); ++k) es.push_back({&paths[k], c[k] * d[k]});
  return tree(es, 0, 0);
}

IntTuple basisCodomain(const Layout& l, const std::vector<BasisPath>& paths) {
  std::vector<int64_t> s = leaves(l.shape), d = leaves(l.stride);
  std::vector<Entry> es;
  for (size_t k = 0; k < paths.size(); ++k) es.push_back({&paths[k], (s[k] - 1) * d[k]});
  return tree(es, 0, 1);
}

Properties basisProperties(const Layout& l, const std::vector<BasisPath>& paths, double workBudget) {
  std::vector<int64_t> s = leaves(l.shape), d = leaves(l.stride);
  std::map<BasisPath, std::vector<size_t>> byPath;
  for (size_t k = 0; k < paths.size(); ++k) byPath[paths[k]].push_back(k);
  Properties p;
  p.injective = p.surjective = true;
  p.method = "basis strides: each coordinate place is an independent integer layout of the leaves along it";
  for (const auto& [path, ks] : byPath) {
    std::vector<IntTuple> ss, dd;
    for (size_t k : ks) {
      ss.push_back(IntTuple(s[k]));
      dd.push_back(IntTuple(d[k]));
    }
    Layout along{IntTuple::tuple(ss), IntTuple::tuple(dd)};
    Properties q = decide(along, workBudget);
    p.decided &= q.decided;
    p.work += q.work;
    p.surjective &= q.surjective && q.minOffset == 0;
    if (q.injective || !p.injective) continue;
    p.injective = false;
    if (!q.collision) continue;
    // The colliding coordinates of the place's layout, with 0 on every other leaf.
    std::vector<int64_t> c1(s.size(), 0), c2(s.size(), 0);
    std::vector<int64_t> q1 = leaves(q.collision->coord1), q2 = leaves(q.collision->coord2);
    for (size_t j = 0; j < ks.size(); ++j) {
      c1[ks[j]] = q1[j];
      c2[ks[j]] = q2[j];
    }
    Collision col{replaceLeaves(l.shape, c1), replaceLeaves(l.shape, c2), 0};
    IntTuple codomain = basisCodomain(l, paths);
    col.offset = crd2idx(basisCoord(l, paths, crd2idx(col.coord1, l.shape, compactColMajor(l.shape).stride)),
                         codomain, compactColMajor(codomain).stride);
    p.collision = col;
  }
  p.bijective = p.injective && p.surjective;
  p.maxOffset = size(compactColMajor(basisCodomain(l, paths))) - 1;
  return p;
}

Expected<Layout> composition(const Layout& a, const Layout& b, const std::vector<BasisPath>& paths) {
  std::vector<int64_t> s = leaves(b.shape), d = leaves(b.stride);
  std::vector<Layout> modes, parts;
  for (size_t k = 0; k < paths.size(); ++k) {
    auto m = modeAt(a, paths[k]);
    if (!m) return m.error();
    modes.push_back(*m);
    auto r = composition(*m, tilerOf(Layout{IntTuple(s[k]), IntTuple(d[k])}));
    if (!r) return r.error();
    parts.push_back(*r);
  }
  // B's shape with leaf k replaced by part k.
  size_t next = 0;
  auto rebuild = [&](auto&& self, const IntTuple& shape) -> Layout {
    if (shape.isLeaf()) return parts[next++];
    std::vector<Layout> kids;
    for (const IntTuple& e : shape.elems()) kids.push_back(self(self, e));
    return concat(kids);
  };
  Layout r = rebuild(rebuild, b.shape);
  // Distinct paths reach distinct modes of A, whose offsets add, so each
  // part's own post-condition is the whole one; a repeated path is checked.
  std::vector<BasisPath> sorted = paths;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end()) return r;
  const char* rule = "composition: the result breaks R(i) = A(B(i))";
  if (size(b) > kMaxChecked)
    return fail(rule, "not decided: B repeats a basis direction and has size " + std::to_string(size(b)) +
                          ", above the " + std::to_string(kMaxChecked) + " points checked");
  for (int64_t i = 0; i < size(b); ++i) {
    int64_t want = callAtCoordinate(b, paths, modes, i);
    if (call(r, i) != want)
      return fail(rule, "the modes along one basis direction give R = " + toString(r) + ", but R(" +
                            std::to_string(i) + ") = " + std::to_string(call(r, i)) + " while A(B(" +
                            std::to_string(i) + ")) = A(" + toString(basisCoord(b, paths, i)) +
                            ") = " + std::to_string(want));
  }
  return r;
}

}  // namespace tilesight::layout
