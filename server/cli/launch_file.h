#pragma once
// A launch file (docs/bytecode.md "The launch"): the grid and each argument
// of a cuTile kernel by its Python name, as `compile.py --launch` writes it.
// cuTile bytecode has dynamic shapes: an array argument is the entry's base
// pointer, then one size per dimension, then one stride per dimension; a
// scalar is one argument; a constant is none (cuTile folds it in).
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tilesight::cli {

struct LaunchArg {
  std::string param;  // the Python parameter's name
  enum Kind { Array, Scalar, Constant } kind = Constant;
  std::string dtype;                     // arrays and scalars
  std::vector<int64_t> shape, strides;   // arrays (strides in elements)
  std::optional<int64_t> intValue;       // integer scalars
  std::string value;                     // scalars: the value as written (numbers)
  size_t position = 0;                   // the entry parameter it starts at
};

struct LaunchFile {
  std::string path;
  std::optional<std::array<int64_t, 3>> grid;
  std::vector<LaunchArg> args;
};

// The launch of a bytecode file: `given` (--launch), else NAME.launch.json
// beside NAME.tilebc or NAME.VERSION.tilebc. nullopt without a problem when
// none was given and none lies beside; with `problem` set when the file is
// unreadable or not a launch file.
std::optional<LaunchFile> findLaunch(const std::string& given, const std::string& bytecodePath, std::string& problem);

// `run`'s view of a launch: `--arg PARAM=VALUE` for every parameter of the
// entry (`params`: its names, in order), an array's data from `named`
// (`NAME=VALUE` by Python name; default zeros of the launch's shape and
// dtype), sizes, strides and scalars from the file; `outs` renamed from
// Python names to parameters. What `named` gives by position or by a
// parameter's own name is kept. `problem` names an unknown name.
std::vector<std::string> runArgs(const LaunchFile& launch, const std::vector<std::string>& params,
                                 const std::vector<std::string>& named,
                                 std::vector<std::pair<std::string, std::string>>& outs, std::string& problem);

}  // namespace tilesight::cli
