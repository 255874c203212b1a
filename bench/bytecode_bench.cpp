// Decoding bytecode against parsing the text of the same program, at sizes up
// to a million ops: a cuTile corpus file whose entry is replicated inside its
// function section (the same debug info serves every copy) until it has about
// N ops; decoded with bytecode::readBytecode into the Program the checks use
// (without printing), and the printed text of that program parsed with
// parseChunk. For each size: the best of several runs in µs of CPU time per op (and
// instructions per op where the kernel lets a process count them), with the
// page faults of that run (fresh memory the kernel zeroes: what grows at a
// million ops), for both, and their ratio. Per-op figures that stay flat as N grows tenfold show that
// both are linear.
//   tilesight_bytecode_bench [FILE.tilebc] [N ...]      (default N: 10000 100000 1000000)
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <ctime>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "bench/bytecode_replicate.h"
#include "analysis/bytecode/reader.h"
#include "analysis/syntax/parser.h"

using namespace tilesight;

namespace {

// Instructions retired by this process (user space), when perf events are
// allowed (not in most containers and VMs: then -1).
class InstructionCounter {
 public:
  InstructionCounter() {
    perf_event_attr a;
    std::memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = PERF_TYPE_HARDWARE;
    a.config = PERF_COUNT_HW_INSTRUCTIONS;
    a.disabled = 1;
    a.exclude_kernel = 1;
    a.exclude_hv = 1;
    fd_ = static_cast<int>(syscall(SYS_perf_event_open, &a, 0, -1, -1, 0));
  }
  ~InstructionCounter() {
    if (fd_ >= 0) close(fd_);
  }
  void start() {
    if (fd_ < 0) return;
    ioctl(fd_, PERF_EVENT_IOC_RESET, 0);
    ioctl(fd_, PERF_EVENT_IOC_ENABLE, 0);
  }
  long long stop() {
    long long n = -1;
    if (fd_ < 0) return n;
    ioctl(fd_, PERF_EVENT_IOC_DISABLE, 0);
    if (read(fd_, &n, sizeof n) != sizeof n) n = -1;
    return n;
  }

 private:
  int fd_ = -1;
};

// CPU time of this thread (user and system): other load on a shared machine does not count.
double cpuMicroseconds() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

// Minor page faults of this thread so far: fresh pages the kernel maps and zeroes.
long minorFaults() {
  rusage u;
  getrusage(RUSAGE_THREAD, &u);
  return u.ru_minflt;
}

struct Timing {
  double us = 0;           // best run
  long long instructions = -1;  // of the best run
  long faults = 0;         // of the best run
  double freeUs = 0;       // of the best run: freeing what it built (part of us)
};

// The best of runs of `f` (at least 3, and at least 0.3 s in all), each
// timed with freeing what it returns (a unique_ptr), which is also timed alone.
template <class F>
Timing measure(F&& f, InstructionCounter& counter) {
  Timing best{1e300, -1};
  double total = 0;
  for (int run = 0; run < 3 || total < 3e5; ++run) {
    long faults = minorFaults();
    counter.start();
    double t0 = cpuMicroseconds();
    auto made = f();
    double built = cpuMicroseconds();
    made.reset();
    double us = cpuMicroseconds() - t0;
    long long n = counter.stop();
    faults = minorFaults() - faults;
    total += us;
    if (us < best.us) best = {us, n, faults, us - (built - t0)};
  }
  return best;
}

std::string perOp(const Timing& t, size_t ops) {
  char buf[128];
  int n = std::snprintf(buf, sizeof buf, "%.3f us/op", t.us / ops);
  if (t.instructions >= 0) n += std::snprintf(buf + n, sizeof buf - n, ", %.0f instructions/op", double(t.instructions) / ops);
  std::snprintf(buf + n, sizeof buf - n, ", %.3f page faults/op (freeing: %.3f us/op)", double(t.faults) / ops,
                t.freeUs / ops);
  return buf;
}

}  // namespace

int main(int argc, char** argv) {
  std::string path = argc > 1 && argv[1][0] ? argv[1] : TILESIGHT_SOURCE_DIR "/tests/corpus/cutile/kernels/attention.causal_attention.13_3.tilebc";
  std::vector<size_t> sizes;
  for (int i = 2; i < argc; ++i) sizes.push_back(std::stoul(argv[i]));
  if (sizes.empty()) sizes = {10000, 100000, 1000000};
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  bytecode::Decoded one = bytecode::readBytecode(s.str(), false);
  if (!one.ok()) {
    std::fprintf(stderr, "%s: %s\n", path.c_str(), one.diagnostics[0].message.c_str());
    return 1;
  }
  size_t perCopy = one.program.ops.size() - 1;  // all but the module
  InstructionCounter counter;
  std::printf("%s: %zu ops per copy of its functions\n", path.c_str(), perCopy);
  for (size_t want : sizes) {
    unsigned copies = static_cast<unsigned>(std::max<size_t>(1, (want + perCopy - 1) / perCopy));
    std::string big = bench::replicateFunctions(s.str(), copies);
    bytecode::Decoded d = bytecode::readBytecode(big);
    size_t ops = d.program.ops.size();
    Timing decode = measure([&] { return std::make_unique<bytecode::Decoded>(bytecode::readBytecode(big, false)); }, counter);
    Timing parse = measure(
        [&] {
          auto r = std::make_unique<ParseResult>();
          DiagSink diags;
          parseChunk(d.text, 0, static_cast<uint32_t>(d.text.size()), *r, diags);
          return r;
        },
        counter);
    std::printf("%zu ops (%u copies, %zu bytes of bytecode, %zu bytes of text):\n", ops, copies, big.size(), d.text.size());
    std::printf("  decode bytecode: %s\n  parse text:      %s\n  parse/decode:    %.1fx\n", perOp(decode, ops).c_str(),
                perOp(parse, ops).c_str(), parse.us / decode.us);
  }
  return 0;
}
