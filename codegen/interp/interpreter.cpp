#include "codegen/interp/interpreter.h"

#include <atomic>

#include <llvm/Support/ThreadPool.h>

#include "analysis/ir/dense.h"
#include "analysis/ir/op_accessors.h"
#include "analysis/ir/ir_query.h"
#include "codegen/interp/block_exec.h"
#include "codegen/interp/elements.h"
#include "codegen/runtime/float_formats.h"

namespace tilesight::interp {

namespace {

// The module's globals, each a buffer holding its initial value.
void allocateGlobals(const Program& p, LaunchState& launch) {
  for (const Operation& op : p.ops) {
    if (!is(op, OpKind::Global)) continue;
    runtime::HostBuffer b = globalBuffer(op);
    if (b.name.empty()) continue;  // the verifier reported it
    runtime::HostBuffer& placed = launch.memory.add(std::move(b));
    launch.globals[placed.name] = runtime::pointerTo(placed.elem, placed.address());
  }
}

}  // namespace

runtime::HostBuffer globalBuffer(const Operation& global) {
  runtime::HostBuffer b;
  const Attr* sym = attrs::symName(global);
  const Attr* value = attrs::value(global);
  const Attr* type = attrs::type(global);
  if (!sym || !type || !type->type) return b;
  TypeRef tileType = type->type;
  auto t = Tile::make(tileType, tileType->numElements());
  std::optional<DenseValues> v = value ? denseValues(*value) : std::nullopt;
  if (v) fillDense(*t, *v);
  b.name = sym->s;
  b.elem = t->elem;
  b.shape = tileType->shape;
  b.bytes.assign(runtime::byteSpanOf(t->elem, t->n), 0);
  storeRun(*t, 0, runtime::pointerTo(t->elem, b.address()), 0, 1, t->n);
  return b;
}

std::vector<RtValue> entryArguments(const std::vector<runtime::ArgValue>& args) {
  std::vector<RtValue> out;
  for (const runtime::ArgValue& a : args) {
    auto t = Tile::make(a.type, 1);
    if (a.buffer) {
      t->ints()[0] = static_cast<int64_t>(runtime::pointerTo(a.buffer->elem, a.buffer->address()));
    } else if (t->store == Store::Int) {
      t->ints()[0] = a.i;
    } else if (t->store == Store::F32) {
      t->f32()[0] = static_cast<float>(a.f);
    } else {
      t->f64()[0] = a.f;
    }
    out.push_back(TileRef(t));
  }
  return out;
}

RunOutcome runEntry(const VerifiedProgram& program, const Operation& entry, const std::vector<RtValue>& args,
                    runtime::AddressSpace& memory, const LaunchOptions& options) {
  LaunchState launch(program.program(), memory);
  launch.grid = options.grid;
  launch.maxLoopIterations = options.maxLoopIterations;
  launch.sanitizer = options.sanitizer;
  launch.observer = options.observer;
  allocateGlobals(program.program(), launch);
  int64_t total = options.grid[0] * options.grid[1] * options.grid[2];
  std::atomic<int64_t>& next = launch.started;
  launch.blocks = total;
  std::atomic<bool> failed{false};
  RunOutcome out;
  std::mutex faultMutex;
  auto worker = [&] {
    for (;;) {
      // Counted as running before it takes a block, so that a block that
      // asks LaunchState::alone() never misses one about to start.
      launch.running++;
      struct Finished {
        std::atomic<int64_t>& running;
        ~Finished() { running--; }
      } finished{launch.running};
      int64_t i = next++;
      if (failed || i >= total) return;
      std::array<int64_t, 3> id = blockAt(options.grid, i);
      try {
        BlockExec x(launch, id);
        x.runFunction(entry, args);
      } catch (const RunFault& f) {
        std::lock_guard<std::mutex> lock(faultMutex);
        if (!failed.exchange(true)) {
          out.ok = false;
          out.faultAt = f.at;
          out.fault = f.what();
          out.faultBlock = id;
        }
      }
    }
  };
  // The sanitizer's shadow memory, and an observer, are not shared between threads.
  unsigned threads = options.deterministic || options.sanitizer || options.observer ? 1 : options.threads;
  if (threads == 1 || total == 1) {
    worker();
  } else {
    llvm::ThreadPool pool(llvm::hardware_concurrency(threads));
    for (unsigned t = 0; t < pool.getThreadCount(); ++t) pool.async(worker);
    pool.wait();
  }
  out.printed = std::move(launch.output);
  return out;
}

}  // namespace tilesight::interp
