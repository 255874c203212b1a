#pragma once
// The lowering's working state (lower.cpp drives it; lower_*.cpp lower one
// family of ops each): where statements go, how each SSA value is held, and
// the helpers that spell values, element types and staging.
#include <algorithm>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "analysis/ir/ir_query.h"
#include "analysis/ir/ir.h"
#include "analysis/ir/op_table.h"
#include "codegen/simt/kernel.h"

namespace tilesight::simt {

// An op or type the lowering does not handle; lower() turns it into an error.
// `at` 0: the op being lowered (Lowerer::lowerOp fills it in).
struct Unsupported : std::runtime_error {
  Unsupported(uint32_t at, std::string what) : std::runtime_error(std::move(what)), at(at) {}
  uint32_t at;
};

class Lowerer {
public:
  Lowerer(const Program& p, Kernel& k) : p_(p), k_(k), out_(&k.body) {}
  bool tensorCores = true;  // give mmaf a CUDA tensor-core variant where one applies
  bool emulateTensorCores = false;  // LowerOptions::emulateTensorCores

  const Program& program() const { return p_; }
  Kernel& kernel() { return k_; }
  int64_t threads() const { return k_.threads; }

  // --- statements -------------------------------------------------------------
  void code(std::string s) { out_->push_back(Stmt{Stmt::Code, std::move(s)}); }
  void barrier() { out_->push_back(Stmt{Stmt::Barrier}); }
  // Statements `fill` emits go into a new statement of `kind` (its body, or
  // for If the else branch with `orElse`).
  Stmt& nest(Stmt s, const std::function<void()>& fill);
  void elements(int64_t n, const std::function<void()>& fill) { nest(Stmt{Stmt::Elements, "", n}, fill); }
  void into(std::vector<Stmt>& body, const std::function<void()>& fill);

  // --- values -------------------------------------------------------------------
  TypeRef type(ValueId v) const { return p_.typeOf(v); }
  // Elements of a tile value (1 for scalars and non-tiles).
  int64_t count(ValueId v) const;
  bool cyclic(ValueId v) const { return count(v) > 1; }
  std::string name(ValueId v) const { return "v" + std::to_string(v); }
  // The value's element k inside an element loop over its own shape (or the
  // value itself when uniform).
  std::string at(ValueId v) const { return cyclic(v) ? name(v) + "[j]" : name(v); }
  // Declares v (an array of slots when cyclic), uninitialised.
  void declare(ValueId v);
  // v's tensor_view (for a view: the tensor_view it was made from).
  ValueId tensorOf(ValueId v) const { return tensorOf_.count(v) ? tensorOf_.at(v) : v; }
  void setTensorOf(ValueId view, ValueId tensor) { tensorOf_[view] = tensor; }

  // --- element types --------------------------------------------------------------
  // The C type a tile of t holds its elements in.
  std::string held(TypeRef tile) const;
  // The C type of one element in memory (pointee e).
  static std::string memType(Elem e);
  // Round a held float to format e ("ts_rf16(x)"; x itself for f32/f64).
  static std::string round(Elem e, const std::string& x);
  // A held value from memory bits `bits` of format e, and the inverse.
  static std::string fromMemory(Elem e, const std::string& bits);
  static std::string toMemory(Elem e, const std::string& v);
  // The storage bits of held value x of element e (a ts_u64), and the held
  // value (type T) of element e with storage bits x: bit casts and atomics.
  static std::string bitsOf(Elem e, const std::string& x);
  static std::string fromBits(Elem e, const std::string& T, const std::string& x);
  // Float v of format e as an expression of its held type (exact for
  // f32/f64, rounded to the format for narrower ones; NaN and infinities
  // by their bits).
  static std::string floatLiteral(Elem e, double v);
  // Pointer values of 4-bit pointees count nibbles (twice the byte address,
  // plus 1 for the high nibble), as the interpreter's do (interp/elements.h);
  // others are byte addresses. The pointer value of byte address a, and the
  // byte address of pointer value p.
  static std::string pointerAt(Elem pointee, const std::string& a);
  static std::string addressOf(Elem pointee, const std::string& p);
  // Bytes of one element of a tile of type t as held (staging memory).
  uint64_t heldBytes(TypeRef tile) const;
  // The element a tile type holds: its scalar, or I64 for pointer tiles.
  static Elem elemOf(TypeRef tile);
  static unsigned intWidth(Elem e);  // 64 for pointers

  // --- staging ------------------------------------------------------------------
  // Writes cyclic or uniform value v to staging memory at byte offset off
  // (its held type, element k at index k); returns the bytes it takes.
  uint64_t stageWrite(ValueId v, uint64_t off);
  // Stages values (in order, 8-byte aligned) between two barriers; their
  // offsets, then where the staged bytes end.
  std::vector<uint64_t> stageAll(const std::vector<ValueId>& values);
  // The staged element at index `idx` of value v staged at off.
  std::string staged(ValueId v, uint64_t off, const std::string& idx) const;
  void needStage(uint64_t bytes) { k_.stageBytes = std::max(k_.stageBytes, bytes); }
  static uint64_t align8(uint64_t b) { return (b + 7) / 8 * 8; }

  // --- the guard (Kernel::guarded) -------------------------------------------------
  // The condition under which an access of `op` (`what`: "a load"...) to
  // `bytes` bytes at byte address `addr` runs: inside a launch buffer, else
  // recorded as a fault of element `k` (an expression) of `tile`'s shape;
  // "1" without the guard.
  std::string guard(const Operation& op, const char* what, const std::string& addr, uint64_t bytes, ValueId tile,
                    const std::string& k);
  bool guarded = true;  // LowerOptions::guard

  // --- faults ---------------------------------------------------------------------
  // A fault id (its message shown when the kernel reports it).
  int faultId(std::string message);
  [[noreturn]] void unsupported(const Operation& op, const std::string& what) const;

  // --- regions ---------------------------------------------------------------------
  void lowerBlock(const Block& b);
  void lowerOp(const Operation& op);
  // The variables a terminator of the innermost loop/if assigns (set by the
  // control ops while they lower a region).
  struct Frame {
    OpKind kind;
    std::vector<std::string> carried;  // for/loop: iteration variables
    std::vector<std::string> results;  // if/loop results
  };
  std::vector<Frame> frames;

private:
  const Program& p_;
  Kernel& k_;
  std::vector<Stmt>* out_;
  std::map<ValueId, ValueId> tensorOf_;
};

// Per family (lower_*.cpp); each returns false when op is not of its family.
bool lowerArith(Lowerer& L, const Operation& op);
bool lowerShape(Lowerer& L, const Operation& op);
bool lowerMemory(Lowerer& L, const Operation& op);
bool lowerControl(Lowerer& L, const Operation& op);
// mmaf and mmai (lower_mma.cpp): with a tensor-core variant where one applies.
void lowerMma(Lowerer& L, const Operation& op);

// Coordinates of row-major element `k` (a C expression) of `shape`, as C expressions.
std::vector<std::string> coordsOf(const std::string& k, const std::vector<int64_t>& shape);
// The row-major index of coordinates c in shape.
std::string indexOf(const std::vector<std::string>& c, const std::vector<int64_t>& shape);
std::string intLit(int64_t v);  // a 64-bit literal: ((ts_i64)5)
inline std::string num(int64_t v) { return std::to_string(v); }

}  // namespace tilesight::simt
