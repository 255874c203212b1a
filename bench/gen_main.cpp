// tilesight_bench_gen N custom|generic|kernels|entries|errors [E] > file :
// writes a generated program of about N ops (custom, generic: in E entries) (kernels: memory-heavy entries for the
// dataflow checks), N small entries, or N type errors.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "bench/program_gen.h"

int main(int argc, char** argv) {
  const char* form = argc == 3 || argc == 4 ? argv[2] : "";
  int entries = argc == 4 ? std::atoi(argv[3]) : 1;
  std::string text;
  if (std::strcmp(form, "custom") == 0)
    text = tilesight::bench::generateProgram(std::atoi(argv[1]), tilesight::bench::Form::Custom, entries);
  else if (std::strcmp(form, "generic") == 0)
    text = tilesight::bench::generateProgram(std::atoi(argv[1]), tilesight::bench::Form::Generic, entries);
  else if (std::strcmp(form, "kernels") == 0)
    text = tilesight::bench::generateKernels(std::atoi(argv[1]));
  else if (std::strcmp(form, "entries") == 0)
    text = tilesight::bench::generateEntries(std::atoi(argv[1]));
  else if (std::strcmp(form, "errors") == 0)
    text = tilesight::bench::generateErrors(std::atoi(argv[1]));
  else {
    std::fprintf(stderr, "usage: tilesight_bench_gen N custom|generic|kernels|entries|errors [ENTRIES]\n");
    return 2;
  }
  std::fwrite(text.data(), 1, text.size(), stdout);
  return 0;
}
