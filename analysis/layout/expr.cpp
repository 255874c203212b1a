// Parser and evaluator of layout expressions (DESIGN §4). One pass: every
// call is evaluated as soon as its arguments are, so an error carries the
// column of the call or argument that broke a rule.
#include "analysis/layout/expr.h"

#include <algorithm>
#include <cctype>
#include <limits>

#include "analysis/layout/expr_call.h"

namespace tilesight::layout {

namespace {

using detail::CallArg;
using detail::Operand;

constexpr int kMaxNesting = 64;
constexpr const char* kMalformed = "malformed expression";

bool isIdentStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool isIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool isDigit(char c) { return std::isdigit(static_cast<unsigned char>(c)); }

class Parser {
public:
  Parser(std::string_view text, const LayoutEnv& env) : s_(text), env_(env) {}

  ExprResult<Operand> expr();
  ExprResult<IntTuple> tuple();
  ExprResult<IntTuple> strideTuple(std::vector<BasisPath>& paths);

  // The current position, after any white space.
  size_t pos() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
    return pos_;
  }
  bool atEnd() { return pos() >= s_.size(); }
  bool eat(char c) {
    if (atEnd() || s_[pos_] != c) return false;
    ++pos_;
    return true;
  }
  std::optional<std::string> ident() {
    if (atEnd() || !isIdentStart(s_[pos_])) return std::nullopt;
    size_t b = pos_;
    // Dotted names: tilus's SharedLayout.create.
    while (pos_ < s_.size() && (isIdentChar(s_[pos_]) ||
                                (s_[pos_] == '.' && pos_ + 1 < s_.size() && isIdentStart(s_[pos_ + 1]))))
      ++pos_;
    return std::string(s_.substr(b, pos_ - b));
  }
  // "expected X, found Y" at the current position.
  ExprError expected(const std::string& what) {
    std::string found = atEnd() ? "the end of the expression" : "'" + std::string(1, s_[pos_]) + "'";
    return {pos_, kMalformed, "expected " + what + ", found " + found};
  }

private:
  // Bounds the recursion: deeply nested text is an error, not a stack overflow.
  struct Nest {
    explicit Nest(int& d) : d_(d) { ++d_; }
    ~Nest() { --d_; }
    int& d_;
  };
  std::optional<ExprError> tooDeep() {
    if (depth_ <= kMaxNesting) return std::nullopt;
    return ExprError{pos_, kMalformed, "nesting deeper than " + std::to_string(kMaxNesting) + " levels"};
  }

  ExprResult<int64_t> integer();
  ExprResult<Operand> literal();
  ExprResult<Operand> tiler();
  ExprResult<Operand> alias();
  ExprResult<Operand> callOrWord();
  ExprResult<CallArg> argument();

  std::string_view s_;
  size_t pos_ = 0;
  const LayoutEnv& env_;
  int depth_ = 0;
};

ExprResult<int64_t> Parser::integer() {
  size_t b = pos();
  bool neg = eat('-');
  if (pos_ >= s_.size() || !isDigit(s_[pos_])) return expected("an integer");
  int64_t v = 0;
  for (; pos_ < s_.size() && isDigit(s_[pos_]); ++pos_) {
    int d = s_[pos_] - '0';
    if (v > (std::numeric_limits<int64_t>::max() - d) / 10)
      return ExprError{b, "integer out of range", std::string(s_.substr(b, pos_ + 1 - b)) + "... does not fit in 64 bits"};
    v = v * 10 + d;
  }
  return neg ? -v : v;
}

ExprResult<IntTuple> Parser::tuple() {
  Nest n(depth_);
  if (auto e = tooDeep()) return *e;
  if (!eat('(')) {
    auto v = integer();
    if (!v.ok()) return v.error();
    return IntTuple(v.value());
  }
  std::vector<IntTuple> elems;
  do {
    auto e = tuple();
    if (!e.ok()) return e.error();
    elems.push_back(std::move(e.value()));
  } while (eat(','));
  if (!eat(')')) return expected("',' or ')' in a tuple");
  return IntTuple::tuple(std::move(elems));
}

// A tuple of strides whose leaves may be basis elements `d@i@j` (innermost
// index first, as CuTe prints them): the scales, and each leaf's path.
ExprResult<IntTuple> Parser::strideTuple(std::vector<BasisPath>& paths) {
  Nest n(depth_);
  if (auto e = tooDeep()) return *e;
  if (!eat('(')) {
    auto v = integer();
    if (!v.ok()) return v.error();
    BasisPath path;
    while (eat('@')) {
      size_t at = pos();
      auto i = integer();
      if (!i.ok()) return i.error();
      if (i.value() < 0 || i.value() > kMaxNesting)
        return ExprError{at, kMalformed, "a basis index is a mode number from 0 to " + std::to_string(kMaxNesting)};
      path.insert(path.begin(), static_cast<int>(i.value()));
    }
    paths.push_back(std::move(path));
    return IntTuple(v.value());
  }
  std::vector<IntTuple> elems;
  do {
    auto e = strideTuple(paths);
    if (!e.ok()) return e.error();
    elems.push_back(std::move(e.value()));
  } while (eat(','));
  if (!eat(')')) return expected("',' or ')' in a tuple");
  return IntTuple::tuple(std::move(elems));
}

// `(4,8):(1,4)`, `20:2`, `(4,4):(1@1,1@0)`, a shape `(4,8)` or an integer `8`.
ExprResult<Operand> Parser::literal() {
  size_t col = pos();
  auto shape = tuple();
  if (!shape.ok()) return shape.error();
  Operand op;
  op.column = col;
  if (!eat(':')) {
    op.literal = shape.value();
    op.value = shape.value().isLeaf() ? Value::ofInt(shape.value().value())
                                      : Value::ofLayout(compactColMajor(shape.value()));
    return op;
  }
  std::vector<BasisPath> paths;
  auto stride = strideTuple(paths);
  if (!stride.ok()) return stride.error();
  auto l = makeLayout(shape.value(), stride.value());
  if (!l.ok()) return ExprError{col, l.error().rule, l.error().message};
  if (auto e = detail::checkBounded(l.value(), col)) return *e;
  op.value = Value::ofLayout(l.value());
  if (std::any_of(paths.begin(), paths.end(), [](const BasisPath& p) { return !p.empty(); })) {
    if (auto e = checkBasis(l.value(), paths)) return ExprError{col, e->rule, e->message};
    op.value.basis = std::move(paths);
  }
  return op;
}

// `[8:1, _, (2,4), [2:1, 2:1]]`: one tiler per mode, `_` keeps the mode; a
// bracketed list or a tuple tiles the sub-modes of its mode (CuTe's nested
// tuples).
ExprResult<Operand> Parser::tiler() {
  Operand op;
  op.column = pos();
  eat('[');
  op.value.kind = Value::TilerValue;
  op.value.tiler.kind = Tiler::ByMode;
  do {
    auto e = expr();
    if (!e.ok()) return e.error();
    const Operand& entry = e.value();
    Tiler t;
    if (entry.word == "_") {
      t.kind = Tiler::Keep;
    } else if (!entry.word && entry.value.kind == Value::TilerValue) {
      t = entry.value.tiler;
    } else if (entry.literal && !entry.literal->isLeaf()) {
      t = tilerOfShape(*entry.literal);
    } else {
      auto l = detail::layoutOf(entry, "a tiler entry");
      if (!l.ok()) return l.error();
      t = tilerOf(l.value());
    }
    op.value.tiler.modes.push_back(std::move(t));
  } while (eat(','));
  if (!eat(']')) return expected("',' or ']' in a tiler");
  return op;
}

ExprResult<Operand> Parser::alias() {
  size_t col = pos();
  eat('#');
  auto name = ident();
  if (!name) return expected("a name after '#'");
  std::optional<Value> v = env_ ? env_(*name) : std::nullopt;
  if (!v) return ExprError{col, "unknown alias", "#" + *name + " is not defined"};
  Operand op;
  op.value = std::move(*v);
  op.column = col;
  return op;
}

ExprResult<CallArg> Parser::argument() {
  CallArg a;
  size_t start = pos();
  if (auto key = ident()) {
    if (eat('=')) {
      a.key = *key;
      a.keyColumn = start;
    } else {
      pos_ = start;  // a word or a call: parse it as an expression
    }
  }
  auto e = expr();
  if (!e.ok()) return e.error();
  a.value = std::move(e.value());
  return a;
}

// `name(args)` is a call; a name alone is a word (`gfx12`, `A`, `_`).
ExprResult<Operand> Parser::callOrWord() {
  size_t col = pos();
  std::string name = *ident();
  Operand op;
  op.column = col;
  if (!eat('(')) {
    op.word = name;
    return op;
  }
  std::vector<CallArg> args;
  if (!eat(')')) {
    do {
      auto a = argument();
      if (!a.ok()) return a.error();
      args.push_back(std::move(a.value()));
    } while (eat(','));
    if (!eat(')')) return expected("',' or ')' in the arguments of " + name);
  }
  auto v = detail::callFunction(name, col, std::move(args));
  if (!v.ok()) return v.error();
  op.value = std::move(v.value());
  return op;
}

ExprResult<Operand> Parser::expr() {
  Nest n(depth_);
  if (auto e = tooDeep()) return *e;
  if (atEnd()) return expected("an expression");
  char c = s_[pos_];
  if (c == '(' || c == '-' || isDigit(c)) return literal();
  if (c == '[') return tiler();
  if (c == '#') return alias();
  if (isIdentStart(c)) return callOrWord();
  return expected("an expression");
}

// The value of a whole expression: a literal shape is a compact layout.
ExprResult<Value> finish(const Operand& op) {
  if (op.word) return ExprError{op.column, kMalformed, "expected an expression, found the word '" + *op.word + "'"};
  if (!op.literal) return op.value;
  auto l = detail::layoutOf(op, "the expression");
  if (!l.ok()) return l.error();
  return Value::ofLayout(l.value());
}

std::optional<Claim> claimOf(const std::string& word) {
  if (word == "injective") return Claim::Injective;
  if (word == "surjective") return Claim::Surjective;
  if (word == "bijective") return Claim::Bijective;
  return std::nullopt;
}

}  // namespace

ExprResult<Value> evaluate(std::string_view text, const LayoutEnv& env) {
  Parser p(text, env);
  auto op = p.expr();
  if (!op.ok()) return op.error();
  if (!p.atEnd()) return p.expected("the end of the expression");
  return finish(op.value());
}

ExprResult<IntTuple> parseCoordinate(std::string_view text) {
  Parser p(text, {});
  auto t = p.tuple();
  if (!t.ok()) return t.error();
  if (!p.atEnd()) return p.expected("the end of the coordinate");
  return t;
}

ExprResult<LayoutAttr> evaluateAttr(std::string_view body, const LayoutEnv& env) {
  Parser p(body, env);
  auto op = p.expr();
  if (!op.ok()) return op.error();
  LayoutAttr attr;
  if (p.eat(',')) {
    size_t keyCol = p.pos();
    if (p.ident() != "expect") return ExprError{keyCol, kMalformed, "expected 'expect = injective|surjective|bijective'"};
    if (!p.eat('=')) return p.expected("'=' after 'expect'");
    attr.claimColumn = p.pos();
    auto word = p.ident();
    attr.claim = word ? claimOf(*word) : std::nullopt;
    if (!attr.claim)
      return ExprError{attr.claimColumn, "unknown claim", "expect takes injective, surjective or bijective"};
  }
  if (!p.atEnd()) return p.expected("',' or the end of the layout");
  auto v = finish(op.value());
  if (!v.ok()) return v.error();
  attr.value = std::move(v.value());
  return attr;
}

const char* claimName(Claim c) {
  switch (c) {
    case Claim::Injective: return "injective";
    case Claim::Surjective: return "surjective";
    case Claim::Bijective: return "bijective";
  }
  return "";
}

ClaimVerdict claimVerdict(Claim c, const Properties& p) {
  auto verdict = [](bool holds) { return holds ? ClaimVerdict::Holds : ClaimVerdict::Fails; };
  switch (c) {
    case Claim::Injective: return p.decided ? verdict(p.injective) : ClaimVerdict::Undecided;
    case Claim::Surjective: return verdict(p.surjective);
    case Claim::Bijective:
      return !p.surjective ? ClaimVerdict::Fails : p.decided ? verdict(p.injective) : ClaimVerdict::Undecided;
  }
  return ClaimVerdict::Fails;
}

}  // namespace tilesight::layout
