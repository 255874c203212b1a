#pragma once
// The launch a bytecode file was compiled for (docs/bytecode.md "The
// launch"): cuTile's launch file (JSON, as `compile.py --launch` writes it):
// the grid and each argument by its Python name. cuTile bytecode has dynamic
// shapes: an array argument is the entry's base pointer, then one size per
// dimension, then one stride per dimension; a scalar is one argument; a
// constant is none (cuTile folds it in); a list of arrays is two (a pointer to
// one row of words per array, then the length). Shared by `check`, `run` and
// the language server; the caller reads the file.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/checks/checks.h"

namespace tilesight::bytecode {

struct LaunchArg {
  std::string param;  // the Python parameter's name
  enum Kind { Array, Scalar, Constant, List } kind = Constant;
  std::string dtype;                    // arrays and scalars
  std::vector<int64_t> shape, strides;  // arrays (strides in elements)
  std::optional<int64_t> intValue;      // integer scalars
  std::string value;                    // scalars: the number as written
  std::vector<LaunchArg> items;         // lists: the arrays, `param[K]`
  size_t position = 0;                  // the entry parameter it starts at
  // Arrays and lists: its memory overlaps another argument's that says so
  // too (`"may_alias": true`; `tilesight record` sets it from the pointers).
  bool mayAlias = false;
};

struct Launch {
  std::string file;  // named in messages
  std::optional<std::array<int64_t, 3>> grid;
  std::vector<LaunchArg> args;
};

// NAME.launch.json for NAME.tilebc and NAME.VERSION.tilebc (NAME.13_3.tilebc).
std::string launchFileBeside(const std::string& bytecodePath);

// Launch file `text` (read from `file`); nullopt with `problem` saying why
// it is unusable.
std::optional<Launch> parseLaunch(std::string_view text, const std::string& file, std::string& problem);

// The launch as the checks' grid and arguments by position, and the
// arguments that may alias as one group (CheckOptions::aliasGroup). What
// `checks` already has wins (the grid when `gridGiven`, an argument of the
// same position).
void applyLaunch(const Launch& launch, CheckOptions& checks, bool gridGiven);

// The name the launch gives each entry parameter, by position: an array's
// base pointer its Python name, its sizes NAME.shape.D and strides
// NAME.strides.D, a scalar its Python name (constants have no parameter).
std::vector<std::string> parameterNames(const Launch& launch);

// The same from launch file `text` (read from `file`); none when it is unusable
// (the checks say why when they apply it).
std::vector<std::string> parameterNames(std::string_view text, const std::string& file);

// Both: returns why the file is unusable; empty when it was used.
std::string applyLaunch(std::string_view text, const std::string& file, CheckOptions& checks, bool gridGiven);

}  // namespace tilesight::bytecode
