#pragma once
// `run` and `check` with a launch file (analysis/bytecode/launch.h): finding
// and reading it, and run's view of it (its --arg and --out).
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analysis/bytecode/launch.h"

namespace tilesight::cli {

// The launch of a bytecode file: `given` (--launch), else NAME.launch.json
// beside NAME.tilebc or NAME.VERSION.tilebc. nullopt without a problem when
// none was given and none lies beside; with `problem` set when the file is
// unreadable or not a launch file.
std::optional<bytecode::Launch> findLaunch(const std::string& given, const std::string& bytecodePath,
                                           std::string& problem);

// `run`'s view of a launch: `--arg PARAM=VALUE` for every parameter of the
// entry (`params`: its names, in order), an array's data from `named`
// (`NAME=VALUE` by Python name; default zeros of the launch's shape and
// dtype), sizes, strides and scalars from the file; `outs` renamed from
// Python names to parameters. What `named` gives by position or by a
// parameter's own name is kept. `problem` names an unknown name. `random`:
// floating-point arrays no --arg names start as rand: (each with its own seed) instead of
// zeros (integer and boolean arrays stay zeros).
std::vector<std::string> runArgs(const bytecode::Launch& launch, const std::vector<std::string>& params,
                                 const std::vector<std::string>& named,
                                 std::vector<std::pair<std::string, std::string>>& outs, std::string& problem,
                                 bool random = false);

}  // namespace tilesight::cli
