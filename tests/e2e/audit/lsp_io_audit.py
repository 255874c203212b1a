#!/usr/bin/env python3
"""The language server writes no file and starts no program by itself.

Runs `tilesight lsp` under strace through a session that uses every feature
but run on the shipped examples (open, edits, hover, navigation, symbols,
folding, tokens, hints, completion, code actions, the Run lenses of a
configured run, settings, close, shutdown, exit) and fails if the server
opened a file for writing, created, renamed or removed one, or executed a
program. (Writes to descriptors it did not open for writing, stdout and
stderr, its own event and pipe descriptors, are the protocol and the log.)

Then a run session: the tilesight.run command on a program whose directive
names an input .npy and an output .npy in its folder. The one program
started must be `tilesight run`; of the files under that folder it may open
only the input (to read) and the output (to write), and the output must be
the only file it writes.

Then a cuTile session: a Python file with a launch directive and one without. The one program
started must be the user's Python compiling the first (`-m tilesight_cutile compile FILE --out -
--stdin`); it may write nothing but the empty temporary folder cuTile's compiler makes and removes.

Then a crash: the server is sent SIGSEGV mid-session. It must say so on
stderr and end by that signal within seconds, again without writing a file or
running a program (LLVM's crash handler ran llvm-symbolizer and wrote
temporary files, and could deadlock).

usage: lsp_io_audit.py TILESIGHT REPO_ROOT [--no-crash]   (exit 77 when strace is absent;
       --no-crash for sanitizer builds, where AddressSanitizer handles the signal)
"""
import json
import os
import pathlib
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time


def frame(message: dict) -> bytes:
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def session(root: pathlib.Path) -> tuple[bytes, int]:
    """The client's bytes and how many requests they hold."""
    msgs, ids = [], iter(range(1, 10_000))

    def request(method, params):
        msgs.append({"jsonrpc": "2.0", "id": next(ids), "method": method,
                     "params": params})

    def notify(method, params):
        msgs.append({"jsonrpc": "2.0", "method": method, "params": params})

    # tilesight.run configures every entry: the lenses show, nothing runs.
    request("initialize", {"capabilities": {}, "initializationOptions":
                           {"grid": [4, 2, 1], "logLevel": "verbose",
                            "run": "--grid 8,8,1 --arg a=@a.npy --out c=c.npy"}})
    notify("initialized", {})
    for path in sorted((root / "examples").glob("*.tile")):
        uri = path.resolve().as_uri()
        text = path.read_text(encoding="utf-8")
        doc = {"uri": uri}
        notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "tileir", "version": 1, "text": text}})
        lines = text.split("\n")
        for line in range(0, len(lines), 3):
            for character in (2, 6, 12, 24):
                pos = {"line": line, "character": character}
                for method in ("hover", "definition", "documentHighlight",
                               "completion"):
                    request("textDocument/" + method,
                            {"textDocument": doc, "position": pos})
                request("textDocument/references", {
                    "textDocument": doc, "position": pos,
                    "context": {"includeDeclaration": True}})
        whole = {"start": {"line": 0, "character": 0},
                 "end": {"line": len(lines), "character": 0}}
        for method in ("documentSymbol", "foldingRange", "semanticTokens/full", "codeLens"):
            request("textDocument/" + method, {"textDocument": doc})
        request("textDocument/inlayHint", {"textDocument": doc, "range": whole})
        request("textDocument/codeAction", {
            "textDocument": doc, "range": whole, "context": {"diagnostics": []}})
        notify("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": 2},
            "contentChanges": [{"range": {"start": {"line": 1, "character": 0},
                                          "end": {"line": 1, "character": 0}},
                                "text": "  // edited\n"}]})
        request("textDocument/hover", {"textDocument": doc,
                                       "position": {"line": 2, "character": 4}})
        notify("workspace/didChangeConfiguration",
               {"settings": {"tilesight": {"checks": ["layout"]}}})
        notify("textDocument/didClose", {"textDocument": doc})
    request("shutdown", None)
    notify("exit", None)
    requests = sum(1 for m in msgs if "id" in m)
    return b"".join(frame(m) for m in msgs), requests


# A write-mode open, a path being made or removed, a program being run.
FORBIDDEN = re.compile(
    r"\b(open|openat|openat2|creat)\(.*(O_WRONLY|O_RDWR|O_CREAT|O_TRUNC)"
    r"|\b(unlink|unlinkat|rename|renameat2?|mkdir|mkdirat|rmdir|link|linkat|"
    r"symlink|symlinkat|truncate|ftruncate|chmod|fchmodat)\("
    r"|\b(execve|execveat)\(")


def traced_env() -> dict:
    """LeakSanitizer cannot run under ptrace: in a sanitizer build the traced
    server runs without it (the in-process LSP tests check for leaks)."""
    env = dict(os.environ)
    env["ASAN_OPTIONS"] = ":".join(filter(None, [env.get("ASAN_OPTIONS"), "detect_leaks=0"]))
    return env


def server_pid(tracer: subprocess.Popen) -> int:
    """The pid of strace's child, the server (found by its parent pid)."""
    for _ in range(100):
        for entry in pathlib.Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            # pid (comm) state ppid ...: comm may hold spaces, so read after ')'
            if int(stat.rsplit(")", 1)[1].split()[1]) == tracer.pid:
                return int(entry.name)
        time.sleep(0.05)
    raise RuntimeError("strace started no server")


def crash_session(strace: str, tilesight: str, tmp: pathlib.Path) -> list:
    """Problems when the server is made to crash mid-session under strace."""
    trace = tmp / "crash-trace"
    tracer = subprocess.Popen(
        [strace, "-f", "-qq", "-o", str(trace), "-e",
         "trace=%file,%desc,%process,%network", tilesight, "lsp"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        cwd=tmp)
    tracer.stdin.write(frame({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                              "params": {"capabilities": {}}}))
    tracer.stdin.flush()
    first = tracer.stdout.read1(4096)  # the initialize answer: it is serving
    os.kill(server_pid(tracer), signal.SIGSEGV)
    problems = []
    try:
        _, err = tracer.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        tracer.kill()
        return ["the crashed server did not exit within 10 s"]
    lines = trace.read_text().splitlines()
    started = [l for l in lines if re.search(r"\bexecve\(", l)]
    bad = [l for l in lines if FORBIDDEN.search(l) and l not in started[:1]]
    ended = any("+++ killed by SIGSEGV" in l for l in lines)
    print(f"crash: {len(lines)} system calls traced; ended by SIGSEGV: {ended}")
    if b'"id":1' not in first:
        problems.append(f"no initialize answer before the crash: {first[:200]!r}")
    if not ended:
        problems.append("the server did not end by SIGSEGV: " + " | ".join(lines[-3:]))
    if b"internal error: SIGSEGV" not in err:
        problems.append(f"no crash message on stderr: {err[-300:]!r}")
    problems += [f"forbidden system call after a crash: {l}" for l in bad[:20]]
    return problems


RUN_PROGRAM = """// tilesight-run: --grid 4 --arg a=@in/a.npy --arg b=zeros:64:f32 --out b=out/b.npy
cuda_tile.module @m {
  entry @copy(%a: tile<ptr<f32>>, %b: tile<ptr<f32>>) {
    %tok = make_token : token
    %at = make_tensor_view %a, shape = [64], strides = [1] : tensor_view<64xf32, strides=[1]>
    %bt = make_tensor_view %b, shape = [64], strides = [1] : tensor_view<64xf32, strides=[1]>
    %bid, %b1, %b2 = get_tile_block_id : tile<i32>
    %ap = make_partition_view %at : partition_view<tile=(16), tensor_view<64xf32, strides=[1]>>
    %bp = make_partition_view %bt : partition_view<tile=(16), tensor_view<64xf32, strides=[1]>>
    %x, %t1 = load_view_tko weak %ap[%bid] token = %tok : partition_view<tile=(16), tensor_view<64xf32, strides=[1]>>, tile<i32> -> tile<16xf32>, token
    %t2 = store_view_tko weak %x, %bp[%bid] token = %tok : tile<16xf32>, partition_view<tile=(16), tensor_view<64xf32, strides=[1]>>, tile<i32> -> token
    return
  }
}
"""


def npy_f32(values) -> bytes:
    """A NumPy .npy file (version 1.0) of float32 values, written by hand."""
    import struct
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d,), }" % len(values)
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    return (b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode()
            + struct.pack("<%df" % len(values), *values))


def read_message(stream) -> dict:
    """One framed message from the server."""
    length = None
    while True:
        line = stream.readline()
        if not line:
            raise EOFError("the server closed its output")
        if line in (b"\r\n", b"\n"):
            break
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    return json.loads(stream.read(length))


def end_session(tracer: subprocess.Popen, send) -> bool:
    """Shutdown and exit; whether the traced server then ended within 60 s (else it is killed)."""
    send({"jsonrpc": "2.0", "id": 3, "method": "shutdown"})
    send({"jsonrpc": "2.0", "method": "exit"})
    try:
        tracer.communicate(timeout=60)
        return True
    except subprocess.TimeoutExpired:
        tracer.kill()
        return False


def run_session(strace: str, tilesight: str, tmp: pathlib.Path) -> list:
    """Problems of a session that runs one entry (the directive's files only)."""
    work = tmp / "work"
    (work / "in").mkdir(parents=True)
    (work / "out").mkdir()
    (work / "in" / "a.npy").write_bytes(npy_f32([float(i) for i in range(64)]))
    program = work / "copy.tile"
    program.write_text(RUN_PROGRAM, encoding="utf-8")
    uri = program.resolve().as_uri()
    trace = tmp / "run-trace"
    tracer = subprocess.Popen(
        [strace, "-f", "-qq", "-o", str(trace), "-e",
         "trace=%file,%desc,%process,%network", tilesight, "lsp"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        cwd=tmp, env=traced_env())

    def send(message):
        tracer.stdin.write(frame(message))
        tracer.stdin.flush()

    send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}})
    send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": uri, "languageId": "tileir", "version": 1, "text": RUN_PROGRAM}}})
    send({"jsonrpc": "2.0", "id": 2, "method": "workspace/executeCommand", "params": {
        "command": "tilesight.run", "arguments": [{"uri": uri, "device": "cpu"}]}})
    reply = None
    while reply is None:
        m = read_message(tracer.stdout)
        if m.get("id") == 2:
            reply = m
    if not end_session(tracer, send):
        return ["the run session's server did not exit within 60 s"]
    problems = []
    if "result" not in reply or reply["result"].get("exitCode") != 0:
        problems.append(f"the run did not succeed: {json.dumps(reply)[:500]}")
    lines = trace.read_text().splitlines()
    started = [l for l in lines if re.search(r"\bexecve\(", l) and "= -1" not in l]
    runs = [l for l in started[1:] if '"run", "-"' in l]
    if len(started) != 2 or len(runs) != 1:
        problems.append("programs started besides the server: " + " | ".join(started[1:]))
    inside = str(work.resolve())
    allowed_read, allowed_write = str(work / "in" / "a.npy"), str(work / "out" / "b.npy")
    for l in lines:
        m = re.search(r'\b(?:open|openat|creat)\((?:AT_FDCWD, )?"([^"]*)"', l)
        path = m and m.group(1)
        if path and not path.startswith("/"):
            path = str(work / path)  # the run's working folder is the file's
        if not path or not path.startswith(inside) or "= -1" in l:
            continue
        writes = re.search(r"O_WRONLY|O_RDWR|O_CREAT|O_TRUNC", l)
        if writes and path != allowed_write:
            problems.append(f"wrote a file the configuration does not name: {l}")
        if not writes and path not in (allowed_read, inside):
            problems.append(f"read a file the configuration does not name: {l}")
    bad = [l for l in lines if re.search(r"\b(unlink|unlinkat|rename|renameat2?|mkdir|mkdirat|rmdir)\(", l)]
    problems += [f"forbidden system call in the run session: {l}" for l in bad[:10]]
    written = sorted(str(p.relative_to(work)) for p in work.rglob("*") if p.is_file())
    if written != ["copy.tile", "in/a.npy", "out/b.npy"]:
        problems.append(f"files in the run's folder afterwards: {written}")
    elif (work / "out" / "b.npy").read_bytes()[-256:] != npy_f32([float(i) for i in range(64)])[-256:]:
        problems.append("out/b.npy does not hold a copy of in/a.npy")
    print(f"run session: {len(lines)} system calls traced; programs started: {len(started) - 1}; "
          f"files in the run's folder: {written}")
    return problems




def cutile_session(strace: str, tilesight: str, tmp: pathlib.Path, root: pathlib.Path) -> list:
    """Problems of a session on two Python files (docs/cutile.md): the one with a launch directive
    is compiled by the user's Python (`-m tilesight_cutile compile FILE --out - --stdin`), the
    other is not; nothing is written but the empty temporary folder cuTile's compiler makes and
    removes (in TMPDIR). Skipped, with the reason, when cuTile is not importable."""
    env = traced_env()
    python = env.get("TILESIGHT_PYTHON", "python3")
    if subprocess.run([python, "-c", "import cuda.tile"], env=env, capture_output=True).returncode:
        print(f"cuTile session left out: cuda.tile is not importable by {python} (TILESIGHT_CUTILE_PKG)")
        return []
    work, pytmp = tmp / "py", tmp / "pytmp"
    work.mkdir()
    pytmp.mkdir()
    env["TMPDIR"] = str(pytmp)
    kernel, plain = work / "kernel.py", work / "plain.py"
    kernel.write_text((root / "tests" / "cutile" / "race.py").read_text())  # a directive, a race
    plain.write_text("import os\nprint(os.getcwd())\n")
    trace = tmp / "cutile-trace"
    tracer = subprocess.Popen(
        [strace, "-f", "-qq", "-s", "1024", "-o", str(trace), "-e", "trace=%file,%desc,%process,%network",
         tilesight, "lsp"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp, env=env)

    def send(message):
        tracer.stdin.write(frame(message))
        tracer.stdin.flush()

    send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}})
    send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    for path in (plain, kernel):
        send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": path.resolve().as_uri(), "languageId": "python", "version": 1, "text": path.read_text()}}})
    diagnostics = None
    while diagnostics is None:
        m = read_message(tracer.stdout)
        if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["diagnostics"] and \
                m["params"]["uri"] == kernel.resolve().as_uri():
            diagnostics = m["params"]["diagnostics"]
    send({"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover", "params": {
        "textDocument": {"uri": kernel.resolve().as_uri()}, "position": {"line": 7, "character": 10}}})
    if not end_session(tracer, send):
        return ["the cuTile session's server did not exit within 60 s"]
    problems = []
    if not any(d.get("code") == "race.unordered" for d in diagnostics):
        problems.append(f"the cuTile session published no race: {json.dumps(diagnostics)[:300]}")
    lines = trace.read_text().splitlines()
    started = [l for l in lines if re.search(r"\bexecve\(", l) and "= -1" not in l]
    compiles = [l for l in started[1:] if '"-m", "tilesight_cutile", "compile"' in l]
    if len(started) != 2 or len(compiles) != 1 or str(kernel.resolve()) not in compiles[0] or \
            '"--out", "-", "--stdin"' not in compiles[0]:
        problems.append("programs started besides the server and one compile of kernel.py: " +
                        " | ".join(started[1:]))
    inside = str(pytmp.resolve())
    for l in lines:
        if not FORBIDDEN.search(l) or l in started or "= -1" in l:
            continue
        m = re.search(r'"([^"]*)"', l)
        if not m or not m.group(1).startswith(inside):
            problems.append(f"the cuTile session wrote outside the compile's temporary folder: {l}")
    left = sorted(p.name for p in pytmp.iterdir())
    if left:
        problems.append(f"the compile left files in its temporary folder: {left}")
    if sorted(p.name for p in work.iterdir()) != ["kernel.py", "plain.py"]:
        problems.append(f"files beside the Python files afterwards: {sorted(p.name for p in work.iterdir())}")
    print(f"cuTile session: {len(lines)} system calls traced; programs started: {len(started) - 1} "
          f"(one compile of kernel.py, none of plain.py)")
    return problems


def main() -> int:
    tilesight, root = os.path.abspath(sys.argv[1]), pathlib.Path(sys.argv[2])
    strace = shutil.which("strace")
    if not strace:
        if os.environ.get("TILESIGHT_REQUIRE_E2E") == "1":
            print("FAIL: strace not found (install it: scripts/install-deps.sh)")
            return 1
        print("SKIPPED: strace not found (install strace, e.g. "
              "scripts/install-deps.sh)")
        return 77
    data, requests = session(root)
    with tempfile.TemporaryDirectory(prefix="tilesight-audit-") as tmp:
        trace = pathlib.Path(tmp) / "trace"
        proc = subprocess.run(
            [strace, "-f", "-qq", "-o", str(trace), "-e",
             "trace=%file,%desc,%process,%network", tilesight, "lsp"],
            input=data, capture_output=True, timeout=120, cwd=tmp, env=traced_env())
        lines = trace.read_text().splitlines()
        if "--no-crash" in sys.argv[3:]:
            print("crash part left out: a sanitizer build handles the signal itself")
            crash_problems = []
        else:
            crash_problems = crash_session(strace, tilesight, pathlib.Path(tmp))
        leftovers = sorted(p.name for p in pathlib.Path(tmp).iterdir()
                           if p.name not in ("trace", "crash-trace"))
        run_problems = run_session(strace, tilesight, pathlib.Path(tmp))
        run_problems += cutile_session(strace, tilesight, pathlib.Path(tmp), root)
    answers = proc.stdout.count(b'"id":')
    # execve of the server itself is strace starting it: the first line.
    started = [l for l in lines if re.search(r"\bexecve\(", l)]
    bad = [l for l in lines if FORBIDDEN.search(l) and l not in started[:1]]
    print(f"requests sent: {requests}; messages with an id back: {answers}; "
          f"system calls traced: {len(lines)}; exit status {proc.returncode}")
    problems = []
    if proc.returncode != 0:
        problems.append(f"exit status {proc.returncode}, not 0")
    if answers < requests:
        problems.append(f"only {answers} answers to {requests} requests")
    if leftovers:
        problems.append(f"files left in its working directory: {leftovers}")
    problems += [f"forbidden system call: {l}" for l in bad[:20]]
    problems += crash_problems
    problems += run_problems
    if problems:
        print("FAIL:\n  " + "\n  ".join(problems))
        print(proc.stderr.decode(errors="replace")[-2000:])
        return 1
    print("ok: no file opened for writing, created, renamed or removed; "
          "no program executed; after a crash too, and it ended at once; "
          "a run started only `tilesight run`, which read its input and wrote its output alone; "
          "a cuTile file with a directive started only its compile, which wrote nothing that stayed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
