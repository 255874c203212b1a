#pragma once
// Recursive-descent parser for the Tile IR text form. It never gives up:
// every error becomes a diagnostic, recovery resumes at the next op or
// closing brace, and the result is always a (possibly partial) tree.
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/StringRef.h>

#include "analysis/diag/diagnostic.h"
#include "analysis/ir/ir.h"
#include "analysis/ir/op_table.h"
#include "analysis/syntax/lexer.h"
#include "analysis/syntax/side_table.h"

namespace tilesight {

// `#name = value` at the top level (attribute aliases, including the
// `#layout<...>` expressions of DESIGN §4).
struct AliasDef {
  std::string_view name;  // #name, as spelled
  Range nameRange;
  Attr value;             // value.range covers the whole right-hand side
};

// `!name = type` at the top level.
struct TypeAliasDef {
  std::string name;  // !name
  uint32_t at = 0;   // where it is defined
  TypeRef type = nullptr;
};

// One item of a custom-form cuda_tile.module's body (an entry, a global), as
// the parser saw it: what it added to the result, so that reanalyze() can
// put a new parse of the item in its place. Items are recorded in order.
struct ItemParse {
  OpId op = kNoId;                        // the item's op; ops [op, opEnd) are it and its body
  OpId opEnd = 0;
  ValueId valueBegin = 0, valueEnd = 0;   // the values it defines
  uint32_t sideBegin = 0, sideEnd = 0;    // its run of the side table
  uint32_t diagBegin = 0, diagEnd = 0;    // its parse diagnostics, as indices in the parse's sink
  bool ok = false;                        // it parsed without recovering past its end
  bool recovered = false;                 // a syntax error in it made the parser skip text
};

struct ParseResult {
  Program program;
  SideTable side;
  std::vector<AliasDef> aliases;  // in definition order
  std::vector<TypeAliasDef> typeAliases;  // in definition order
  std::vector<ItemParse> items;
  bool recoveredOutsideItems = false;  // a syntax error outside the module items made the parser skip text
};

// Whether a syntax error made the parser skip text: the checks then did not
// see the whole program, so a suppression that silenced nothing may still be
// needed.
bool recovered(const ParseResult& pr);

// Parses text[begin, end) (a whole file or one `// -----` chunk).
void parseChunk(std::string_view text, uint32_t begin, uint32_t end, ParseResult& out, DiagSink& diags);

// Parses the module item that starts at `begin` again, into `out` (a parse
// of an earlier version, whose types it shares): as the whole parse would,
// with `module` as its parent, the aliases defined before `begin`, and
// `lastEnd` the end of the token before it. Appends the item's ops, values
// and occurrences and returns its record (diagnostics index `diags`).
ItemParse parseModuleItem(std::string_view text, uint32_t begin, uint32_t end, OpId module, uint32_t lastEnd,
                          ParseResult& out, DiagSink& diags);

class Parser {
public:
  Parser(std::string_view text, uint32_t begin, uint32_t end, ParseResult& out, DiagSink& diags);
  void parseTopLevel();
  ItemParse parseItemAt(OpId module, uint32_t lastEnd);  // parseModuleItem

  // --- tokens -----------------------------------------------------------
  const Token& tok() const { return tok_; }
  void consume();
  bool consumeIf(Tok k);
  bool consumeKeyword(std::string_view kw);
  bool expect(Tok k, std::string_view what = {});
  bool expectKeyword(std::string_view kw);
  Token peekToken();  // the token after tok() (lookahead of one)
  Diagnostic& error(Range r, std::string msg, std::string code = "syntax");
  void errorHere(std::string msg) { error(tok_.range(), std::move(msg)); }
  void expectedHere(std::string_view what);
  uint32_t lastEnd() const { return lastEnd_; }

  // --- types and attributes (parse_types.cpp, parse_attrs.cpp) -----------
  TypeRef parseType();                       // any type; nullptr after an error
  bool parseTypeList(std::vector<TypeRef>& out);  // comma separated, 1+
  bool atType() const;
  bool parseAttribute(Attr& out);            // a builtin/dialect attribute
  bool parseAttrDict(std::vector<NamedAttr>& out);  // `{ ... }`
  bool parseAttrOfKind(std::string_view kind, std::string_view name, std::vector<NamedAttr>& attrs);
  bool parseDenseLiteral(Attr& out);         // `<E: literal>`
  bool parseIntValue(int64_t& v);            // optional leading '-'
  // Comma-separated integers up to `close` (not consumed); may be empty.
  bool parseIntList(Tok close, std::vector<int64_t>& out, std::vector<Range>* ranges = nullptr);
  bool parseIntAttrs(Tok close, std::vector<Attr>& out);  // the same, as Int attributes
  void skipBalanced();                       // one token, or a bracketed group

  // --- values and regions (parser.cpp) ----------------------------------
  struct ValueUse {
    std::string_view name;  // %x or %x#1, spelled contiguously in the text
    Range range;
  };
  bool parseValueUse(ValueUse& u);
  ValueId resolve(const ValueUse& u, TypeRef expected);
  std::optional<Fix> valueNameFix(const ValueUse& u);
  ValueId defineValue(std::string_view name, Range r, TypeRef t, OpId owner, uint32_t index, bool blockArg);
  struct ArgDecl {
    ValueUse name;
    TypeRef type = nullptr;
  };
  bool parseArgList(std::vector<ArgDecl>& args, bool allowAttrs);  // `(%a: T, ...)`
  // Parses `{ ... }` as a region of `owner`, with entry block arguments.
  bool parseRegion(Region& region, OpId owner, const std::vector<ArgDecl>& args, bool isolated);

  // --- ops (parser.cpp, parse_format.cpp, parse_custom.cpp) -------------
  struct ResultName {
    std::string_view name;
    uint32_t count = 1;
    Range range;
  };
  struct OpState {
    const OpInfo* info = nullptr;
    OpId id = kNoId;
    llvm::SmallVector<ResultName, 2> resultNames;
    llvm::SmallVector<llvm::SmallVector<ValueUse, 2>, 4> operandGroups;  // by declared group
    llvm::SmallVector<llvm::SmallVector<TypeRef, 2>, 4> operandTypes;    // explicit types per group
    llvm::SmallVector<llvm::SmallVector<TypeRef, 2>, 2> resultTypes;     // per result group
    uint32_t typeListed = 0;  // bit g: group g's types were written as a list (one per value)
    std::vector<NamedAttr> attrs;
    std::vector<Region> regions;
  };
  bool parseFormat(const std::vector<FormatElem>& elems, OpState& st);
  bool parseCustom(OpState& st);
  Program& program() { return out_.program; }
  SideTable& side() { return out_.side; }

private:
  // Top level and blocks.
  void parseItems(Block& block, OpId owner, bool topLevel);
  ItemParse parseItem(Block& block, OpId owner);  // one op of a module's body, recorded
  bool parseOperation(Block& block, OpId parent);
  bool parseResultNames(llvm::SmallVectorImpl<ResultName>& names);
  bool parseGenericOp(OpState& st, Operation& op);
  bool parseCustomOpBody(OpState& st);
  void finishOp(OpState& st, Operation& op, bool ok);
  void resolveOperands(OpState& st, Operation& op);
  void defineResults(OpState& st, Operation& op);
  void recover();
  void skipLocTrailer();
  void parseAliasDef();
  bool atOpStart() const;

  // Custom op parsers (parse_custom.cpp).
  bool parseModuleOp(OpState& st);
  bool parseFunctionOp(OpState& st, bool isEntry);
  bool parseGlobalOp(OpState& st);
  bool parseIfOp(OpState& st);
  bool parseForOp(OpState& st);
  bool parseLoopOp(OpState& st);
  bool parseMakeTensorView(OpState& st);
  bool parseMakeView(OpState& st);
  bool parseShapeQuery(OpState& st);
  bool parseViewMemoryOp(OpState& st);
  bool parseMemoryOrdering(OpState& st, bool scopeRequired);
  bool parseIndexTypes(OpState& st, int group);

  // Type helpers (parse_types.cpp).
  TypeRef parseTileBody(Range start);
  TypeRef parseTensorViewBody();
  TypeRef parseViewBody(TypeKind kind);
  bool parseDims(std::vector<int64_t>& dims, bool allowDynamic, bool trailingX);
  TypeRef parseElementType();
  TypeRef parseFunctionType();
  TypeRef parseTypeUncached();
  uint32_t typeSpanEnd() const;  // end of the balanced `name<...>` at tok(), 0 if none
  std::string balancedText();

  std::string_view text_;
  Lexer lex_;
  Token tok_;
  uint32_t lastEnd_ = 0;
  bool saidMasked_ = false;  // the `masked` view spelling is explained once per module item
  ParseResult& out_;
  DiagSink& diags_;
  // SSA scopes: each region pushes a map; isolated regions also mark a barrier.
  // SSA names are short: FNV-1a beats LLVM's general-purpose string hash here.
  struct NameKey : llvm::DenseMapInfo<llvm::StringRef> {
    static unsigned getHashValue(llvm::StringRef s) {
      uint32_t h = 2166136261u;
      for (char c : s) h = (h ^ static_cast<unsigned char>(c)) * 16777619u;
      return h;
    }
  };
  struct Scope {
    llvm::DenseMap<llvm::StringRef, ValueId, NameKey> names;  // keys view the text or Program::names
    bool isolated = false;
  };
  // Types are parsed once per distinct spelling; later uses replay the
  // recorded occurrences (nested types included) at their own offsets.
  struct CachedType {
    TypeRef type = nullptr;
    llvm::SmallVector<std::pair<Range, TypeRef>, 2> uses;  // ranges relative to the span start
  };
  llvm::DenseMap<llvm::StringRef, CachedType> typeCache_;
  std::vector<Scope> scopes_;
  std::unordered_map<std::string, size_t> attrAliases_;  // #name -> index in aliases
  std::unordered_map<std::string, TypeRef> typeAliases_;
  OpId currentOp_ = kNoId;
  unsigned depth_ = 0;  // regions, types, attributes and literals nested so far
  // Bounds recursion so no input can exhaust the stack; reports once at the limit.
  struct Nesting {
    Parser& p;
    bool ok;
    explicit Nesting(Parser& parser);
    ~Nesting() { --p.depth_; }
  };
  bool genericRegion_ = false;  // parsing the `({...})` regions of a generic op
  // Names valueNameFix may still compare against, per module item (so that an
  // item parses alike on its own and in its file).
  static constexpr uint32_t kTypoBudget = 1u << 18;
  uint32_t typoBudget_ = kTypoBudget;
  uint32_t recoveries_ = 0, itemRecoveries_ = 0;  // recover() calls: all, and those inside module items
  OpId moduleBody_ = kNoId;  // the cuda_tile.module whose body is being parsed
};

}  // namespace tilesight
