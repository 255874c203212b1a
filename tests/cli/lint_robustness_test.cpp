// A hostile test of `check --fix`, `.tilesight.toml` and `emit` (issue 33):
// a failed write, a byte-order mark, exponential globs, an unreadable
// sub-folder, emitted chunks that define a kernel twice, and two messages.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/cli/cli_util.h"

using namespace tilesight::clitest;
namespace fs = std::filesystem;

namespace {

const std::string kBom = "\xEF\xBB\xBF";

std::string folder(const std::string& name) {
  std::string dir = tempPath(name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

void put(const std::string& path, const std::string& text) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

// Runs a shell command line; its exit status and what it printed (stderr too).
CliRun shell(const std::string& command) {
  CliRun r;
  FILE* p = popen((command + " 2>&1").c_str(), "r");
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  return r;
}

std::vector<std::string> reportedFiles(const std::string& jsonText) {
  std::vector<std::string> files;
  nlohmann::json report = nlohmann::json::parse(jsonText);
  for (const auto& d : report["diagnostics"])
    if (files.empty() || files.back() != d["file"]) files.push_back(d["file"]);
  return files;
}

// A program with one unused suppression (the fix removes it), padded with
// comment lines to `bytes`.
std::string fixableProgram(size_t bytes) {
  std::string text = "cuda_tile.module @m {\n  entry @k() {\n    return  // tilesight: ignore race\n  }\n}\n";
  while (text.size() < bytes) text += "// padding padding padding padding padding padding padding padding\n";
  return text;
}

// --- check --fix writes the whole file or nothing -------------------------

// A write that fails half way (a full disk) truncated the file. The failure
// here is a real one, not a simulated path: the file size limit of the shell
// (`ulimit -f`, which binds root too) is below the file's size, and SIGXFSZ is
// ignored so that write() returns EFBIG, as it returns ENOSPC on a full disk.
TEST(FixRobustness, AFailedWriteLeavesTheFileWhole) {
  std::string dir = folder("limit");
  std::string file = dir + "/big.tile";
  std::string text = fixableProgram(64 * 1024);
  put(file, text);
  CliRun r = shell("ulimit -f 8; trap '' XFSZ; exec " + std::string(TILESIGHT_BINARY) + " check --fix " + file);
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("cannot write the fixes to '" + file + "': File too large (the file is unchanged)"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(readFile(file), text);  // whole: not a byte lost
  size_t entries = 0;
  for (const auto& e : fs::directory_iterator(dir)) entries += !e.path().empty();
  EXPECT_EQ(entries, 1u) << "the temporary file was left behind";
}

// The fixed file keeps its permissions, and a symbolic link stays a link to
// the fixed file.
TEST(FixRobustness, KeepsPermissionsAndLinks) {
  std::string dir = folder("perms");
  std::string file = dir + "/k.tile", link = dir + "/link.tile";
  put(file, fixableProgram(0));
  fs::permissions(file, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  fs::create_symlink("k.tile", link);
  CliRun r = run("check --fix " + link, "", {.separateStderr = true});
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_EQ(r.err, "1 fix applied\n");
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(readFile(file).find("tilesight: ignore"), std::string::npos) << readFile(file);
  EXPECT_EQ(fs::status(file).permissions(), fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
}

// "2 fixs applied".
TEST(FixRobustness, SummarySaysFixes) {
  std::string text = "cuda_tile.module @m {\n  entry @k() {\n    // tilesight: ignore race\n    return  "
                     "// tilesight: ignore bounds\n  }\n}\n";
  CliRun r = run("check --fix " + write("two.tile", text), "", {.separateStderr = true});
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_EQ(r.err, "2 fixes applied\n");
}

// --- a UTF-8 byte-order mark ----------------------------------------------

// The mark made the whole file one syntax error; it is no part of the
// program now, and the first line's columns are counted after it.
TEST(BomRobustness, AcceptedWithColumnsAsEditorsShowThem) {
  std::string text = kBom + "cuda_tile.module @m {  // tilesight: ignore race\n  entry @k() {\n    return\n  }\n}\n";
  std::string file = write("bom.tile", text);
  CliRun plain = run("check " + file, "", {.separateStderr = true});
  EXPECT_EQ(plain.status, 0) << plain.out;
  EXPECT_NE(plain.out.find(file + ":1:24: warning: this suppression silences no diagnostic"), std::string::npos)
      << plain.out;
  EXPECT_NE(plain.out.find("\ncuda_tile.module @m {  // tilesight"), std::string::npos) << plain.out;
  EXPECT_EQ(plain.out.find(kBom), std::string::npos) << plain.out;  // the quoted line, without the mark
  auto json = nlohmann::json::parse(run("check --format=json " + file).out)["diagnostics"];
  ASSERT_EQ(json.size(), 1u) << json.dump(1);
  EXPECT_EQ(json[0]["column"], 24);
  auto sarif = nlohmann::json::parse(run("check --format=sarif " + file).out);
  EXPECT_EQ(sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startColumn"], 24);
  // --fix removes the suppression and keeps the mark.
  EXPECT_EQ(run("check --fix " + file).status, 0);
  EXPECT_EQ(readFile(file), kBom + "cuda_tile.module @m {\n  entry @k() {\n    return\n  }\n}\n");
}

// With the mark, --fix deleted a suppression that was in use: the analysis
// had failed, so it silenced nothing.
TEST(BomRobustness, FixKeepsAUsedSuppression) {
  std::string text = kBad;
  text.replace(text.find("tile<3xi32>\n"), 12, "tile<3xi32>  // tilesight: ignore type\n");
  std::string file = write("used.tile", kBom + text);
  CliRun r = run("check --fix " + file);
  EXPECT_EQ(r.status, 1) << r.out;  // the undefined value is left
  EXPECT_EQ(readFile(file), kBom + text);
  EXPECT_EQ(r.out.find("type"), std::string::npos) << r.out;
}

// A syntax error that makes the parser skip text hides what the checks would
// have found there: no suppression is called unused, so --fix removes none.
TEST(BomRobustness, NoSuppressionRemovedWhenTheParseFailed) {
  std::string text = "cuda_tile.module @m {\n  entry @k() {\n"
                     "    %c = constant <i32: 1> : tile<3xi32  // tilesight: ignore type\n"
                     "    return\n  }\n}\n";
  std::string file = write("broken.tile", text);
  CliRun report = run("check " + file);
  EXPECT_EQ(report.status, 1) << report.out;
  EXPECT_EQ(report.out.find("suppression.unused"), std::string::npos) << report.out;
  // The one fix inserts the '>'; the suppression then silences the type error it was written for.
  CliRun r = run("check --fix " + file, "", {.separateStderr = true});
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(readFile(file).find("tile<3xi32>  // tilesight: ignore type\n"), std::string::npos) << readFile(file);
}

// --- exclude globs ---------------------------------------------------------

// Eight stars against a 60-character name took over a minute (backtracking
// at every star); the matching is polynomial now.
TEST(GlobRobustness, ManyStarsMatchFast) {
  std::string dir = folder("stars");
  std::string name = std::string(60, 'a');
  put(dir + "/" + name + ".tile", kBad);
  put(dir + "/.tilesight.toml", "[check]\nexclude = [\"*a*a*a*a*a*a*a*a*a*a*a*a*b\"]\n");
  auto start = std::chrono::steady_clock::now();
  CliRun r = run("check --format=json " + dir, "", {.separateStderr = true, .timeoutSeconds = 60});
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(r.status, 1) << r.err;  // not excluded: the name has no 'b'
  EXPECT_EQ(reportedFiles(r.out), std::vector<std::string>{dir + "/" + name + ".tile"});
  EXPECT_LT(seconds, 10.0);
}

// `*` stays within a segment, `**` crosses them, a trailing `/` is a folder
// (and so everything below it) and never a file.
TEST(GlobRobustness, SegmentsDoubleStarsAndFolders) {
  std::string dir = folder("segments");
  for (const char* f : {"top/a.tile", "top/in/b.tile", "x/y/gen/c.tile", "gen/d.tile", "sub/e.tile", "f.tile",
                        "keep/sub/g.tile"})
    put(dir + "/" + f, kBad);
  put(dir + "/.tilesight.toml", "[check]\nexclude = [\"top/*.tile\", \"**/gen\", \"sub/\", \"f.tile/\"]\n");
  CliRun r = run("check --format=json " + dir, "", {.separateStderr = true});
  EXPECT_EQ(reportedFiles(r.out),
            (std::vector<std::string>{dir + "/f.tile", dir + "/keep/sub/g.tile", dir + "/top/in/b.tile"}))
      << r.out << r.err;
  put(dir + "/.tilesight.toml", "[check]\nexclude = [\"a[b\"]\n");
  CliRun bad = run("check " + dir, "", {.separateStderr = true});
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("`exclude`: 'a[b': the '[' at 2 is not closed by a ']' in its segment"), std::string::npos)
      << bad.err;
}

// --- an unreadable sub-folder ----------------------------------------------

// A chain of folders whose path outgrows PATH_MAX: the folders exist, but no
// path names the deepest ones, so they cannot be listed by anyone, root
// included (chmod 000 does not stop root). Made and removed through folder
// descriptors, which need no long path.
class DeepFolders {
public:
  DeepFolders(const std::string& root, int depth) : name_(200, 'd') {
    fs::create_directories(root);
    fds_.push_back(open(root.c_str(), O_DIRECTORY | O_RDONLY));
    for (int i = 0; i < depth && fds_.back() >= 0; ++i) {
      mkdirat(fds_.back(), name_.c_str(), 0755);
      fds_.push_back(openat(fds_.back(), name_.c_str(), O_DIRECTORY | O_RDONLY));
    }
    int f = openat(fds_.back(), "deep.tile", O_CREAT | O_WRONLY | O_TRUNC, 0644);
    if (f >= 0) {
      ssize_t n = ::write(f, kGood, std::char_traits<char>::length(kGood));
      close(f);
      made_ = n > 0;
    }
  }
  ~DeepFolders() {
    unlinkat(fds_.back(), "deep.tile", 0);
    for (size_t i = fds_.size() - 1; i > 0; --i) {
      close(fds_[i]);
      unlinkat(fds_[i - 1], name_.c_str(), AT_REMOVEDIR);
    }
    close(fds_[0]);
  }
  bool made() const { return made_; }

private:
  std::string name_;
  std::vector<int> fds_;
  bool made_ = false;
};

TEST(WalkRobustness, AnUnreadableSubFolderIsReported) {
  std::string dir = folder("deep");
  put(dir + "/ok.tile", kGood);
  DeepFolders deep(dir + "/long", 25);  // 25 x 201 bytes: past PATH_MAX (4096)
  ASSERT_TRUE(deep.made());
  CliRun text = run("check " + dir, "", {.separateStderr = true});
  EXPECT_EQ(text.status, 2) << text.err;
  EXPECT_NE(text.err.find("cannot read '" + dir + "/long/ddd"), std::string::npos) << text.err.substr(0, 300);
  EXPECT_NE(text.err.find("File name too long"), std::string::npos) << text.err.substr(0, 300);
  CliRun sarif = run("check --format=sarif " + dir, "", {.separateStderr = true});
  EXPECT_EQ(sarif.status, 2);
  auto invocation = nlohmann::json::parse(sarif.out)["runs"][0]["invocations"][0];
  EXPECT_EQ(invocation["executionSuccessful"], false) << invocation.dump(1);
}

// --- config messages -------------------------------------------------------

// `grid = true` said "not ''": the message names the kind given.
TEST(ConfigRobustness, WrongKindsAreNamed) {
  std::string dir = folder("kinds");
  put(dir + "/k.tile", kGood);
  struct Case {
    const char* text;
    const char* says;
  } cases[] = {
      {"[check]\ngrid = true\n", "`grid` wants a list of 1 to 3 positive integers, e.g. [8, 4, 1], or a string "
                                 "\"8,4,1\", not a boolean"},
      {"[check]\ngrid = [8, \"4\"]\n", "this item is a string"},
      {"[check]\nwerror = 1\n", "`werror` wants true or false, not an integer"},
      {"[check]\nexclude = \"gen\"\n", "`exclude` wants a list of strings, not a string"},
  };
  for (const Case& c : cases) {
    put(dir + "/.tilesight.toml", c.text);
    CliRun r = run("check " + dir + "/k.tile", "", {.separateStderr = true});
    EXPECT_EQ(r.status, 2) << c.text;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << c.text << " -> " << r.err;
  }
}

// --- emit of a file of chunks ----------------------------------------------

// Every chunk's entries went into one source: the same kernel defined twice.
TEST(EmitRobustness, OneChunkOfAChunkFile) {
  std::string file = std::string(TILESIGHT_TESTS_DIR) + "/corpus/checks_clean/race_scope.tile";
  CliRun r = run("emit --target cuda " + file, "", {.separateStderr = true});
  EXPECT_EQ(r.status, 0) << r.err;
  size_t kernels = 0;
  for (size_t at = 0; (at = r.out.find("__global__", at)) != std::string::npos; ++at) ++kernels;
  EXPECT_EQ(kernels, 1u) << r.out.substr(0, 2000);
  EXPECT_NE(r.err.find("note: '" + file + "' holds"), std::string::npos) << r.err;
  // --entry takes the first chunk that defines it, as run does.
  CliRun named = run("emit --target cuda --entry k " + file, "", {.separateStderr = true});
  EXPECT_EQ(named.status, 0) << named.err;
  EXPECT_EQ(named.out, r.out);
}

// The measure of the issue: every chunk file of the corpus that emits at all
// gives CUDA that nvcc compiles (44 of the 56 define an entry name twice
// across chunks, and their output failed with "function already defined").
TEST(EmitRobustness, EveryChunkFileOfTheCorpusCompiles) {
  const std::string nvcc = "/usr/local/cuda/bin/nvcc";
  if (!fs::exists(nvcc)) GTEST_SKIP() << "no nvcc at " << nvcc << ": the emitted CUDA cannot be compiled here";
  std::string out = folder("cuda");
  size_t emitted = 0;
  for (const auto& e : fs::recursive_directory_iterator(std::string(TILESIGHT_TESTS_DIR) + "/corpus")) {
    if (e.path().extension() != ".tile" || readFile(e.path()).find("\n// -----") == std::string::npos) continue;
    std::string cu = out + "/" + e.path().stem().string() + "_" + std::to_string(emitted) + ".cu";
    CliRun r = run("emit --target cuda -o " + cu + " " + e.path().string(), "", {.separateStderr = true});
    if (r.status == 0) ++emitted;
    else fs::remove(cu);
  }
  EXPECT_GE(emitted, 40u);
  // Four compilers at a time; each failure prints FAILED and nvcc's message.
  // To PTX only: a kernel defined twice is the front end's error, and
  // codegen.simt_compile already takes every corpus kernel through ptxas.
  CliRun cc = shell("cd " + out + " && ls *.cu | xargs -P 4 -I{} sh -c '" + nvcc +
                    " -arch=compute_90 -ptx -o {}.ptx {} > {}.log 2>&1 || { echo FAILED {}; head -c 400 {}.log; }'");
  EXPECT_EQ(cc.out.find("FAILED"), std::string::npos) << cc.out.substr(0, 3000);
}

}  // namespace
