#pragma once
// Running the tilesight executable from the command-line tests.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include <sys/wait.h>

namespace tilesight::clitest {

// Two errors: a type rule (line 3) and an undefined value (line 4).
inline const char* const kBad =
    "cuda_tile.module @m {\n"
    "  entry @k(%n: tile<i32>) {\n"
    "    %c = constant <i32: 1> : tile<3xi32>\n"
    "    %d = addi %n, %undefined : tile<i32>\n"
    "  }\n"
    "}\n";
inline const char* const kGood = "cuda_tile.module @m {\n  entry @k() {\n    return\n  }\n}\n";

struct CliRun {
  int status = -1;  // the exit status; 128 + N when signal N ended it
  std::string out;  // stdout, with stderr unless run apart
  std::string err;  // stderr, when run apart
};

// Tests run in parallel: every file a test writes carries the test's name.
inline std::string tempPath(const std::string& name) {
  return ::testing::TempDir() + ::testing::UnitTest::GetInstance()->current_test_info()->name() + "_" + name;
}

inline std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

struct RunOptions {
  bool separateStderr = false;
  int timeoutSeconds = 0;  // killed after this long (0: never)
};

// Runs the executable in the folder `workingDir` (empty: here).
inline CliRun runIn(const std::string& workingDir, const std::string& args, const std::string& stdinText = "",
                    RunOptions o = {}) {
  std::string in = tempPath("stdin.txt"), err = tempPath("stderr.txt");
  std::ofstream(in, std::ios::binary) << stdinText;
  std::string cmd = (workingDir.empty() ? "" : "cd '" + workingDir + "' && ") +
                    (o.timeoutSeconds ? "timeout -s KILL " + std::to_string(o.timeoutSeconds) + " " : "") +
                    std::string(TILESIGHT_BINARY) + " " + args + " < " + in +
                    (o.separateStderr ? " 2>" + err : " 2>&1");
  CliRun r;
  FILE* p = popen(cmd.c_str(), "r");
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
  int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  if (o.separateStderr) r.err = readFile(err);
  return r;
}

inline CliRun run(const std::string& args, const std::string& stdinText = "", RunOptions o = {}) {
  return runIn("", args, stdinText, o);
}

inline std::string write(const std::string& name, const std::string& text) {
  std::string path = tempPath(name);
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

}  // namespace tilesight::clitest
