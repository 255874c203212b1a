// What the server makes of `tilesight run`'s answers (run_session.h), with
// stand-ins for the executable: a compiler's failure (exit 3), a usage error
// about the directive's options (exit 2), a crash, progress lines and
// findings; and the real executable for a cancel.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include <unistd.h>

#include "server/lsp/jsonrpc.h"
#include "server/lsp/run_session.h"

namespace tilesight::lsp {
namespace {

// The stand-ins' folder, removed when the tests end.
struct StandInFolder {
  std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("tilesight-run-session-test-" + std::to_string(::getpid()));
  ~StandInFolder() {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
};

// A shell script that stands in for `tilesight`: `body` runs with the
// arguments the server passes.
std::string standIn(const std::string &name, const std::string &body) {
  static StandInFolder folder;
  std::filesystem::path dir = folder.path;
  std::filesystem::create_directories(dir);
  std::filesystem::path file = dir / name;
  std::ofstream(file) << "#!/bin/sh\n" << body << "\n";
  std::filesystem::permissions(file, std::filesystem::perms::owner_all);
  return file.string();
}

RunSpec spec(const std::string &text) {
  RunSpec s;
  s.uri = "file:///tmp/k.tile";
  s.text = std::make_shared<const SourceText>(text);
  s.entry = "k";
  s.device = "opencl:0";
  s.run.directive = Range{0, 20};
  s.folder = std::filesystem::temp_directory_path().string();
  return s;
}

RunOutcome run(const std::string &exe, const RunSpec &s, std::vector<std::string> *stages = nullptr) {
  std::atomic<bool> cancel{false};
  return executeRun(exe, s, [&](const std::string &stage) { if (stages) stages->push_back(stage); }, cancel);
}

TEST(RunSession, ACompilerFailureIsTheErrorWithItsLog) {
  std::string exe = standIn("compile-fails", "echo 'tilesight-progress: analyze' >&2\n"
                                             "echo 'tilesight-progress: compile' >&2\n"
                                             "echo \"tilesight run: opencl:0: clBuildProgram failed: <kernel>:3:1: "
                                             "error: use of undeclared identifier 'x'\" >&2\nexit 3");
  std::vector<std::string> stages;
  RunOutcome o = run(exe, spec("// tilesight-run: --grid 2\n"), &stages);
  EXPECT_EQ(o.errorCode, error_code::RequestFailed);
  EXPECT_EQ(o.errorMessage, "tilesight run: opencl:0: clBuildProgram failed: <kernel>:3:1: error: use of undeclared "
                            "identifier 'x'");
  EXPECT_EQ(stages, (std::vector<std::string>{"analyze", "compile"}));
  EXPECT_FALSE(o.directiveProblem);  // not the options' fault
}

TEST(RunSession, AUsageErrorIsAlsoShownAtTheDirective) {
  std::string exe = standIn("usage", "echo 'tilesight run: pointer argument %b has no --arg (f32)' >&2\nexit 2");
  RunOutcome o = run(exe, spec("// tilesight-run: --grid 2\n"));
  EXPECT_EQ(o.errorCode, error_code::RequestFailed);
  ASSERT_TRUE(o.directiveProblem);
  EXPECT_EQ(o.directiveProblem->code, "run.directive");
  EXPECT_EQ(o.directiveProblem->message, "pointer argument %b has no --arg (f32)");
  EXPECT_EQ(o.directiveProblem->range.end, 20u);
}

TEST(RunSession, ACrashOrNoReportIsAnError) {
  RunOutcome crashed = run(standIn("crash", "kill -SEGV $$"), spec(""));
  EXPECT_EQ(crashed.errorCode, error_code::RequestFailed);
  EXPECT_EQ(crashed.errorMessage, "tilesight run: ended by signal 11");
  RunOutcome garbled = run(standIn("garbled", "echo not json; exit 0"), spec(""));
  EXPECT_EQ(garbled.errorCode, error_code::RequestFailed);
  RunOutcome missing = run("/nonexistent/tilesight", spec(""));
  EXPECT_EQ(missing.errorCode, error_code::RequestFailed);
  EXPECT_NE(missing.errorMessage.find("cannot start /nonexistent/tilesight"), std::string::npos);
}

TEST(RunSession, AChildThatReadsNoInputDoesNotEndTheServer) {
  // Writing 4 MiB to a child that has exited fails with EPIPE and raises
  // SIGPIPE, which must not reach this process (the test binary does not
  // ignore it, as `tilesight lsp` does).
  RunOutcome o = run(standIn("reads-nothing", "exit 0"), spec(std::string(4 << 20, '\n')));
  EXPECT_EQ(o.errorCode, error_code::RequestFailed);
  EXPECT_EQ(o.errorMessage, "tilesight run: exit status 0");
}

TEST(RunSession, FindingsLandOnTheirLinesAndTheReportShowsTheFigures) {
  std::string exe = standIn(
      "finds", R"(cat >/dev/null
cat <<'EOF'
{"device":"opencl:0","device_name":"pthread","entry":"@k","grid":[5,1,1],"compile_ms":12.5,"run_ms":0.25,"printed":"hi\n",
 "outputs":[{"name":"c","shape":[64],"dtype":"f32","min":-1.0,"max":2.5,"mean":0.125,"preview":[1.0,"nan"],"max_error":0.0}],
 "diagnostics":[{"line":2,"column":3,"endLine":2,"endColumn":9,"severity":"error","code":"bounds.index",
   "message":"tile block (4, 0, 0): index (4) is outside","notes":[{"line":1,"column":1,"message":"here"}]}]}
EOF
exit 1)");
  RunOutcome o = run(exe, spec("// tilesight-run: --grid 5\n  load_view\n"));
  ASSERT_EQ(o.errorCode, 0) << o.errorMessage;
  ASSERT_EQ(o.findings.size(), 1u);
  EXPECT_EQ(o.findings[0].range.begin, 29u);  // line 2, column 3
  EXPECT_EQ(o.findings[0].range.end, 35u);
  EXPECT_EQ(o.findings[0].notes[0].range.begin, 0u);
  EXPECT_EQ(o.result["exitCode"], 1);
  std::string report = o.result["report"];
  EXPECT_NE(report.find("### tilesight run: `k` on opencl:0"), std::string::npos) << report;
  EXPECT_NE(report.find("| compile | 12.5 ms |"), std::string::npos) << report;
  EXPECT_NE(report.find("| c | 64 | f32 | -1 | 2.5 | 0.125 | 0 | 1, nan |"), std::string::npos) << report;
  EXPECT_NE(report.find("```text\nhi\n```"), std::string::npos) << report;
  EXPECT_NE(report.find("1 finding(s) of the run"), std::string::npos) << report;
}

TEST(RunSession, FilesStayInsideTheFolderOnceLinksAreFollowed) {
  namespace fs = std::filesystem;
  fs::path root = fs::temp_directory_path() / ("tilesight-run-files-" + std::to_string(::getpid()));
  fs::create_directories(root / "in");
  std::ofstream(root / "in" / "a.npy") << "x";
  std::ofstream(root.string() + "-outside.npy") << "secret";
  fs::create_symlink(root.string() + "-outside.npy", root / "link.npy");
  auto problem = [&](const std::string &options, const std::string &folder) {
    return runFilesProblem(folder, parseRunConfig(options).config);
  };
  std::string dir = root.string();
  EXPECT_EQ(problem("--arg a=@in/a.npy --out c=out.npy", dir), "");
  EXPECT_EQ(problem("--arg a=rand:4:f32", ""), "");  // no files: no folder needed
  EXPECT_EQ(problem("--out c=c.npy", ""),
            "the run reads or writes files, which are relative to the file's folder: save the file first");
  EXPECT_EQ(problem("--out c=link.npy", dir),
            "--out link.npy is a symbolic link: a run writes only files inside the file's folder");
  EXPECT_EQ(problem("--arg a=@link.npy", dir).substr(0, 53), "--arg @link.npy leads outside the file's folder (to /");
  fs::remove_all(root);
  fs::remove(root.string() + "-outside.npy");
}

TEST(RunSession, CancelEndsTheProcessGroup) {
  // The stand-in starts a child of its own that would outlive a plain kill.
  std::string exe = standIn("sleeps", "sleep 30 & sleep 30");
  std::atomic<bool> cancel{false};
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    cancel = true;
  });
  auto start = std::chrono::steady_clock::now();
  RunOutcome o = executeRun(exe, spec(""), [](const std::string &) {}, cancel);
  canceller.join();
  EXPECT_EQ(o.errorCode, error_code::RequestCancelled);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

} // namespace
} // namespace tilesight::lsp
