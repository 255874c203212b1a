// One switch over every op kind: adding a row to ops.def without saying how
// it runs is a compiler warning here (-Wswitch), not a silent no-op.
#include "codegen/interp/block_exec.h"
#include "codegen/interp/unspecified.h"

namespace tilesight::interp {

Exit evalOp(BlockExec& x, const Operation& op) {
  OpKind k = op.info->kind;
  switch (k) {
    case OpKind::Absi: case OpKind::Addi: case OpKind::Subi: case OpKind::Muli: case OpKind::Shli:
    case OpKind::Divi: case OpKind::Remi: case OpKind::Maxi: case OpKind::Mini: case OpKind::Shri:
    case OpKind::Mulhii: case OpKind::Andi: case OpKind::Ori: case OpKind::Xori: case OpKind::Negi:
    case OpKind::Cmpi:
      evalInteger(x, op, k);
      break;
    case OpKind::Addf: case OpKind::Subf: case OpKind::Mulf: case OpKind::Divf: case OpKind::Fma:
    case OpKind::Maxf: case OpKind::Minf: case OpKind::Remf: case OpKind::Pow: case OpKind::Atan2:
    case OpKind::Fpowi:
    case OpKind::Absf: case OpKind::Negf: case OpKind::Ceil: case OpKind::Floor: case OpKind::Cos:
    case OpKind::Cosh: case OpKind::Sin: case OpKind::Sinh: case OpKind::Tan: case OpKind::Log:
    case OpKind::Log2: case OpKind::Tanh: case OpKind::Exp: case OpKind::Exp2: case OpKind::Sqrt:
    case OpKind::Rsqrt: case OpKind::Cmpf:
      evalFloat(x, op, k);
      break;
    case OpKind::Mmai: case OpKind::Mmaf: case OpKind::MmafScaled:
      evalMatrix(x, op, k);
      break;
    case OpKind::Exti: case OpKind::Trunci: case OpKind::Ftof: case OpKind::Ftoi: case OpKind::Itof:
    case OpKind::Bitcast: case OpKind::PtrToInt: case OpKind::IntToPtr: case OpKind::PtrToPtr:
      evalConversion(x, op, k);
      break;
    case OpKind::Constant: case OpKind::Iota: case OpKind::Broadcast: case OpKind::Reshape:
    case OpKind::Permute: case OpKind::Cat: case OpKind::Extract: case OpKind::Select: case OpKind::Pack:
    case OpKind::Unpack: case OpKind::Insert:
      evalShape(x, op, k);
      break;
    case OpKind::Reduce: case OpKind::Scan:
      evalReduction(x, op, k);
      break;
    case OpKind::GetTileBlockId: case OpKind::GetNumTileBlocks: case OpKind::GetGlobal: case OpKind::Assume:
    case OpKind::Assert: case OpKind::PrintTko: case OpKind::Alloca: case OpKind::MakeToken:
    case OpKind::JoinTokens: case OpKind::GdcLaunchDependentsTko: case OpKind::GdcWaitTko:
    case OpKind::MemoryFenceAliasTko:
      evalMisc(x, op, k);
      break;
    case OpKind::Offset: case OpKind::LoadPtrTko: case OpKind::StorePtrTko: case OpKind::AtomicRmwTko:
    case OpKind::AtomicCasTko:
      evalPointerMemory(x, op, k);
      break;
    case OpKind::MakeTensorView: case OpKind::MakePartitionView: case OpKind::MakeStridedView:
    case OpKind::MakeGatherScatterView: case OpKind::GetTensorShape: case OpKind::GetIndexSpaceShape:
    case OpKind::LoadViewTko: case OpKind::StoreViewTko: case OpKind::AtomicRedViewTko:
      evalView(x, op, k);
      break;
    case OpKind::If: case OpKind::For: case OpKind::Loop: {
      if (x.sanitizer()) unspecifiedControl(x, op, k);
      Exit e = evalControl(x, op, k);
      if (e.kind == Exit::Fallthrough) x.observe(op);
      return e;
    }
    // Terminators end a block (BlockExec::runBlock); functions, the module and
    // globals are not ops of a function body.
    case OpKind::Continue: case OpKind::Break: case OpKind::Yield: case OpKind::Return:
    case OpKind::Module: case OpKind::Entry: case OpKind::Global: case OpKind::TestingFunc:
      x.fail(op, "'" + std::string(op.info->name) + "' cannot run here");
  }
  if (x.sanitizer()) followUnspecified(x, op, k);
  x.observe(op);
  return {};
}

}  // namespace tilesight::interp
