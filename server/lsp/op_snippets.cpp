#include "server/lsp/op_snippets.h"

#include <cctype>
#include <vector>

#include "analysis/ir/keywords.h"

namespace tilesight::lsp {

namespace {

// Snippet syntax: `$`, `}` and `\` are literal only when escaped.
std::string escapeSnippet(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '$' || c == '}' || c == '\\')
      out += '\\';
    out += c;
  }
  return out;
}

// A type a constraint accepts, as a placeholder's default.
std::string typeGuess(const Constraint &c) {
  switch (c.kind) {
  case Constraint::Token:
    return "token";
  case Constraint::TensorView:
    return "tensor_view<f32>";
  case Constraint::Tile:
    break;
  default:
    return "type";
  }
  if (c.ptrOnly)
    return "tile<ptr<f32>>";
  Elem e = Elem::F32;
  for (Elem pick :
       {Elem::I32, Elem::F32, Elem::I1, Elem::I8, Elem::I64, Elem::F8E4M3FN})
    if (c.elems & (1u << static_cast<unsigned>(pick))) {
      e = pick;
      break;
    }
  return "tile<" + std::string(elemName(e)) + ">";
}

class SnippetBuilder {
public:
  explicit SnippetBuilder(const OpInfo &op) : op_(op) {
    parts_.push_back(escapeSnippet(op.name));
  }

  std::string build(const std::vector<FormatElem> &elems) {
    for (const FormatElem &e : elems)
      add(e);
    std::string out;
    for (const std::string &p : parts_) {
      bool glue = !out.empty() && (out.back() == '(' || out.back() == '[' ||
                                   p == "," || p == ")" || p == "]");
      out += (out.empty() || glue ? "" : " ") + p;
    }
    return out;
  }

private:
  std::string placeholder(std::string_view text) {
    return "${" + std::to_string(next_++) + ":" + escapeSnippet(text) + "}";
  }
  std::string choice(const std::vector<std::string_view> &words) {
    std::string s = "${" + std::to_string(next_++) + "|";
    for (size_t i = 0; i < words.size(); ++i)
      s += (i ? "," : "") + std::string(words[i]);
    return s + "|}";
  }
  std::string denseLiteral() {
    std::string elem = placeholder("i32");
    return "<" + elem + ": " + placeholder("0") + ">";
  }
  std::string typeOf(const FormatElem &e) {
    int g = e.operandIdx[0];
    int r = e.resultIdx[0];
    return g >= 0   ? typeGuess(op_.operands[g].constraint)
           : r >= 0 ? typeGuess(op_.results[r].constraint)
                    : "type";
  }

  void add(const FormatElem &e) {
    switch (e.kind) {
    case FormatElem::Operand:
    case FormatElem::OperandList:
      parts_.push_back(placeholder("%" + e.names[0]));
      break;
    case FormatElem::Literal:
      parts_.push_back(escapeSnippet(e.text));
      break;
    case FormatElem::Attr:
      addAttr(e);
      break;
    case FormatElem::Types:
    case FormatElem::TypeList:
      parts_.push_back(placeholder(typeOf(e)));
      break;
    case FormatElem::Region:
      parts_.push_back("{\n\t$0\n}");
      break;
    case FormatElem::ArgRegion: {
      // Numbered in order: the operands of + are evaluated in any order.
      std::string arg = placeholder("%arg");
      parts_.push_back("(" + arg + ": " + placeholder(typeOf(e)) +
                       ") {\n\t$0\n}");
      break;
    }
    default: // optional groups and attribute dictionaries are left out
      break;
    }
  }

  void addAttr(const FormatElem &e) {
    const std::string &kind = e.text;
    const KeywordSet *set = keywordSet(kind);
    if (set && set->angle.empty() && kind != "scope?")
      parts_.push_back(choice(set->words));
    else if (kind == "int")
      parts_.push_back(placeholder("0"));
    else if (kind == "bool")
      parts_.push_back(choice({"false", "true"}));
    else if (kind == "str")
      parts_.push_back("\"" + placeholder("text") + "\"");
    else if (kind == "sym")
      parts_.push_back("@" + placeholder(e.names[0]));
    else if (kind == "dense")
      parts_.push_back(denseLiteral());
    else if (kind == "arr")
      parts_.push_back("[" + placeholder("0") + "]");
    else if (kind == "attr" || kind == "assume")
      parts_.push_back(placeholder(e.names[0]));
  }

  const OpInfo &op_;
  std::vector<std::string> parts_;
  int next_ = 1;
};

} // namespace

std::string opSnippet(const OpInfo &op) {
  return SnippetBuilder(op).build(op.syntax);
}

std::string snippetAsText(const std::string &snippet) {
  std::string out;
  for (size_t i = 0; i < snippet.size(); ++i) {
    char c = snippet[i];
    if (c == '\\' && i + 1 < snippet.size()) {
      out += snippet[++i];
    } else if (c == '$' && i + 1 < snippet.size() && std::isdigit(static_cast<unsigned char>(snippet[i + 1]))) {
      while (i + 1 < snippet.size() && std::isdigit(static_cast<unsigned char>(snippet[i + 1])))
        ++i; // $1: a tab stop
    } else if (c == '$' && i + 1 < snippet.size() && snippet[i + 1] == '{') {
      size_t j = i + 2;
      while (j < snippet.size() && std::isdigit(static_cast<unsigned char>(snippet[j])))
        ++j;
      if (j < snippet.size() && snippet[j] == '|') { // ${1|a,b|}: the first choice
        size_t end = snippet.find("|}", j);
        std::string choices = snippet.substr(j + 1, end == std::string::npos ? std::string::npos : end - j - 1);
        out += choices.substr(0, choices.find(','));
        i = end == std::string::npos ? snippet.size() : end + 1;
      } else if (j < snippet.size() && snippet[j] == ':') { // ${1:text}: the text (no nesting in ours)
        size_t end = snippet.find('}', j);
        out += snippet.substr(j + 1, end == std::string::npos ? std::string::npos : end - j - 1);
        i = end == std::string::npos ? snippet.size() : end;
      } else { // ${1}
        size_t end = snippet.find('}', j);
        i = end == std::string::npos ? snippet.size() : end;
      }
    } else {
      out += c;
    }
  }
  return out;
}

} // namespace tilesight::lsp
