// The peer of the interpreter's vector-add benchmark (scripts/bench_interp.py):
// a plain C++ loop c[i] = a[i] + b[i] over N floats. Prints the median of
// the repetitions in milliseconds.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv) {
  size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : size_t{1} << 24;
  int reps = argc > 2 ? std::atoi(argv[2]) : 5;
  std::vector<float> a(n), b(n), c(n);
  for (size_t i = 0; i < n; ++i) a[i] = float(i % 1000) * 0.5f, b[i] = float(i % 7);
  std::vector<double> ms;
  for (int r = 0; r < reps; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    for (size_t i = 0; i < n; ++i) c[i] = a[i] + b[i];
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    asm volatile("" : : "r"(c.data()) : "memory");  // keep the stores
  }
  std::sort(ms.begin(), ms.end());
  std::printf("%.3f\n", ms[ms.size() / 2]);
  return c[n / 2] == a[n / 2] + b[n / 2] ? 0 : 1;
}
