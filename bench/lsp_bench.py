#!/usr/bin/env python3
"""Language-server benchmark: tilesight next to mlir-lsp-server-14.

For each size N, DIR must hold ops<N>.tile (custom form, for tilesight) and
ops<N>.mlir (the same program in MLIR generic form, for mlir-lsp-server-14 and
for tilesight's third column). Each server is measured on its own, one after
the other, over stdio:

  open     didOpen -> its first publishDiagnostics;
  change   a one-character edit of an integer constant in the middle of the
           file (values alternate, so the text really changes), timed until
           the publishDiagnostics for that version; each edit waits for its
           diagnostics before the next (latency, not throughput);
  full-sync edit  the same edits sent as a client that syncs the full text
           sends them: the whole new text, no range;
  resend   the whole text as it is (an undo back to it, a client sending the
           same text again): a new version, nothing to analyse;
  hover    requests at positions spread over the file, on SSA value uses and
           op names, one at a time;
  navigate definition, references and documentHighlight on value uses
           spread over the file, completion just after a use's `%`, and
           semanticTokens/range over 60 lines there (each where the server
           advertises it), one at a time; semanticTokens/full five times;
  after edit  the first requests on a new version: an edit, its
           diagnostics, then a definition far from the edit and a full
           semantic tokens request (what a version's indexes cost);
  memory   VmRSS and VmHWM of the server process with the file open, after
           the edits and hovers;
  exit     shutdown + exit, then the exit code.

Diagnostics are matched by `version`; a publishDiagnostics without a version
counts as the answer to the latest change. Every wait has a timeout: a server
that hangs is reported as "timeout" and killed. Python standard library only.
"""
import argparse
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

class Timeout(Exception):
    pass


class ServerDied(Exception):
    pass


# --- the connection ----------------------------------------------------------


class Connection:
    """A server process and a reader thread that decodes its frames.

    Arrival times are taken when a frame's body has been read, before it is
    decoded, so the client's JSON decoding is not counted as server time.
    """

    def __init__(self, argv, log_path):
        self.log = open(log_path, "wb")
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=self.log)
        self.cv = threading.Condition()
        self.write_lock = threading.Lock()
        self.responses = {}  # id -> (arrival time, message)
        self.diagnostics = []  # (arrival time, uri, version or None, count)
        self.eof = False
        self.next_id = 0
        self.reader = threading.Thread(target=self._read_loop, daemon=True)
        self.reader.start()

    def _read_loop(self):
        out = self.proc.stdout
        try:
            while True:
                length = read_headers(out)
                if length is None:
                    return
                body = out.read(length)
                arrived = time.perf_counter()
                if len(body) < length:
                    return
                self._dispatch(json.loads(body), arrived)
        finally:
            with self.cv:
                self.eof = True
                self.cv.notify_all()

    def _dispatch(self, msg, arrived):
        if "method" in msg and "id" in msg:  # a request from the server
            self._write({"jsonrpc": "2.0", "id": msg["id"], "result": None})
            return
        with self.cv:
            if "method" not in msg:
                self.responses[msg.get("id")] = (arrived, msg)
            elif msg["method"] == "textDocument/publishDiagnostics":
                p = msg.get("params", {})
                self.diagnostics.append((arrived, p.get("uri"),
                                         p.get("version"),
                                         len(p.get("diagnostics", []))))
            self.cv.notify_all()

    def _write(self, msg):
        self.write(frame(msg))

    def write(self, data):
        with self.write_lock:
            try:
                self.proc.stdin.write(data)
                self.proc.stdin.flush()
            except (BrokenPipeError, OSError) as e:
                raise ServerDied(f"write failed: {e}")

    def wait(self, predicate, timeout, what):
        """Waits until predicate() (called under the lock) returns non-None."""
        deadline = time.monotonic() + timeout
        with self.cv:
            while True:
                found = predicate()
                if found is not None:
                    return found
                if self.eof:
                    raise ServerDied(f"server closed its output during {what}")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise Timeout(what)
                self.cv.wait(left)

    def notify(self, method, params):
        self._write(message(method, params))

    def request(self, method, params, timeout, errors_ok=False):
        """Sends a request; returns (result, seconds until its response).
        With errors_ok an error response is returned as its result."""
        self.next_id += 1
        rid = self.next_id
        data = frame(message(method, params, rid))
        sent = time.perf_counter()
        self.write(data)
        arrived, msg = self.wait(lambda: self.responses.pop(rid, None),
                                 timeout, method)
        if "error" in msg:
            if errors_ok:
                return {"error": msg["error"]}, arrived - sent
            raise ServerDied(f"{method} failed: {msg['error']}")
        return msg.get("result"), arrived - sent

    def mark(self):
        with self.cv:
            return len(self.diagnostics)

    def wait_diagnostics(self, uri, version, since, timeout):
        """The first publishDiagnostics for uri at index >= since whose
        version is `version` or absent; returns (arrival, version, count)."""
        def find():
            for arrived, u, v, count in self.diagnostics[since:]:
                if same_uri(u, uri) and (v is None or v == version):
                    return arrived, v, count
            return None
        return self.wait(find, timeout, f"diagnostics for version {version}")

    def memory(self):
        fields = {}
        try:
            with open(f"/proc/{self.proc.pid}/status") as f:
                for line in f:
                    key, _, value = line.partition(":")
                    if key in ("VmRSS", "VmHWM"):
                        fields[key] = int(value.split()[0]) / 1024  # MiB
        except OSError as e:
            raise ServerDied(f"cannot read its memory: {e}")
        if "VmRSS" not in fields:  # a zombie has no memory lines
            raise ServerDied("it exited")
        return fields

    def cpu_seconds(self):
        """User + system time of the server so far (all its threads)."""
        try:
            with open(f"/proc/{self.proc.pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError as e:
            raise ServerDied(f"cannot read its CPU time: {e}")
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def close(self, timeout):
        """shutdown + exit; returns the exit code, or 'killed' if it hung."""
        try:
            self.request("shutdown", None, timeout)
            self.notify("exit", None)
            self.proc.stdin.close()
            code = self.proc.wait(timeout)
        except (Timeout, ServerDied, subprocess.TimeoutExpired, OSError):
            code = self.kill()
        self.log.close()
        return code

    def kill(self):
        self.log.close()
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
            return "killed"
        return self.proc.returncode


def message(method, params, rid=None):
    """JSON-RPC allows no `params: null`: shutdown and exit have none."""
    msg = {"jsonrpc": "2.0", "method": method}
    if rid is not None:
        msg["id"] = rid
    if params is not None:
        msg["params"] = params
    return msg


def frame(msg):
    body = json.dumps(msg, separators=(",", ":")).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def read_headers(stream):
    """Reads one header block; returns its Content-Length (None at EOF)."""
    length = None
    while True:
        line = stream.readline()
        if not line:
            return None
        line = line.strip()
        if not line:
            if length is not None:
                return length
            continue  # a stray blank line before the headers
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)


def same_uri(a, b):
    return a is not None and urllib.parse.unquote(a) == urllib.parse.unquote(b)


# --- the workload ------------------------------------------------------------

# An i32 constant's value: `constant <i32: 3>` and `dense<3> : tensor<..xi32>`.
EDIT_SITE = {"custom": re.compile(r"constant <i32: (\d)>"),
             "generic": re.compile(r"dense<(\d)> : tensor<[0-9x]*i32>")}
VALUE = re.compile(r"%[A-Za-z0-9_]+")
OP_NAME = {"custom": re.compile(r"= ([a-z_.]+)"),
           "generic": re.compile(r"= (\"[a-z_.]+\")")}


def edit_site(lines, form):
    """(line, column) of the one-digit constant nearest the middle."""
    mid = len(lines) // 2
    for d in range(len(lines)):
        for i in (mid - d, mid + d):
            if 0 <= i < len(lines):
                m = EDIT_SITE[form].search(lines[i])
                if m:
                    return i, m.start(1)
    raise SystemExit(f"no integer constant to edit in the {form} file")


def hover_positions(lines, form, count):
    """`count` positions on op lines spread over the file, alternating
    between an operand use and the op name. Each points at the token's third
    character: mlir-lsp-server-14 reads columns one off (see lsp.md §2), so
    the first character would miss there."""
    op_lines = [i for i, l in enumerate(lines) if OP_NAME[form].search(l)]
    step = len(op_lines) / count
    positions = []
    for k in range(count):
        i = op_lines[int(k * step)]
        text = lines[i]
        name = OP_NAME[form].search(text)
        uses = [m for m in VALUE.finditer(text) if m.start() > name.start()]
        col = uses[-1].start() if k % 2 == 0 and uses else name.start(1)
        positions.append((i, col + 2))
    return positions


def value_positions(lines, form, count):
    """`count` positions on the last value use of op lines spread over the
    file: (line, column of its `%`)."""
    op_lines = [i for i, l in enumerate(lines) if OP_NAME[form].search(l)]
    positions = []
    for k in range(count):
        # From the sampled op line on, the first one that uses a value.
        for i in op_lines[int(k * len(op_lines) / count):]:
            name = OP_NAME[form].search(lines[i])
            uses = [m for m in VALUE.finditer(lines[i])
                    if m.start() > name.start()]
            if uses:
                positions.append((i, uses[-1].start()))
                break
    return positions


class Workload:
    def __init__(self, path, form, edits, hovers):
        self.uri = "file://" + urllib.parse.quote(os.path.abspath(path))
        self.language = "tileir" if form == "custom" else "mlir"
        with open(path) as f:
            self.text = f.read()
        self.lines = self.text.split("\n")
        self.ops = sum(1 for l in self.lines if OP_NAME[form].search(l))
        self.edit_line, self.edit_col = edit_site(self.lines, form)
        off = sum(len(l) + 1 for l in self.lines[:self.edit_line])
        off += self.edit_col
        first = self.text[off]
        other = "4" if first != "4" else "3"
        self.values = [other, first]  # edit k writes values[k % 2]
        self.variants = [self.text[:off] + v + self.text[off + 1:]
                         for v in self.values]
        self.edits = edits
        self.version = 1  # didOpen's
        self.edits_made = 0
        self.current = self.text  # the text the server has
        self.hovers = hover_positions(self.lines, form, hovers)
        self.values_at = value_positions(self.lines, form, max(1, hovers // 2))

    def next_change(self, mode):
        """The next didChange's version and its one content change. mode
        "range": the one-character edit; "full": the same edit as the whole
        new text; "resend": the whole text as it is."""
        self.version += 1
        if mode == "resend":
            return self.version, {"text": self.current}
        k = self.edits_made
        self.edits_made += 1
        self.current = self.variants[k % 2]
        if mode == "full":
            return self.version, {"text": self.current}
        pos = {"line": self.edit_line, "character": self.edit_col}
        end = dict(pos, character=self.edit_col + 1)
        return self.version, {"range": {"start": pos, "end": end},
                              "text": self.values[k % 2]}


# --- one server on one file --------------------------------------------------


def sync_kind(capabilities):
    sync = capabilities.get("textDocumentSync")
    if isinstance(sync, dict):
        sync = sync.get("change", 0)
    return {0: "none", 1: "full", 2: "incremental"}.get(sync, "none")


def initialize(conn, init_options, timeout):
    params = {
        "processId": os.getpid(),
        "rootUri": None,
        "capabilities": {"textDocument": {
            "publishDiagnostics": {"versionSupport": True},
            "hover": {"contentFormat": ["markdown", "plaintext"]},
            "synchronization": {"didSave": False}}}}
    if init_options is not None:
        params["initializationOptions"] = init_options
    result, _ = conn.request("initialize", params, timeout)
    conn.notify("initialized", {})
    return result.get("capabilities", {})


def measure_edits(conn, w, mode, timeout, r, key="change"):
    """w.edits changes of `mode` (Workload.next_change), each timed until
    its version's diagnostics: r[key + "_ms"], r[key + "_cpu_ms"]."""
    r[key + "_ms"] = []
    r["versioned"] = None
    cpu = conn.cpu_seconds()
    for _ in range(w.edits):
        version, change = w.next_change(mode)
        data = frame(message("textDocument/didChange", {
            "textDocument": {"uri": w.uri, "version": version},
            "contentChanges": [change]}))
        since = conn.mark()
        sent = time.perf_counter()
        conn.write(data)
        arrived, v, count = conn.wait_diagnostics(w.uri, version, since,
                                                  timeout)
        r[key + "_ms"].append((arrived - sent) * 1000)
        r["versioned"] = v is not None
        r["diagnostics"] = count
    # Clock ticks are 10 ms, so this is a mean; unlike the wall times above,
    # other processes on the machine do not inflate it much.
    r[key + "_cpu_ms"] = (conn.cpu_seconds() - cpu) * 1000 / max(1, w.edits)


def measure_hovers(conn, w, timeout, r):
    r["hover_ms"] = []
    r["hover_answered"] = 0
    for line, col in w.hovers:
        result, seconds = conn.request(
            "textDocument/hover",
            {"textDocument": {"uri": w.uri},
             "position": {"line": line, "character": col}}, timeout)
        r["hover_ms"].append(seconds * 1000)
        r["hover_answered"] += result is not None


def supported(caps):
    """The navigation requests the server advertises: method -> params
    builder (line, column of a value's `%`) -> params."""
    kinds = {}
    doc = lambda w: {"textDocument": {"uri": w.uri}}
    def pos(w, line, col, **extra):
        return dict(doc(w), position={"line": line, "character": col}, **extra)
    if caps.get("definitionProvider"):
        kinds["definition"] = ("textDocument/definition",
                               lambda w, l, c: pos(w, l, c + 2))
    if caps.get("referencesProvider"):
        kinds["references"] = ("textDocument/references", lambda w, l, c: pos(
            w, l, c + 2, context={"includeDeclaration": True}))
    if caps.get("documentHighlightProvider"):
        kinds["highlight"] = ("textDocument/documentHighlight",
                              lambda w, l, c: pos(w, l, c + 2))
    if caps.get("completionProvider") is not None:
        kinds["completion"] = ("textDocument/completion",
                               lambda w, l, c: pos(w, l, c + 1))
    tokens = caps.get("semanticTokensProvider") or {}
    if tokens.get("range"):
        kinds["tokens_range"] = ("textDocument/semanticTokens/range",
                                 lambda w, l, c: dict(doc(w), range={
                                     "start": {"line": max(0, l - 30),
                                               "character": 0},
                                     "end": {"line": l + 30, "character": 0}}))
    return kinds, bool(tokens.get("full"))


def measure_navigation(conn, w, caps, timeout, r):
    kinds, full = supported(caps)
    for key, (method, params) in kinds.items():
        r[key + "_ms"] = []
        for line, col in w.values_at:
            result, seconds = conn.request(method, params(w, line, col),
                                           timeout)
            r[key + "_ms"].append(seconds * 1000)
    if full:
        r["tokens_full_ms"] = []
        for _ in range(5):
            _, seconds = conn.request("textDocument/semanticTokens/full",
                                      {"textDocument": {"uri": w.uri}}, timeout)
            r["tokens_full_ms"].append(seconds * 1000)


def measure_after_edits(conn, w, caps, mode, count, timeout, r):
    """Edits again; after each one's diagnostics, a definition far from the
    edit and then the full semantic tokens of that version."""
    kinds, full = supported(caps)
    if "definition" not in kinds and not full:
        return
    far = w.values_at[len(w.values_at) // 8] if w.values_at else (0, 0)
    r["def_after_edit_ms"], r["tokens_after_edit_ms"] = [], []
    for _ in range(count):
        version, change = w.next_change(mode)
        since = conn.mark()
        conn.notify("textDocument/didChange", {
            "textDocument": {"uri": w.uri, "version": version},
            "contentChanges": [change]})
        conn.wait_diagnostics(w.uri, version, since, timeout)
        if "definition" in kinds:
            method, params = kinds["definition"]
            _, seconds = conn.request(method, params(w, *far), timeout)
            r["def_after_edit_ms"].append(seconds * 1000)
        if full:
            _, seconds = conn.request("textDocument/semanticTokens/full",
                                      {"textDocument": {"uri": w.uri}}, timeout)
            r["tokens_after_edit_ms"].append(seconds * 1000)


def run_server(argv, w, init_options, timeout, log_path):
    """Measures one server on one workload. Never raises for the server's
    sake: a hang or a crash is recorded in r["status"]."""
    r = {"status": "ok", "command": argv}
    try:
        conn = Connection(argv, log_path)
    except OSError as e:
        return dict(r, status=f"failed (start: {e})", exit_code=None)
    phase = "initialize"
    try:
        caps = initialize(conn, init_options, timeout)
        r["sync"] = sync_kind(caps)
        r["features"] = sorted(supported(caps)[0]) + (
            ["tokens_full"] if supported(caps)[1] else [])
        phase = "open"
        since = conn.mark()
        sent = time.perf_counter()
        conn.notify("textDocument/didOpen", {"textDocument": {
            "uri": w.uri, "languageId": w.language, "version": 1,
            "text": w.text}})
        arrived, _, count = conn.wait_diagnostics(w.uri, 1, since, timeout)
        r["open_ms"] = (arrived - sent) * 1000
        r["open_diagnostics"] = r["diagnostics"] = count
        r["VmRSS_open"] = conn.memory()["VmRSS"]
        if r["sync"] != "none":
            mode = "full" if r["sync"] == "full" else "range"
            phase = "change"
            measure_edits(conn, w, mode, timeout, r)
            phase = "full-sync edit"
            measure_edits(conn, w, "full", timeout, r, "full_change")
            phase = "resend"
            measure_edits(conn, w, "resend", timeout, r, "resend")
        phase = "hover"
        measure_hovers(conn, w, timeout, r)
        phase = "navigate"
        measure_navigation(conn, w, caps, timeout, r)
        if r["sync"] != "none":
            phase = "after edit"
            measure_after_edits(conn, w, caps, mode, min(10, max(1, w.edits)),
                                timeout, r)
        phase = "memory"
        r.update(conn.memory())
        phase = "shutdown"
        r["exit_code"] = conn.close(timeout)
    except Timeout as e:
        r["status"] = f"timeout ({phase}: {e})"
        r["exit_code"] = conn.kill()
    except ServerDied as e:
        r["status"] = f"failed ({phase}: {e})"
        r["exit_code"] = conn.kill()
    return r


# --- statistics and the table ------------------------------------------------


def percentile(samples, p):
    """Nearest rank: with 30 samples p99 is the largest."""
    if not samples:
        return None
    s = sorted(samples)
    return s[max(0, math.ceil(p / 100 * len(s)) - 1)]


MEASURED = ("change", "full_change", "resend", "hover", "definition", "references", "highlight",
            "completion", "tokens_range", "tokens_full", "def_after_edit",
            "tokens_after_edit")


def summarize(r):
    for key in MEASURED:
        samples = r.get(key + "_ms") or []
        for p in (50, 99):
            r[f"{key}_p{p}_ms"] = percentile(samples, p)
        r[f"{key}_max_ms"] = max(samples) if samples else None
    return r


def fmt(value, digits=2):
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def ratio(a, b):
    return a / b if a is not None and b else None


TS, MLIR, TS_GENERIC = "tilesight custom", "mlir generic", "tilesight generic"

ROWS = [  # label, key, digits, with a speed-up
    ("open -> diagnostics ms", "open_ms", 2, True),
    ("change -> diagnostics p50 ms", "change_p50_ms", 2, True),
    ("change -> diagnostics p99 ms", "change_p99_ms", 2, True),
    ("change -> diagnostics max ms", "change_max_ms", 2, False),
    ("server CPU per change ms, mean", "change_cpu_ms", 2, True),
    ("full-sync edit -> diag p50 ms", "full_change_p50_ms", 2, True),
    ("full-sync edit -> diag p99 ms", "full_change_p99_ms", 2, True),
    ("resend same text p50 ms", "resend_p50_ms", 2, True),
    ("resend same text p99 ms", "resend_p99_ms", 2, True),
    ("server CPU per resend ms, mean", "resend_cpu_ms", 2, True),
    ("hover p50 ms", "hover_p50_ms", 3, True),
    ("hover p99 ms", "hover_p99_ms", 3, True),
    ("hover max ms", "hover_max_ms", 3, False),
    ("hovers answered (not null)", "hover_answered", 0, False),
    ("definition p50 ms", "definition_p50_ms", 3, True),
    ("definition p99 ms", "definition_p99_ms", 3, True),
    ("references p99 ms", "references_p99_ms", 3, True),
    ("highlight p99 ms", "highlight_p99_ms", 3, True),
    ("completion after % p50 ms", "completion_p50_ms", 3, True),
    ("completion after % p99 ms", "completion_p99_ms", 3, True),
    ("semantic tokens range p99 ms", "tokens_range_p99_ms", 3, True),
    ("semantic tokens full p50 ms", "tokens_full_p50_ms", 2, True),
    ("semantic tokens full max ms", "tokens_full_max_ms", 2, False),
    ("after edit: definition p99 ms", "def_after_edit_p99_ms", 2, True),
    ("after edit: tokens full p99 ms", "tokens_after_edit_p99_ms", 2, True),
    ("diagnostics on open", "open_diagnostics", 0, False),
    ("diagnostics after last edit", "diagnostics", 0, False),
    ("VmRSS MiB after open", "VmRSS_open", 1, False),
    ("VmRSS MiB after edits+hovers", "VmRSS", 1, False),
    ("VmHWM MiB", "VmHWM", 1, False),
    ("text sync", "sync", 0, False),
    ("diagnostics carry version", "versioned", 0, False),
    ("exit code", "exit_code", 0, False),
]


def print_size(runs, out):
    cols = [runs.get(key, {}) for key in (TS, MLIR, TS_GENERIC)]
    print(f"{'':30}{'tilesight':>12}{'mlir-lsp-14':>14}{'speed-up':>10}"
          f"{'tilesight':>12}", file=out)
    print(f"{'':30}{'(custom)':>12}{'(generic)':>14}{'mlir/ts':>10}"
          f"{'(generic)':>12}", file=out)
    for label, key, digits, speedup in ROWS:
        v = [c.get(key) for c in cols]
        r = ratio(v[1], v[0]) if speedup else None
        s = f"{r:.1f}x" if r is not None else ""
        print(f"{label:30}{fmt(v[0], digits):>12}{fmt(v[1], digits):>14}"
              f"{s:>10}{fmt(v[2], digits):>12}", file=out)
    for key, c in runs.items():
        if c["status"] != "ok":
            print(f"  {key}: {c['status']}; its log ends:", file=out)
            print(log_tail(c["log"]), end="", file=out)


def log_tail(path, lines=5):
    with open(path, errors="replace") as f:
        return "".join("    " + l[:200] for l in f.readlines()[-lines:])


def column(runs, key, field):
    return runs.get(key, {}).get(field)


# name, ops, what (of that size's runs), limit, at least (not at most), unit
TARGETS = [
    ("tilesight change->diagnostics p99", 10000,
     lambda runs: column(runs, TS, "change_p99_ms"), 20.0, False, "ms"),
    ("speed-up over mlir-lsp-server-14, that p99", 10000,
     lambda runs: ratio(column(runs, MLIR, "change_p99_ms"),
                        column(runs, TS, "change_p99_ms")), 4.0, True, "x"),
    ("tilesight full-sync edit->diagnostics p99", 10000,
     lambda runs: column(runs, TS, "full_change_p99_ms"), 10.0, False, "ms"),
    ("tilesight resend same text->diagnostics p99", 10000,
     lambda runs: column(runs, TS, "resend_p99_ms"), 10.0, False, "ms"),
    ("tilesight hover p99", 50000,
     lambda runs: column(runs, TS, "hover_p99_ms"), 2.0, False, "ms"),
    ("tilesight VmRSS with the file open", 50000,
     lambda runs: column(runs, TS, "VmRSS"), 60.0, False, "MiB"),
    ("tilesight peak RSS (VmHWM), every feature", 50000,
     lambda runs: column(runs, TS, "VmHWM"), 60.0, False, "MiB"),
] + [(name, 200000, lambda runs, f=field: column(runs, TS, f), limit, False,
      unit) for name, field, limit, unit in [
    ("tilesight change->diagnostics p99", "change_p99_ms", 50.0, "ms"),
    ("tilesight definition p99", "definition_p99_ms", 10.0, "ms"),
    ("tilesight references p99", "references_p99_ms", 10.0, "ms"),
    ("tilesight highlight p99", "highlight_p99_ms", 10.0, "ms"),
    ("tilesight definition p99, first after an edit", "def_after_edit_p99_ms",
     10.0, "ms"),
    ("tilesight semantic tokens full, after an edit",
     "tokens_after_edit_p99_ms", 150.0, "ms"),
    ("tilesight semantic tokens range p99", "tokens_range_p99_ms", 10.0,
     "ms"),
    ("tilesight completion p99", "completion_p99_ms", 30.0, "ms"),
    ("tilesight peak RSS (VmHWM), every feature", "VmHWM", 250.0, "MiB")]]


def judge(results):
    """A target whose size was run but has no figure (a server hung or
    failed) fails; one whose size was not run is n/a."""
    rows = []
    for name, ops, what, limit, at_least, unit in TARGETS:
        value = what(results.get(str(ops), {}))
        ok = value is not None and (value >= limit if at_least
                                    else value <= limit)
        verdict = ("PASS" if ok else "FAIL" if str(ops) in results
                   else "n/a")
        rows.append({"name": name, "ops": ops, "value": value,
                     "limit": f"{'>=' if at_least else '<='} {limit:g} {unit}",
                     "unit": unit, "verdict": verdict})
    return rows


def print_targets(rows, results, out):
    """Prints the targets whose size was run."""
    rows = [t for t in rows if str(t["ops"]) in results]
    if rows:
        print("\nTargets", file=out)
    for t in rows:
        value = "-" if t["value"] is None else f"{t['value']:.2f} {t['unit']}"
        print(f"  {t['name']:48} at {t['ops']:>6} ops  {t['limit']:>10}  "
              f"{value:>11}  {t['verdict']}", file=out)


# --- main --------------------------------------------------------------------


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--dir", help="holds ops<N>.tile and ops<N>.mlir")
    p.add_argument("--tilesight", default="build/tilesight")
    p.add_argument("--mlir", default="mlir-lsp-server-14")
    p.add_argument("--sizes", default="1000,10000,50000")
    p.add_argument("--edits", help="edits per size, one number or one per "
                   "size (default: 100 up to 10k ops, 30 above)")
    p.add_argument("--hovers", type=int, default=200)
    p.add_argument("--debounce-ms", type=int, default=None,
                   help="sent to tilesight as initializationOptions "
                        "{debounceMs}; default: not sent (server default)")
    p.add_argument("--timeout-s", type=float, default=20.0,
                   help="longest wait for any one answer")
    p.add_argument("--no-tilesight-generic", action="store_true",
                   help="skip the third column")
    p.add_argument("--json", help="write the raw numbers here")
    p.add_argument("--log-dir", help="servers' stderr (default: a new "
                   "temporary folder, kept)")
    p.add_argument("--self-check", action="store_true",
                   help="check this client; with --dir, also run both "
                        "servers briefly on those files")
    return p.parse_args(argv)


def edit_counts(args, sizes):
    if args.edits is None:
        return [100 if s <= 10000 else 30 for s in sizes]
    edits = [int(e) for e in args.edits.split(",")]
    edits = edits * len(sizes) if len(edits) == 1 else edits
    if len(edits) != len(sizes):
        raise SystemExit("--edits needs one number or one per size")
    return edits


def mlir_flags(mlir):
    """The flag that allows unregistered dialects, if --help lists one."""
    try:
        out = subprocess.run([mlir, "--help"], capture_output=True,
                             text=True, timeout=20).stdout
    except (OSError, subprocess.TimeoutExpired) as e:
        raise SystemExit(f"cannot run {mlir} --help: {e}")
    flag = "--allow-unregistered-dialect"
    return [flag] if flag[2:] in out else []


def server_runs(args, size, edits, mlir_argv):
    custom = os.path.join(args.dir, f"ops{size}.tile")
    generic = os.path.join(args.dir, f"ops{size}.mlir")
    init = None if args.debounce_ms is None else {
        "debounceMs": args.debounce_ms}
    ts = [args.tilesight, "lsp"]
    plan = [(TS, ts, custom, "custom", init),
            (MLIR, mlir_argv, generic, "generic", None)]
    if not args.no_tilesight_generic:
        plan.append((TS_GENERIC, ts, generic, "generic", init))
    runs = {}
    for key, argv, path, form, options in plan:
        w = Workload(path, form, edits, args.hovers)
        log = os.path.join(args.log_dir, f"{key.replace(' ', '-')}-{size}.log")
        r = summarize(run_server(argv, w, options, args.timeout_s, log))
        r.update(file=path, bytes=len(w.text.encode()), ops=w.ops,
                 edits=edits, hovers=len(w.hovers), log=log)
        runs[key] = r
    return runs


def print_header(args, mlir_argv, load, out):
    print("LSP benchmark: tilesight vs mlir-lsp-server-14 "
          f"(load average {load:.2f} at start, "
          f"{os.cpu_count()} CPUs; one server at a time)", file=out)
    debounce = ("server default (initializationOptions not sent)"
                if args.debounce_ms is None else
                f'initializationOptions {{"debounceMs": {args.debounce_ms}}}')
    print(f"tilesight: {args.tilesight} lsp; debounce: {debounce}", file=out)
    flags = " ".join(mlir_argv[1:]) or (
        "--help lists no unregistered-dialect option and none is needed: it "
        "accepts unregistered dialects, so it checks syntax and SSA names but "
        "runs no cuda_tile verifier")
    print(f"mlir-lsp-server-14: {mlir_argv[0]}; {flags}", file=out)
    print("edit: one digit of an i32 constant in the middle of the file, "
          "alternating; each edit waits for its own diagnostics (so the "
          "latency includes any debounce); full-sync edit: the same edits "
          "as the whole new text; resend: the whole text unchanged", file=out)


def print_notes(runs, out):
    m = runs[MLIR]
    if m.get("open_diagnostics"):
        print(f"  note: mlir-lsp-server-14 publishes {m['open_diagnostics']}"
              " diagnostics on this file; producing them is part of its "
              "measured work", file=out)


def benchmark(args):
    sizes = [int(s) for s in args.sizes.split(",")]
    mlir_argv = [args.mlir] + mlir_flags(args.mlir)
    load = os.getloadavg()[0]
    print_header(args, mlir_argv, load, sys.stdout)
    results = {}
    for size, edits in zip(sizes, edit_counts(args, sizes)):
        runs = server_runs(args, size, edits, mlir_argv)
        results[str(size)] = runs
        ts, m = runs[TS], runs[MLIR]
        print(f"\n== {size} ops (custom {ts['bytes'] / 1024:.0f} KiB, generic "
              f"{m['bytes'] / 1024:.0f} KiB): {edits} edits, "
              f"{ts['hovers']} hovers ==")
        print_size(runs, sys.stdout)
        print_notes(runs, sys.stdout)
        sys.stdout.flush()
    targets = judge(results)
    print_targets(targets, results, sys.stdout)
    if args.keep_logs:
        print(f"server logs (stderr): {args.log_dir}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"debounce_ms": args.debounce_ms,
                       "mlir_command": mlir_argv, "load_average_start": load,
                       "load_average_end": os.getloadavg()[0],
                       "sizes": results, "targets": targets}, f, indent=1)
    return results


def main(argv):
    args = parse_args(argv)
    args.keep_logs = args.log_dir is None
    if args.self_check and args.keep_logs:
        with tempfile.TemporaryDirectory() as d:
            args.log_dir, args.keep_logs = d, False
            return self_check(args)
    args.log_dir = args.log_dir or tempfile.mkdtemp(prefix="lsp_bench_")
    os.makedirs(args.log_dir, exist_ok=True)
    if args.self_check:
        return self_check(args)
    if not args.dir:
        raise SystemExit("--dir is required")
    results = benchmark(args)
    failed = [k for runs in results.values() for k, r in runs.items()
              if r["status"] != "ok"]
    return 1 if failed else 0


# --- self-check --------------------------------------------------------------

# Two scripted servers. Both send a request to the client before they answer
# initialize. "mute" then never says anything. "late" publishes diagnostics
# without a version after didOpen, and after a change first those of the
# previous version (stale) and 30 ms later those of the new one.
TOY_SERVER = r"""
import json, sys, time
def read():
    n = None
    while True:
        line = sys.stdin.buffer.readline()
        if not line: sys.exit(0)
        if line.strip() == b"" and n is not None: break
        if line.lower().startswith(b"content-length:"): n = int(line[15:])
    return json.loads(sys.stdin.buffer.read(n))
def send(msg):
    body = json.dumps(msg).encode()
    sys.stdout.buffer.write(b"Content-Type: application/vscode-jsonrpc\r\n"
                            b"Content-Length: %d\r\n\r\n" % len(body) + body)
    sys.stdout.buffer.flush()
def publish(m, version):
    p = {"uri": m["params"]["textDocument"]["uri"], "diagnostics": []}
    if version is not None: p["version"] = version
    send({"jsonrpc": "2.0", "method": "textDocument/publishDiagnostics",
          "params": p})
m = read()
send({"jsonrpc": "2.0", "method": "window/workDoneProgress/create",
      "id": "p", "params": {"token": 1}})
if read().get("id") != "p": sys.exit(3)  # the client must answer first
send({"jsonrpc": "2.0", "id": m["id"],
      "result": {"capabilities": {"textDocumentSync": 2}}})
while sys.argv[1] == "mute": read()
while True:
    m = read()
    method = m.get("method")
    if method == "textDocument/didOpen": publish(m, None)
    elif method == "textDocument/didChange":
        version = m["params"]["textDocument"]["version"]
        publish(m, version - 1)
        time.sleep(0.03)
        publish(m, version)
    elif method == "exit": sys.exit(0)
    elif "id" in m:
        hover = {"contents": "x"} if method.endswith("hover") else None
        send({"jsonrpc": "2.0", "id": m["id"], "result": hover})
"""


def client_checks(log_dir):
    """Headers in any order, percentiles, the workload's positions, then the
    scripted servers: a request from the server answered; diagnostics matched
    by version, stale ones skipped, version-less ones taken; a server that
    never publishes reported as a timeout and killed within the timeout."""
    import io
    checks = []
    stream = io.BytesIO(b"\r\nContent-Type: x\r\nContent-Length: 2\r\n\r\n{}")
    checks.append(("framing", read_headers(stream) == 2
                   and stream.read(2) == b"{}"))
    checks.append(("percentile", percentile(list(range(1, 101)), 99) == 99
                   and percentile([5.0] * 30, 99) == 5.0
                   and percentile(list(range(30)), 99) == 29))
    path = os.path.join(log_dir, "ops.tile")
    with open(path, "w") as f:
        f.write("  entry @k() {\n    %v0 = constant <i32: 3> : t\n"
                "    %v1 = addi %v0, %v0 : t\n"
                "    %v2 = addi %v1, %v0 : t\n  }\n")
    w = Workload(path, "custom", 3, 3)
    checks.append(("edit site", (w.edit_line, w.edit_col) == (1, 25)
                   and w.values == ["4", "3"]))
    checks.append(("hover positions",
                   w.hovers == [(1, 12), (2, 12), (3, 22)]))
    toy = [sys.executable, "-c", TOY_SERVER]
    r = run_server(toy + ["late"], w, None, 5.0,
                   os.path.join(log_dir, "late.log"))
    checks.append(("late server: stale diagnostics skipped",
                   r["status"] == "ok" and r["versioned"] is True
                   and min(r["change_ms"]) >= 25 and r["exit_code"] == 0
                   and r["hover_answered"] == 3 and r["VmRSS"] > 0))
    start = time.monotonic()
    r = run_server(toy + ["mute"], w, None, 1.0,
                   os.path.join(log_dir, "mute.log"))
    took = time.monotonic() - start
    checks.append(("mute server: timeout, killed within 5 s",
                   r["status"].startswith("timeout (open")
                   and r["sync"] == "incremental"
                   and r["exit_code"] == "killed" and took < 5))
    return checks


def server_checks(args):
    """Every server answers every edit and hover of a short run, publishes
    no diagnostics on the generated (valid) program and exits with 0."""
    args.edits, args.hovers, args.json = "3", 10, None
    checks = []
    for size, runs in benchmark(args).items():
        for key, r in runs.items():
            checks.append((f"{key} at {size} ops: all answered, clean, exit 0",
                           r["status"] == "ok" and len(r["change_ms"]) == 3
                           and r["hover_answered"] == 10
                           and r["open_diagnostics"] == r["diagnostics"] == 0
                           and r["exit_code"] == 0))
    return checks


def self_check(args):
    checks = client_checks(args.log_dir)
    if args.dir:
        checks += server_checks(args)
    for name, ok in checks:
        print(f"{'ok  ' if ok else 'FAIL'} {name}")
    return 0 if all(ok for _, ok in checks) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
