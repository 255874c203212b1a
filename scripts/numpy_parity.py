#!/usr/bin/env python3
"""NumPy parity: real cuTile kernels run by `tilesight run` against NumPy (issue 14, acceptance 3).

usage: scripts/numpy_parity.py BINARY [--only SUBSTRING] [--jobs N] [--external DIR] [--verbose]
                               [--markdown]

Every module of tests/numpy_parity/ (but parity.py) is the NumPy reference of one kernel
file of tests/corpus: `cases(rng)` yields Cases (tests/numpy_parity/parity.py) with the
launch, the arguments as NumPy arrays and numbers, and the expected contents of the
output buffers. For each case this script writes the arrays as .npy files, runs

  BINARY run FILE --grid X,Y,Z --format=json --arg NAME=@NAME.npy ... --out NAME=NAME.out.npy ...

and compares each output with NumPy's: bit for bit where the case says exact (copies,
integer kernels), else within |actual - expected| <= atol + rtol * |expected|.

A module whose file is not in this repository (a real compiler dump: EXTERNAL = "mm.mlir")
runs only with --external DIR holding that file (the test_samples folder of a bytecode
decoder, e.g. Da1sypetals/bytecode2tileir; not shipped here) and is listed as skipped,
with the reason, otherwise.

Prints one row per case (outputs, elements compared, the worst error as a fraction of the
tolerance, the run time) and the totals; exits 1 when a case fails or cannot run.
"""
import argparse
import concurrent.futures
import importlib.util
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "corpus"
REFERENCES = ROOT / "tests" / "numpy_parity"
RUN_TIMEOUT_S = 600
SEPARATOR = re.compile(r"^// -----")

sys.path.insert(0, str(REFERENCES))
try:
    import numpy as np
except ImportError:
    sys.exit("numpy_parity: NumPy is missing (Debian: apt-get install python3-numpy; "
             "scripts/install-deps.sh installs it) - run with /usr/bin/python3")
import parity  # noqa: E402  (tests/numpy_parity/parity.py)


def load_modules(only):
    mods = []
    for path in sorted(REFERENCES.glob("*.py")):
        if path.name == "parity.py":
            continue
        spec = importlib.util.spec_from_file_location("parity_" + path.stem, path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        mods.append((path.stem, mod))
    return [(n, m) for n, m in mods if not only or any(o in n for o in only)]


def chunk_text(path, index):
    """The text of chunk `index` (from 1) of a file, after as many empty lines as precede it."""
    lines = path.read_text().split("\n")
    starts = [0] + [i + 1 for i, line in enumerate(lines) if SEPARATOR.match(line)]
    if index < 1 or index > len(starts):
        raise ValueError(f"{path} has {len(starts)} chunks, not {index}")
    end = starts[index] - 1 if index < len(starts) else len(lines)
    return "\n" * starts[index - 1] + "\n".join(lines[starts[index - 1]:end]) + "\n"


def write_array(tmp, name, a):
    path = tmp / (re.sub(r"[^A-Za-z0-9_]", "_", name) + ".npy")
    np.save(path, a)  # a Fortran-order array stays column-major (its bytes are the buffer)
    return "@" + str(path)


def arg_value(tmp, name, value):
    if isinstance(value, np.ndarray):
        return write_array(tmp, name, value)
    if isinstance(value, list):  # cuTile's list of arrays
        return "list:" + ",".join(write_array(tmp, f"{name}_{k}", a) for k, a in enumerate(value))
    if isinstance(value, float):
        return repr(value)
    return str(int(value))


def compare(name, out, actual):
    """(elements compared, worst |error| / tolerance or bit mismatches, message or None)."""
    got = parity.decode(actual, out.fmt)
    want = np.asarray(out.value)
    if got.shape != want.shape:
        if got.size == want.size:
            got = got.reshape(want.shape)
        else:
            return 0, float("inf"), f"{name}: shape {got.shape}, NumPy's is {want.shape}"
    mask = np.ones(want.shape, dtype=bool) if out.where is None else np.asarray(out.where, dtype=bool)
    g, w = got[mask], want[mask].astype(got.dtype if out.exact else np.float64)
    count = int(mask.sum())
    if out.exact:
        same = (g == w) | (np.isnan(g) & np.isnan(w)) if g.dtype.kind == "f" else (g == w)
        bad = np.flatnonzero(~same)
        if bad.size:
            k = np.argwhere(mask)[bad[0]]
            return count, float(bad.size), (f"{name}: {bad.size} of {count} elements differ; first at "
                                            f"{tuple(int(i) for i in k)}: {g[bad[0]]!r}, NumPy {w[bad[0]]!r}")
        return count, 0.0, None
    w = w.astype(np.float64)
    g = g.astype(np.float64)
    atol = np.asarray(out.atol, dtype=np.float64)
    tol = (atol[mask] if atol.shape == want.shape else atol) + out.rtol * np.abs(w)
    both_nan = np.isnan(g) & np.isnan(w)
    err = np.where(both_nan, 0.0, np.abs(g - w) / tol)
    err = np.where(np.isnan(err), np.inf, err)
    worst = float(err.max()) if err.size else 0.0
    if worst > 1.0:
        i = int(np.argmax(err))
        k = np.argwhere(mask)[i]
        atol_text = f"{float(atol):g}" if atol.ndim == 0 else "a bound per element"
        return count, worst, (f"{name}: {int((err > 1).sum())} of {count} elements outside "
                              f"atol {atol_text} + rtol {out.rtol:g}; worst at {tuple(int(j) for j in k)}: "
                              f"{g[i]!r}, NumPy {w[i]!r} (tolerance {tol[i]:.3g})")
    return count, worst, None


def run_as_expected(case, p, problems):
    """Whether the run ended as the case says (exit 0, or a run.fault naming case.fault) and
    printed what it says; the reasons it did not go to problems."""
    try:
        report = json.loads(p.stdout)
    except ValueError:
        problems.append(f"exit {p.returncode}: " + (p.stdout + p.stderr).strip()[-2000:])
        return False
    faults = [d["message"] for d in report.get("diagnostics", []) if d.get("code") == "run.fault"]
    if case.fault is None and p.returncode != 0:
        problems.append(f"exit {p.returncode}: " + (p.stdout + p.stderr).strip()[-2000:])
    elif case.fault is not None and (p.returncode != 1 or not any(case.fault in m for m in faults)):
        problems.append(f"expected a run.fault containing {case.fault!r}, got exit {p.returncode} and {faults}")
    if case.printed is not None and report.get("printed") != case.printed:
        problems.append(f"printed {report.get('printed')!r}, expected {case.printed!r}")
    return not problems


def run_case(binary, case, source, device=None, run_flags=()):
    """One row of the table: a dict. With a device, the run also compares itself with the CPU
    reference (--check); a kernel the SIMT lowering does not handle (exit 3) is `unlowered`."""
    row = {"name": case.name, "ok": False, "elements": 0, "worst": 0.0, "seconds": 0.0, "problems": [],
           "unlowered": None}
    with tempfile.TemporaryDirectory(prefix="parity-") as d:
        tmp = pathlib.Path(d)
        path = source
        if case.chunk is not None:
            path = tmp / "chunk.tile"
            path.write_text(chunk_text(source, case.chunk))
        cmd = [binary, "run", str(path), "--format=json", "--grid", ",".join(map(str, case.grid))]
        if case.entry:
            cmd += ["--entry", case.entry]
        for name, value in case.args.items():
            cmd += ["--arg", f"{name}={arg_value(tmp, name, value)}"]
        outs = {}
        for name in case.expect:
            outs[name] = tmp / (re.sub(r"[^A-Za-z0-9_]", "_", name) + ".out.npy")
            cmd += ["--out", f"{name}={outs[name]}"]
        extra = list(case.extra)
        if device:
            if "--sanitize" in extra:
                row["unlowered"] = "a --sanitize case (cpu only)"
                return row
            extra = [a for a in extra if a != "--deterministic"] + ["--device", device] + (["--check"] if case.check else [])
            extra += list(run_flags)
        else:
            extra += ["--device", "cpu"]  # the reference, even where auto would find a GPU
        cmd += extra
        start = time.monotonic()
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=RUN_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            row["problems"].append(f"timed out after {RUN_TIMEOUT_S} s")
            return row
        row["seconds"] = time.monotonic() - start
        if device and p.returncode == 3:
            row["unlowered"] = p.stderr.strip().splitlines()[0] if p.stderr.strip() else "exit 3"
            return row
        if not run_as_expected(case, p, row["problems"]):
            return row
        for name, out in case.expect.items():
            count, worst, problem = compare(name, out, np.load(outs[name]))
            row["elements"] += count
            row["worst"] = max(row["worst"], worst)
            if problem:
                row["problems"].append(problem)
        row["ok"] = not row["problems"]
    return row


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("binary")
    ap.add_argument("--only", action="append", default=[], help="modules whose name contains this")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--external", default=os.environ.get("TILESIGHT_DUMPS_DIR") or None,
                    help="folder with the real compiler dumps that EXTERNAL names (default: $TILESIGHT_DUMPS_DIR)")
    ap.add_argument("--device", help="run on this device (opencl, opencl:N, ...) with --check against the CPU reference")
    ap.add_argument("--run-flag", action="append", default=[], help="a flag for every device run (e.g. --no-tensor-cores)")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    o = ap.parse_args()

    if o.device:
        devices = json.loads(subprocess.run([o.binary, "devices", "--format=json"], capture_output=True, text=True).stdout)
        want = o.device if ":" in o.device else o.device + ":0"
        if not any(d["id"] == want for d in devices["devices"]):
            why = next((b["reason"] for b in devices["backends"] if b["name"] == o.device.split(":")[0]), "")
            print(f"skip: no device {want}: {why}")
            return 77
    work, skipped = [], []
    for stem, mod in load_modules(o.only):
        rng = np.random.default_rng(_seed(stem))
        external = getattr(mod, "EXTERNAL", None)
        if external:
            if not o.external:
                skipped.append((stem, f"a compiler dump not shipped here ({external}): give --external DIR "
                                      "or set TILESIGHT_DUMPS_DIR"))
                continue
            source = pathlib.Path(o.external) / external
            if not source.exists():
                skipped.append((stem, f"{source} does not exist"))
                continue
        for case in mod.cases(rng):
            case.name = case.name or stem
            src = source if external else CORPUS / case.file
            work.append((case, src))

    rows = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, o.jobs)) as pool:
        futures = [pool.submit(run_case, o.binary, c, s, o.device, o.run_flag) for c, s in work]
        for f in futures:
            rows.append(f.result())

    if o.markdown:
        print("| case | result | elements compared | worst error / tolerance | run (s) |")
        print("|---|---|---|---|---|")
    unlowered = [r for r in rows if r["unlowered"]]
    rows = [r for r in rows if not r["unlowered"]]
    for r in rows:
        status = "ok" if r["ok"] else "FAIL"
        worst = "exact" if r["ok"] and r["worst"] == 0 else f"{r['worst']:.3g}"
        if o.markdown:
            print(f"| `{r['name']}` | {status} | {r['elements']} | {worst} | {r['seconds']:.1f} |")
        else:
            print(f"{status:4} {r['name']:40} {r['elements']:>10} elements  worst {worst:>8}  {r['seconds']:6.1f} s")
        if not r["ok"] or o.verbose:
            for p in r["problems"]:
                print("     " + p.replace("\n", "\n     "))
    for r in unlowered:
        print(f"not run on {o.device}: {r['name']}: {r['unlowered']}")
    for stem, why in skipped:
        print(f"skip {stem}: {why}")
    failed = sum(not r["ok"] for r in rows)
    where = f" on {o.device}" if o.device else ""
    print(f"numpy parity{where}: {len(rows) - failed} passed, {failed} failed, "
          f"{len(unlowered)} not lowered, {len(skipped)} skipped")
    return 1 if failed or not rows else 0


def _seed(stem):
    """A seed per module that does not change between runs (Python's hash() does)."""
    return sum((i + 1) * ord(c) for i, c in enumerate(stem))


if __name__ == "__main__":
    sys.exit(main())
