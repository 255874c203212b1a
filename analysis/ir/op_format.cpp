#include "analysis/ir/op_format.h"

namespace tilesight {

namespace {

std::vector<std::string> splitNames(std::string_view s, char sep) {
  std::vector<std::string> out;
  while (true) {
    size_t p = s.find(sep);
    out.emplace_back(s.substr(0, p));
    if (p == std::string_view::npos) break;
    s = s.substr(p + 1);
  }
  return out;
}

FormatElem compileWord(std::string_view w) {
  FormatElem e;
  if (w.size() >= 2 && w.front() == '\'' && w.back() == '\'') {
    e.kind = FormatElem::Literal;
    e.text = std::string(w.substr(1, w.size() - 2));
  } else if (w.front() == '%') {
    bool list = w.back() == '*';
    e.kind = list ? FormatElem::OperandList : FormatElem::Operand;
    e.names.emplace_back(w.substr(1, w.size() - 1 - list));
  } else if (w.front() == '@') {
    size_t colon = w.find(':');
    e.kind = FormatElem::Attr;
    e.names = splitNames(w.substr(1, colon - 1), ',');
    std::string_view kind = w.substr(colon + 1);
    if (size_t eq = kind.find('='); eq != std::string_view::npos) {
      e.dflt = std::string(kind.substr(eq + 1));
      kind = kind.substr(0, eq);
    }
    e.text = std::string(kind);
  } else if (w == "{}") {
    e.kind = FormatElem::AttrDict;
  } else if (w == "{kw}") {
    e.kind = FormatElem::AttrDictKw;
  } else if (w.starts_with("t(")) {
    std::string_view inner = w.substr(2, w.size() - 3);
    bool list = inner.back() == '*';
    if (list) inner.remove_suffix(1);
    e.kind = list ? FormatElem::TypeList : FormatElem::Types;
    e.names = splitNames(inner, '=');
  } else if (w.front() == '^') {
    bool args = w.ends_with(":args");
    e.kind = args ? FormatElem::ArgRegion : FormatElem::Region;
    e.names.emplace_back(w.substr(1, w.find(':') == std::string_view::npos ? std::string_view::npos : w.find(':') - 1));
  }
  return e;
}

std::vector<FormatElem> compileWords(const std::vector<std::string_view>& words, size_t& i) {
  std::vector<FormatElem> out;
  while (i < words.size()) {
    std::string_view w = words[i++];
    if (w == "]") break;
    if (w.front() == '[') {
      FormatElem opt;
      opt.kind = FormatElem::Optional;
      if (w.size() > 2 && w[1] == '?') opt.anchor = std::string(w.substr(2));
      opt.children = compileWords(words, i);
      out.push_back(std::move(opt));
      continue;
    }
    out.push_back(compileWord(w));
  }
  return out;
}

}  // namespace

std::vector<FormatElem> compileFormat(std::string_view format) {
  if (format == "custom") return {};
  std::vector<std::string_view> words;
  size_t p = 0;
  while (p < format.size()) {
    size_t b = format.find_first_not_of(' ', p);
    if (b == std::string_view::npos) break;
    size_t e = format.find(' ', b);
    if (e == std::string_view::npos) e = format.size();
    words.push_back(format.substr(b, e - b));
    p = e;
  }
  size_t i = 0;
  return compileWords(words, i);
}

}  // namespace tilesight
