// tilesight_bench_gen N custom|generic > file : writes a generated program.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "bench/program_gen.h"

int main(int argc, char** argv) {
  if (argc != 3 || (std::strcmp(argv[2], "custom") != 0 && std::strcmp(argv[2], "generic") != 0)) {
    std::fprintf(stderr, "usage: tilesight_bench_gen OPS custom|generic\n");
    return 2;
  }
  auto form = std::strcmp(argv[2], "custom") == 0 ? tilesight::bench::Form::Custom : tilesight::bench::Form::Generic;
  std::string text = tilesight::bench::generateProgram(std::atoi(argv[1]), form);
  std::fwrite(text.data(), 1, text.size(), stdout);
  return 0;
}
