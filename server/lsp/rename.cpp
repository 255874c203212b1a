#include "server/lsp/rename.h"

#include <algorithm>
#include <cctype>

#include "server/lsp/jsonrpc.h"
#include "server/lsp/mentions.h"

namespace tilesight::lsp {

namespace {

// Each kind's sigil and its name in messages (EntityKey::Kind order).
struct KindSpelling {
  char sigil;
  const char *name;
};
constexpr KindSpelling kKinds[] = {{'%', "value"}, {'@', "symbol"}, {'#', "alias"}, {'^', "block label"}};

char sigilOf(EntityKey::Kind k) { return kKinds[k].sigil; }
const char *kindName(EntityKey::Kind k) { return kKinds[k].name; }

// The name a mention spells: its text, without a value's `#1` result index.
std::string_view nameOf(const Snapshot &snap, const Mention &m) {
  std::string_view text = snap.source->text().substr(m.range.begin, m.range.end - m.range.begin);
  if (m.key.kind == EntityKey::Value)
    if (size_t hash = text.find('#', 1); hash != std::string_view::npos)
      text = text.substr(0, hash);
  return text;
}

bool idChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '.' || c == '-'; }

// Whether `name` (with its sigil) is a name of kind k as the parser reads it:
// values and labels take MLIR's suffix ids (digits, or a letter or one of
// `$._-` first); symbols and aliases a bare identifier.
bool validName(EntityKey::Kind k, std::string_view name) {
  if (name.size() < 2 || name[0] != sigilOf(k))
    return false;
  std::string_view id = name.substr(1);
  bool digits = std::all_of(id.begin(), id.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
  if (k == EntityKey::Value || k == EntityKey::Label)
    return digits || ((std::isalpha(static_cast<unsigned char>(id[0])) || std::string_view("$._-").find(id[0]) != std::string_view::npos) &&
                      std::all_of(id.begin(), id.end(), idChar));
  return (std::isalpha(static_cast<unsigned char>(id[0])) || id[0] == '_') &&
         std::all_of(id.begin(), id.end(), [](char c) { return idChar(c) && c != '-'; });
}

llvm::Error refusal(const std::string &why) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), why);
}

// The entity to rename at `offset`; refused where there is none or it has
// no definition to rename with it.
llvm::Expected<Entity> renamable(const Snapshot &snap, uint32_t offset) {
  std::optional<Entity> e = entityAt(snap, offset);
  if (!e)
    return refusal("nothing to rename here: place the cursor on a value, symbol, #alias or block label");
  bool defined = std::any_of(e->all.begin(), e->all.end(), [](const Mention &m) { return m.isDef; });
  if (!defined)
    return refusal(std::string(nameOf(snap, e->under)) + " is not defined in this chunk: nothing to rename it with");
  return *e;
}

Range nameRange(const Snapshot &snap, const Mention &m) {
  return {m.range.begin, m.range.begin + static_cast<uint32_t>(nameOf(snap, m).size())};
}

} // namespace

llvm::Expected<RenameTarget> prepareRenameAt(const Snapshot &snap, uint32_t offset) {
  llvm::Expected<Entity> e = renamable(snap, offset);
  if (!e)
    return e.takeError();
  return RenameTarget{nameRange(snap, e->under), std::string(nameOf(snap, e->under))};
}

llvm::Expected<std::vector<TextEdit>> renameAt(const Snapshot &snap, uint32_t offset, std::string name) {
  llvm::Expected<Entity> e = renamable(snap, offset);
  if (!e)
    return e.takeError();
  EntityKey::Kind kind = e->under.key.kind;
  if (!name.empty() && name[0] != sigilOf(kind))
    name = sigilOf(kind) + name; // typed without its sigil
  if (!validName(kind, name))
    return refusal("'" + name + "' is not a " + kindName(kind) + " name");
  std::string_view old = nameOf(snap, e->under);
  if (name == old)
    return std::vector<TextEdit>{};
  for (const Mention &m : chunkMentions(snap, *chunkAt(snap, e->under.range.begin)))
    if (m.key.kind == kind && !sameEntity(snap.source->text(), m, e->under) && nameOf(snap, m) == name)
      return refusal("the " + std::string(kindName(kind)) + " " + name + " already exists at line " +
                     std::to_string(snap.source->lineCol(m.range.begin).line + 1) + ": renaming " + std::string(old) +
                     " to it would " + (kind == EntityKey::Value ? "redefine or capture it" : "make the name ambiguous"));
  std::vector<TextEdit> edits;
  for (const Mention &m : e->all)
    edits.push_back({nameRange(snap, m), name});
  return edits;
}

namespace {

template <class T> T orRefuse(llvm::Expected<T> x) {
  if (!x)
    throw RpcError(error_code::RequestFailed, llvm::toString(x.takeError()));
  return std::move(*x);
}

} // namespace

json prepareRename(const FeatureContext &cx, const json &params) {
  RenameTarget t = orRefuse(prepareRenameAt(cx.snap, cx.offsetOf(member(params, "position"))));
  return {{"range", cx.range(t.range)}, {"placeholder", t.placeholder}};
}

json rename(const FeatureContext &cx, const json &params) {
  const json &requested = member(params, "newName");
  if (!requested.is_string())
    throw RpcError(error_code::InvalidParams, "\"newName\" must be a string");
  std::vector<TextEdit> edits =
      orRefuse(renameAt(cx.snap, cx.offsetOf(member(params, "position")), requested.get<std::string>()));
  if (edits.empty())
    return {{"changes", json::object()}};
  json out = json::array();
  for (const TextEdit &e : edits)
    out.push_back({{"range", cx.range(e.range)}, {"newText", e.newText}});
  return {{"changes", {{cx.snap.uri, std::move(out)}}}};
}

} // namespace tilesight::lsp
