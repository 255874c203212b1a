// Block ids, globals, assume, assert, print_tko, alloca and token ops.
#include <algorithm>
#include <cctype>
#include <cstdio>

#include "analysis/ir/op_accessors.h"
#include "codegen/interp/block_exec.h"
#include "codegen/interp/elements.h"
#include "codegen/interp/print_format.h"

namespace tilesight::interp {

namespace {

void scalars(BlockExec& x, const Operation& op, const std::array<int64_t, 3>& v) {
  for (size_t i = 0; i < op.results.size() && i < 3; ++i) x.result(op, i)->ints()[0] = v[i];
}

void assertOp(BlockExec& x, const Operation& op) {
  const Tile& c = x.tile(op.operands[0].value);
  for (int64_t k = 0; k < c.n; ++k) {
    if (c.ints()[k]) continue;
    const Attr* m = attrs::message(op);
    const auto& b = x.blockId();
    x.fail(op, "assert failed: \"" + (m ? m->s : std::string()) + "\" (element " + std::to_string(k) + ", tile block (" +
                   std::to_string(b[0]) + ", " + std::to_string(b[1]) + ", " + std::to_string(b[2]) + "))");
  }
}

// One printf conversion applied to element k of t.
std::string formatElement(const std::string& spec, const Tile& t, int64_t k) {
  char conv = spec.back();
  bool isInt = std::string_view("diouxXc").find(conv) != std::string_view::npos;
  char buf[128];
  if (isInt) {
    std::string s = spec.substr(0, spec.size() - 1) + "ll" + conv;
    long long v = t.store == Store::Int ? t.ints()[k] : static_cast<long long>(t.asDouble(k));
    // The unsigned conversions see the integer's own bits, as C's printf sees
    // an int (narrower integers promoted to 32 bits): %x of an i32 -1 is
    // ffffffff, not the 64 bits the value is held in here.
    if (t.store == Store::Int && std::string_view("ouxX").find(conv) != std::string_view::npos)
      v = static_cast<long long>(unsignedOf(std::max(32u, intBits(t.elem)), v));
    std::snprintf(buf, sizeof buf, s.c_str(), v);
  } else {
    std::snprintf(buf, sizeof buf, spec.c_str(), t.store == Store::Int ? static_cast<double>(t.ints()[k]) : t.asDouble(k));
  }
  return buf;
}

// How many dimensions of `shape` (innermost first) have a boundary at flat
// index k: the brackets that open before element k, or close before k + 1.
int64_t boundariesAt(const std::vector<int64_t>& shape, int64_t k) {
  int64_t n = 0;
  for (int64_t span = 1, d = static_cast<int64_t>(shape.size()); d-- > 0 && k % (span *= shape[d]) == 0;) ++n;
  return n;
}

// The conversion applied to every element of t, nested as its shape is (as
// cuTile prints tiles): a 0-d tile is its value, a 2x2 tile "[[a, b], [c, d]]".
std::string formatTile(const std::string& spec, const Tile& t) {
  const std::vector<int64_t>& shape = t.type->shape;
  if (shape.empty()) return formatElement(spec, t, 0);
  std::string out;
  for (int64_t k = 0; k < t.n; ++k)
    out += (k ? ", " : "") + std::string(boundariesAt(shape, k), '[') + formatElement(spec, t, k) +
           std::string(boundariesAt(shape, k + 1), ']');
  return out;
}

// A string attribute's text with MLIR's escapes (\n, \t, \\, \", two hex digits) applied.
std::string unescape(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\' || i + 1 >= s.size()) {
      out += s[i];
      continue;
    }
    char c = s[++i];
    if (c == 'n') out += '\n';
    else if (c == 't') out += '\t';
    else if (std::isxdigit(static_cast<unsigned char>(c)) && i + 1 < s.size() &&
             std::isxdigit(static_cast<unsigned char>(s[i + 1])))
      out += static_cast<char>(std::stoi(s.substr(i, 2), nullptr, 16)), ++i;
    else out += c;
  }
  return out;
}

std::string formatPrint(BlockExec& x, const Operation& op) {
  std::vector<const Tile*> tiles;
  for (const Operand& o : op.operands)
    if (x.typeOf(o.value)->isTile()) tiles.push_back(&x.tile(o.value));
  return formatPrinted(op, tiles);
}

void allocate(BlockExec& x, const Operation& op) {
  TypeRef t = x.typeOf(op.results[0]);
  Elem e = t->element->elem;
  runtime::HostBuffer b;
  b.name = "alloca at offset " + std::to_string(op.range.begin);
  b.elem = e;
  b.shape = {attrs::numElem(op)->i};
  b.bytes.assign(runtime::byteSpanOf(e, b.shape[0]), 0);
  uint64_t address = x.launch().memory.add(std::move(b)).address();
  x.result(op)->ints()[0] = runtime::pointerTo(e, address);
}

// The union of the inputs' events (the sanitizer's; nothing otherwise).
void joinTokens(BlockExec& x, const Operation& op) {
  std::vector<uint64_t> bits;
  for (const Operand& o : op.operands) {
    const TokenValue& t = std::get<TokenValue>(x.value(o.value));
    if (!t.events) continue;
    if (bits.size() < t.events->size()) bits.resize(t.events->size(), 0);
    for (size_t i = 0; i < t.events->size(); ++i) bits[i] |= (*t.events)[i];
  }
  TokenValue out;
  if (!bits.empty()) out.events = std::make_shared<const std::vector<uint64_t>>(std::move(bits));
  x.set(op.results[0], out);
}

}  // namespace

std::string formatPrinted(const Operation& op, const std::vector<const Tile*>& tiles) {
  const std::string fmt = unescape(attrs::str(op)->s);
  std::string out;
  size_t arg = 0;
  for (size_t i = 0; i < fmt.size(); ++i) {
    if (fmt[i] != '%') {
      out += fmt[i];
      continue;
    }
    if (i + 1 < fmt.size() && fmt[i + 1] == '%') {
      out += '%';
      ++i;
      continue;
    }
    size_t end = fmt.find_first_of("diouxXcfFeEgGaA", i + 1);
    if (end == std::string::npos) break;
    std::string spec = fmt.substr(i, end - i + 1);
    std::erase_if(spec, [](char c) { return c == 'l' || c == 'h'; });
    if (arg < tiles.size()) out += formatTile(spec, *tiles[arg++]);
    i = end;
  }
  return out;
}

void evalMisc(BlockExec& x, const Operation& op, OpKind k) {
  switch (k) {
    case OpKind::GetTileBlockId: return scalars(x, op, x.blockId());
    case OpKind::GetNumTileBlocks: return scalars(x, op, x.launch().grid);
    case OpKind::GetGlobal: {
      auto it = x.launch().globals.find(attrs::name(op)->s);
      if (it == x.launch().globals.end()) x.fail(op, "no global " + attrs::name(op)->s);
      x.result(op)->ints()[0] = it->second;
      return;
    }
    case OpKind::Assume: x.set(op.results[0], x.value(op.operands[0].value)); return;
    case OpKind::Assert: return assertOp(x, op);
    case OpKind::PrintTko: {
      std::string text = formatPrint(x, op);
      {
        std::lock_guard<std::mutex> lock(x.launch().outputMutex);
        x.launch().output += text;
      }
      x.set(op.results[0], x.token(op));  // printing touches no memory: the token passes on
      return;
    }
    case OpKind::Alloca: return allocate(x, op);
    case OpKind::MakeToken: x.set(op.results[0], TokenValue{}); return;
    case OpKind::JoinTokens: return joinTokens(x, op);
    // Grid dependency control orders this kernel against other kernels, and
    // one run holds one kernel (every launch before it has finished); the
    // alias fence orders accesses to memory the interpreter addresses one way
    // only. Each passes its token on.
    case OpKind::GdcLaunchDependentsTko: case OpKind::GdcWaitTko: case OpKind::MemoryFenceAliasTko:
      x.set(op.results[0], x.token(op));
      return;
    default: x.fail(op, "not a misc op");
  }
}

}  // namespace tilesight::interp
