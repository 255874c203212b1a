// Starting and watching a child program (child_process.h): posix_spawn with
// three pipes, one poll loop that feeds standard input and drains the outputs
// (so neither side blocks on a full pipe), and the cancel flag looked at
// every 50 ms.
#include "server/lsp/child_process.h"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <string_view>

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace tilesight::lsp {

namespace {

constexpr int kPollMs = 50;
constexpr std::chrono::seconds kKillAfter(1);

struct Pipe {
  int fd[2] = {-1, -1};
  bool open() { return ::pipe2(fd, O_CLOEXEC) == 0; }
  void close(int i) {
    if (fd[i] >= 0)
      ::close(fd[i]);
    fd[i] = -1;
  }
  ~Pipe() {
    close(0);
    close(1);
  }
};

// Hands each complete line of `pending` to `onLine`, keeping what it declines.
void takeLines(std::string &pending, std::string &kept, const std::function<bool(const std::string &)> &onLine,
               bool atEnd) {
  size_t start = 0;
  for (size_t nl; (nl = pending.find('\n', start)) != std::string::npos; start = nl + 1) {
    std::string line = pending.substr(start, nl - start);
    if (!onLine(line))
      kept += line + "\n";
  }
  pending.erase(0, start);
  if (atEnd && !pending.empty()) {
    if (!onLine(pending))
      kept += pending;
    pending.clear();
  }
}

// A child that exits without reading all its input makes the write fail
// with EPIPE and raise SIGPIPE at the writing thread: it is held while the
// child runs and dropped here, never delivered (it would end the process).
class HeldSigpipe {
public:
  HeldSigpipe() {
    sigemptyset(&pipe_);
    sigaddset(&pipe_, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_, &old_);
  }
  ~HeldSigpipe() {
    timespec zero{0, 0};
    while (sigtimedwait(&pipe_, nullptr, &zero) > 0) {
    }
    pthread_sigmask(SIG_SETMASK, &old_, nullptr);
  }

private:
  sigset_t pipe_, old_;
};

} // namespace

ChildResult runChild(const std::vector<std::string> &argv, const std::string &cwd, const std::string &input,
                     const std::function<bool(const std::string &)> &onErrLine, const std::atomic<bool> &cancel,
                     const std::vector<std::string> &env, const std::function<void(std::string_view)> &onOut,
                     std::optional<std::chrono::seconds> limit) {
  ChildResult r;
  HeldSigpipe held;
  Pipe in, out, err;
  if (!in.open() || !out.open() || !err.open())
    return r.startError = std::string("pipe: ") + std::strerror(errno), r;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in.fd[0], 0);
  posix_spawn_file_actions_adddup2(&actions, out.fd[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err.fd[1], 2);
  // Nothing else of the server's (the editor's connection above all) goes along.
  posix_spawn_file_actions_addclosefrom_np(&actions, 3);
  if (!cwd.empty())
    posix_spawn_file_actions_addchdir_np(&actions, cwd.c_str());
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK);
  posix_spawnattr_setpgroup(&attr, 0);
  sigset_t none;
  sigemptyset(&none);
  posix_spawnattr_setsigmask(&attr, &none);
  std::vector<char *> args;
  for (const std::string &a : argv)
    args.push_back(const_cast<char *>(a.c_str()));
  args.push_back(nullptr);
  std::vector<std::string> environment;
  for (char **e = environ; *e; ++e) {
    std::string_view var(*e);
    bool replaced = false;
    for (const std::string &set : env)
      replaced |= var.substr(0, var.find('=') + 1) == std::string_view(set).substr(0, set.find('=') + 1);
    if (!replaced)
      environment.emplace_back(var);
  }
  environment.insert(environment.end(), env.begin(), env.end());
  std::vector<char *> envp;
  for (std::string &e : environment)
    envp.push_back(e.data());
  envp.push_back(nullptr);
  pid_t pid = 0;
  int spawned = posix_spawn(&pid, argv[0].c_str(), &actions, &attr, args.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  if (spawned != 0) {
    bool folder = !cwd.empty() && ::access(cwd.c_str(), X_OK) != 0;
    return r.startError = folder ? "cannot enter the folder " + cwd + ": " + std::strerror(errno)
                                 : "cannot start " + argv[0] + ": " + std::strerror(spawned),
           r;
  }
  in.close(0), out.close(1), err.close(1);
  ::fcntl(in.fd[1], F_SETFL, O_NONBLOCK);
  if (input.empty())
    in.close(1);

  size_t written = 0;
  std::string pendingErr;
  bool killed = false;
  auto termAt = std::chrono::steady_clock::time_point::max();
  auto started = std::chrono::steady_clock::now();
  while (out.fd[0] >= 0 || err.fd[0] >= 0) {
    if (limit && !r.cancelled && std::chrono::steady_clock::now() - started > *limit)
      r.timedOut = true;
    if ((cancel.load() || r.timedOut) && !r.cancelled) {
      r.cancelled = true;
      ::kill(-pid, SIGTERM);
      termAt = std::chrono::steady_clock::now();
      in.close(1);
    }
    if (r.cancelled && !killed && std::chrono::steady_clock::now() - termAt > kKillAfter) {
      ::kill(-pid, SIGKILL);
      killed = true;
    }
    pollfd fds[3] = {{out.fd[0], POLLIN, 0}, {err.fd[0], POLLIN, 0}, {in.fd[1], POLLOUT, 0}};
    if (::poll(fds, 3, kPollMs) < 0 && errno != EINTR)
      break;
    char buf[65536];
    for (int k = 0; k < 2; ++k) {
      Pipe &p = k == 0 ? out : err;
      if (p.fd[0] < 0 || !(fds[k].revents & (POLLIN | POLLHUP | POLLERR)))
        continue;
      ssize_t n = ::read(p.fd[0], buf, sizeof buf);
      if (n <= 0) {
        p.close(0);
        continue;
      }
      if (k == 0 && onOut)
        onOut(std::string_view(buf, static_cast<size_t>(n)));
      else if (k == 0)
        r.out.append(buf, static_cast<size_t>(n));
      else
        pendingErr.append(buf, static_cast<size_t>(n)), takeLines(pendingErr, r.err, onErrLine, false);
    }
    if (in.fd[1] >= 0 && (fds[2].revents & (POLLOUT | POLLERR | POLLHUP))) {
      ssize_t n = ::write(in.fd[1], input.data() + written, input.size() - written);
      if (n < 0 && errno != EAGAIN)
        in.close(1);
      else if (n > 0 && (written += static_cast<size_t>(n)) == input.size())
        in.close(1);
    }
  }
  takeLines(pendingErr, r.err, onErrLine, true);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status))
    r.exitCode = WEXITSTATUS(status);
  else if (WIFSIGNALED(status))
    r.signal = WTERMSIG(status);
  return r;
}

} // namespace tilesight::lsp
