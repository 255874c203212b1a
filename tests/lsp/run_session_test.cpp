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
#include "server/lsp/printed_cap.h"
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
  // A second name of the outside file, inside the folder: writing it would
  // change the outside file.
  fs::create_hard_link(root.string() + "-outside.npy", root / "hard.npy");
  EXPECT_EQ(problem("--out c=hard.npy", dir),
            "--out hard.npy has 2 hard links: writing it would change the file under its other names too, which may "
            "lie outside the file's folder; remove the other links or name another output");
  EXPECT_EQ(problem("--out c=in/a.npy", dir), "");  // one name: written in place
  fs::remove_all(root);
  fs::remove(root.string() + "-outside.npy");
}

TEST(RunSession, PrintedTextIsCappedAndSentOnce) {
  // 3,000,000 bytes printed: the report shows the first 2 MiB and says how
  // many bytes were left out; `run` no longer carries the text.
  std::string exe = standIn("prints-much", R"(cat >/dev/null
printf '{"device":"cpu","entry":"@k","grid":[1,1,1],"outputs":[],"diagnostics":[],"printed":"'
head -c 3000000 /dev/zero | tr '\0' 'x'
printf '","run_ms":0.5}\n')");
  RunOutcome o = run(exe, spec(""));
  ASSERT_EQ(o.errorCode, 0) << o.errorMessage;
  EXPECT_EQ(o.result["printed_dropped"], 3000000 - kPrintedCapBytes);
  EXPECT_FALSE(o.result["run"].contains("printed"));
  EXPECT_EQ(o.result["run"]["run_ms"], 0.5);  // what follows the text is read
  std::string report = o.result["report"];
  EXPECT_NE(report.find("Printed (the first 2097152 bytes; 902848 more left out: the server keeps at most 2 MiB of a "
                        "run's printed text):\n\n```text\n" + std::string(kPrintedCapBytes, 'x') + "\n```"),
            std::string::npos);
  EXPECT_LT(o.result.dump().size(), kPrintedCapBytes + 4096);  // the text once
}

// The JSON with its printed text cut to `cap` bytes, fed whole and a byte at
// a time (the two must agree).
std::pair<std::string, uint64_t> capped(std::string_view json, size_t cap) {
  PrintedCap whole(cap), bytes(cap);
  whole.feed(json);
  for (char c : json)
    bytes.feed(std::string_view(&c, 1));
  EXPECT_EQ(whole.text(), bytes.text());
  EXPECT_EQ(whole.dropped(), bytes.dropped());
  return {whole.text(), whole.dropped()};
}

TEST(PrintedCap, CutsOnlyTheTopLevelPrintedStringBetweenCharacters) {
  // Other strings, nested "printed" keys and a "printed" value elsewhere
  // pass unchanged.
  std::string other = R"({"a":"printed","o":{"printed":"abcdef"},"l":["printed","x"],"printed":"abcdef","z":"abcdef"})";
  EXPECT_EQ(capped(other, 3),
            std::make_pair(std::string(R"({"a":"printed","o":{"printed":"abcdef"},"l":["printed","x"],"printed":"abc","z":"abcdef"})"),
                           uint64_t{3}));
  // An escape is one unit, kept or dropped whole; so is a UTF-8 character
  // (é is two bytes, counted two); an escaped quote does not end the text.
  EXPECT_EQ(capped(R"({"printed" : "a\n\u0001\"b"})", 2), std::make_pair(std::string(R"({"printed" : "a\n"})"), uint64_t{3}));
  EXPECT_EQ(capped("{\"printed\":\"a\xc3\xa9" "b\"}", 2), std::make_pair(std::string("{\"printed\":\"a\xc3\xa9\"}"), uint64_t{1}));
  EXPECT_EQ(capped(R"({"printed":"ab"})", 2), std::make_pair(std::string(R"({"printed":"ab"})"), uint64_t{0}));
  // Not a string: nothing to cut, and the next string is not taken for it.
  EXPECT_EQ(capped(R"({"printed":null,"b":"abcdef"})", 1).first, R"({"printed":null,"b":"abcdef"})");
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
