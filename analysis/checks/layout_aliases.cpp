#include "analysis/checks/layout_aliases.h"

#include <algorithm>

#include <cstdio>
#include <string>
#include <unordered_map>

#include "analysis/layout/expr.h"

namespace tilesight {

namespace {

constexpr std::string_view kPrefix = "#layout<";

bool isLayoutAlias(const AliasDef& a) {
  return a.value.kind == AttrKind::Opaque && std::string_view(a.value.s).starts_with(kPrefix) &&
         a.value.s.back() == '>';
}

std::string witness(const layout::Properties& p) {
  if (!p.injective && p.collision)
    return "coordinates " + layout::toString(p.collision->coord1) + " and " + layout::toString(p.collision->coord2) +
           " both map to offset " + std::to_string(p.collision->offset);
  if (!p.surjective && p.gap)
    return "offset " + std::to_string(*p.gap) + " lies between " + std::to_string(p.minOffset) + " and " +
           std::to_string(p.maxOffset) + " but no coordinate maps to it";
  return "the layout is " + std::string(p.injective ? "injective" : "not injective") + " and " +
         (p.surjective ? "surjective" : "not surjective");
}

std::string propertyText(const layout::Properties& p) {
  if (p.bijective) return "bijective";
  if (p.injective) return "injective but not surjective (its image has gaps)";
  if (p.surjective) return "surjective onto its interval but not injective";
  return "neither injective nor surjective";
}

// A budget in the units `tilesight check --layout-budget` takes.
std::string budgetText(double work) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2g", work / layout::kWorkUnit);
  return buf;
}

// Every field of a value, spelled out: two values with the same text are the same value.
std::string valueKey(const layout::Value& v) {
  return std::to_string(static_cast<int>(v.kind)) + "|" + std::to_string(v.integer) + "|" + layout::toString(v.layout) +
         "|" + (v.swizzle ? v.swizzle->toString() : "") + "|" + (v.hasBasis() ? layout::valueText(v) : "") + "|" +
         layout::toString(v.tiler) + "|" + layout::toString(v.tvTiler) + "|" + v.note;
}

// The body and the values of the aliases it may name (any whose `#name` it contains), by name.
std::string cacheKey(std::string_view body, const std::unordered_map<std::string, layout::Value>& env) {
  std::vector<std::string> named;
  for (const auto& [name, value] : env)
    if (body.find("#" + name) != std::string_view::npos) named.push_back(name);
  std::sort(named.begin(), named.end());
  std::string key(body);
  for (const std::string& n : named) key += "\n#" + n + "=" + valueKey(env.at(n));
  return key;
}

}  // namespace

std::optional<LayoutAliasCache::Entry> LayoutAliasCache::find(const std::string& key) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = entries_.find(key);
  if (it == entries_.end()) return std::nullopt;
  ++hits_;
  return it->second;
}

void LayoutAliasCache::put(const std::string& key, Entry e) {
  std::lock_guard<std::mutex> lock(mu_);
  if (entries_.size() >= kMaxEntries) entries_.clear();
  entries_.insert_or_assign(key, std::move(e));
}

size_t LayoutAliasCache::hits() const {
  std::lock_guard<std::mutex> lock(mu_);
  return hits_;
}

void checkLayoutAliases(const ParseResult& parsed, DiagSink& diags, std::vector<LayoutAliasFact>& facts,
                        layout::WorkBudget& budget, LayoutAliasCache* cache) {
  std::unordered_map<std::string, layout::Value> env;
  std::vector<std::string> failed;
  for (const AliasDef& a : parsed.aliases) {
    if (!isLayoutAlias(a)) continue;
    const std::string& text = a.value.s;
    uint32_t bodyBegin = a.value.range.begin + static_cast<uint32_t>(kPrefix.size());
    std::string_view body = std::string_view(text).substr(kPrefix.size(), text.size() - kPrefix.size() - 1);
    Range bodyRange{bodyBegin, bodyBegin + static_cast<uint32_t>(body.size())};
    // An alias built on a broken one would only repeat its error.
    bool dependsOnFailure = false;
    for (const auto& f : failed) dependsOnFailure |= body.find("#" + f) != std::string_view::npos;
    if (dependsOnFailure) continue;
    auto lookup = [&](std::string_view n) -> std::optional<layout::Value> {
      auto it = env.find(std::string(n));
      return it == env.end() ? std::nullopt : std::optional<layout::Value>(it->second);
    };
    std::string name(a.name.substr(1));
    std::string key = cache ? cacheKey(body, env) : std::string();
    std::optional<LayoutAliasCache::Entry> cached = cache ? cache->find(key) : std::nullopt;
    auto r = cached ? layout::ExprResult<layout::LayoutAttr>(cached->attr) : layout::evaluateAttr(body, lookup);
    if (!r.ok()) {
      uint32_t at = bodyBegin + static_cast<uint32_t>(std::min(r.error().column, body.size()));
      auto& d = diags.error({at, std::min(at + 1, bodyRange.end)}, "layout.invalid",
                            "#" + name + " = #layout<...>: " + r.error().text());
      d.notes.push_back({a.nameRange, "in the definition of #" + name});
      failed.push_back(name);
      continue;
    }
    const layout::LayoutAttr& attr = r.value();
    double allowed = budget.next();
    layout::Properties props = cached ? cached->properties : layout::valueProperties(attr.value, allowed);
    budget.charge(props);
    if (cache && !cached && props.decided) cache->put(key, {attr, props});
    layout::ClaimVerdict verdict = attr.claim ? layout::claimVerdict(*attr.claim, props) : layout::ClaimVerdict::Holds;
    uint32_t at = bodyBegin + static_cast<uint32_t>(attr.claimColumn);
    std::string claim = attr.claim ? layout::claimName(*attr.claim) : "";
    Range claimRange{at, at + static_cast<uint32_t>(claim.size())};
    if (verdict == layout::ClaimVerdict::Fails) {
      auto& d = diags.error(claimRange, "layout.claim",
                            "#" + name + " is claimed " + claim + ", but " + layout::valueText(attr.value) + " is " +
                                propertyText(props));
      d.notes.push_back({bodyRange, witness(props)});
      if (!attr.value.note.empty()) d.notes.push_back({bodyRange, attr.value.note});
    } else if (verdict == layout::ClaimVerdict::Undecided) {
      diags.add(Severity::Remark, claimRange, "layout.claim",
                "#" + name + " is claimed " + claim + ", but whether " + layout::valueText(attr.value) +
                    " is injective was not decided within the work budget left for it (" + budgetText(allowed) +
                    " units of 2^30 operations): the claim is neither proved nor refuted; `tilesight check "
                    "--layout-budget=N` with a larger N searches longer");
    }
    env.emplace(name, attr.value);
    facts.push_back({a.name, a.nameRange, bodyRange, attr.value, props});
  }
}

}  // namespace tilesight
