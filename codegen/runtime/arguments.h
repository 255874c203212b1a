#pragma once
// `--arg NAME=VALUE` of `tilesight run` (DESIGN §3), bound to the arguments
// of an entry for any backend: a scalar is a typed number, a pointer a host
// buffer read from a .npy file or made by zeros:/rand:, and a `list:` of such
// buffers is cuTile's list of arrays (a ptr<i64> to one row of words per
// array: its byte address, its shape, its strides). Every problem is an
// llvm::Error whose message names the argument, its type and what to do
// (the command exits 2 with it).
#include <cstdint>
#include <string>
#include <vector>

#include <llvm/Support/Error.h>

#include "analysis/ir/ir.h"
#include "codegen/runtime/buffers.h"

namespace tilesight::runtime {

struct ArgValue {
  TypeRef type = nullptr;        // the entry argument's type (a scalar tile)
  std::string name;              // without %
  HostBuffer* buffer = nullptr;  // pointer arguments (a list: its words)
  std::vector<HostBuffer*> items;  // a list's arrays, named NAME[K]
  int64_t i = 0;                 // integer scalars (canonical for the width)
  double f = 0;                  // float scalars
  std::string source;            // what the user gave ("@x.npy", "zeros:8:f32", "3")
};

// The entry ops of `p` (an entry is named @name).
std::vector<const Operation*> entriesOf(const Program& p);
// The entry named `name` (with or without @); the only entry when name is
// empty and there is one.
llvm::Expected<const Operation*> selectEntry(const Program& p, const std::string& name);

// Binds `specs` (NAME=VALUE, NAME = an argument's name without % or its
// position) to the arguments of `entry`; buffers are added to `memory`.
llvm::Expected<std::vector<ArgValue>> bindArguments(const Program& p, const Operation& entry,
                                                    const std::vector<std::string>& specs, AddressSpace& memory);

// The buffers of the arguments that hold data, by name without %: pointer
// arguments, and each array of a list as NAME[K] (not the list's words).
std::vector<std::pair<std::string, HostBuffer*>> dataBuffers(const std::vector<ArgValue>& args);

// The shape of the NumPy array that holds b's bytes: b's shape, but 4-bit
// elements go two to a byte along the last dimension.
std::vector<int64_t> npyShapeOf(const HostBuffer& b);

// The NumPy dtype (descr) that holds elements of e in a .npy file (DESIGN §3).
std::string npyDescrOf(Elem e);

// The shapes the program's tensor_views need of the buffers: for every
// make_tensor_view whose base is a pointer argument and whose shape and
// strides are known (static, or given by scalar arguments), an error when
// the buffer holds fewer elements than the view reaches.
llvm::Error checkViewsFit(const Program& p, const Operation& entry, const std::vector<ArgValue>& args);

}  // namespace tilesight::runtime
