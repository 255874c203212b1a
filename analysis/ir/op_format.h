#pragma once
// The compiled form of an op table `format` string (see op_table.h).
#include <string>
#include <string_view>
#include <vector>

namespace tilesight {

struct FormatElem {
  enum Kind { Operand, OperandList, Literal, Optional, Attr, AttrDict, AttrDictKw, Types, TypeList, Region, ArgRegion };
  Kind kind = Literal;
  std::string text;                 // literal text; attribute kind for Attr
  std::string dflt;                 // Attr: the value when omitted (`@rounding:rnd_divi=zero`); empty: none
  std::vector<std::string> names;   // operand/result/attribute names
  std::vector<int> operandIdx;      // per name: operand group index or -1 (filled by the op table)
  std::vector<int> resultIdx;       // per name: result group index or -1
  std::string anchor;               // Optional: operand group deciding presence
  std::vector<FormatElem> children; // Optional
};

// Compiles a format string; `custom` gives an empty vector.
std::vector<FormatElem> compileFormat(std::string_view format);

}  // namespace tilesight
