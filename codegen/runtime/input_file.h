#pragma once
// Reading an input file whole (a program, a .npy array, a config file)
// without the risks of what is not a regular file: a FIFO can block the
// open or the read for ever, a device such as /dev/zero never ends. Those
// are refused by what they are; `-` (standard input) is the callers' to read.
#include <optional>
#include <string>

namespace tilesight::runtime {

// The bytes of the regular file at `path` (a symbolic link to one counts);
// nullopt with `why` set (without the path) otherwise: the system's reason
// ("No such file or directory"), or what the path is ("a FIFO, not a regular file").
std::optional<std::string> readRegularFile(const std::string& path, std::string& why);

}  // namespace tilesight::runtime
