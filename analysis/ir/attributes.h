#pragma once
// Attribute values as written: enums keep their keyword, numbers their value,
// nested lists stay nested (dense constants, arrays, dictionaries).
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "analysis/diag/diagnostic.h"
#include "analysis/ir/types.h"

namespace tilesight {

enum class AttrKind : uint8_t {
  Unit, Bool, Int, Float, String, Symbol, Keyword, Array, DenseArray, Dict, Type, Dense, Opaque,
};

struct AttrEntry;  // a dictionary entry: key and value

struct Attr {
  AttrKind kind = AttrKind::Unit;
  Range range;
  int64_t i = 0;         // Int, Bool, DenseArray element count
  double f = 0;          // Float
  bool wide = false;     // Int literal does not fit in int64
  std::string s;         // String, Symbol, Keyword, Opaque text, Dense element type name
  TypeRef type = nullptr;            // `: i32` suffix, Type attrs, Dense result type
  std::vector<Attr> elems;           // Array, DenseArray, Dense literal (nested)
  std::vector<AttrEntry> dict;       // Dict, keyword parameters (div_by, hints)

  bool isKeyword(std::string_view k) const { return kind == AttrKind::Keyword && s == k; }
  const Attr* get(std::string_view key) const;
};

struct AttrEntry {
  std::string key;
  Attr value;
};

inline const Attr* Attr::get(std::string_view key) const {
  for (const auto& [k, v] : dict)
    if (k == key) return &v;
  return nullptr;
}

struct NamedAttr {
  std::string_view name;  // from the op table or the source text: both outlive the IR
  Attr attr;
  Range nameRange;
};

}  // namespace tilesight
