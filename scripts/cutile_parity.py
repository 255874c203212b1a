#!/usr/bin/env python3
"""NumPy parity of the cuTile bytecode corpus (issue 34): each kernel's bytecode run by `tilesight run`.

usage: scripts/cutile_parity.py BINARY [--versions 13_1,13_2,13_3,13_4] [--device DEVICE] [--only SUBSTRING]
                                [--jobs N]

tests/corpus/cutile/kernels holds, for each kernel, bytecode at four versions, its launch
(NAME.KERNEL.launch.json: grid, each argument by its Python name) and a NumPy reference
(NAME_ref.py, README there). For each kernel and version this script makes the launch's
arguments with the corpus's own generator (common_ref.generate), writes the arrays as .npy
files (bf16 as its raw bits, uint16), runs

  BINARY run NAME.KERNEL.VERSION.tilebc --format=json --arg PARAM=@PARAM.npy ... --out OUT=OUT.out.npy ...

(the launch file beside the bytecode gives the grid, sizes, strides and scalars), and compares
each output with the reference's: bit for bit where the corpus says exact, else within its
rtol/atol. With --device, the run is on that device (compared with NumPy, not bit for bit with
the CPU reference: float atomics add in no fixed order).
Prints one row per run and the totals; exits 1 when a run fails, 77 when --device is absent.
"""
import argparse
import concurrent.futures
import json
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
KERNELS = ROOT / "tests" / "corpus" / "cutile" / "kernels"
RUN_TIMEOUT_S = 600

try:
    import numpy as np
except ImportError:
    sys.exit("cutile_parity: NumPy is missing (Debian: apt-get install python3-numpy) - run with /usr/bin/python3")
sys.path.insert(0, str(KERNELS))
import common_ref  # noqa: E402  (tests/corpus/cutile/kernels/common_ref.py)


def bf16_bits(x):
    """float32 values holding bf16 values -> their bf16 bits (the upper half, exact)."""
    return (np.asarray(x, dtype=np.float32).view(np.uint32) >> 16).astype(np.uint16)


def bf16_value(bits):
    return (np.asarray(bits, dtype=np.uint16).astype(np.uint32) << 16).view(np.float32)


def run_one(binary, name, kernel, version, device):
    launch = json.loads((KERNELS / f"{name}.{kernel}.launch.json").read_text())
    args, expected, tol = common_ref.reference(name, kernel)
    dtypes = {a["param"]: a["dtype"] for a in launch["args"] if a["kind"] == "array"}
    bytecode = KERNELS / f"{name}.{kernel}.{version}.tilebc"
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [binary, "run", str(bytecode), "--format=json"]
        if device:
            # NumPy with the corpus's tolerance is the reference; --check (the CPU reference, bit
            # for bit where the order of float atomics is not fixed) would fail segment_sum's
            # atomic adds now and then.
            cmd += ["--device", device]
        for param, dtype in dtypes.items():
            path = pathlib.Path(tmp) / f"{param}.npy"
            value = args[param]
            if dtype == "bf16":
                np.save(path, bf16_bits(value))
                cmd += ["--arg", f"{param}=@{path}"]  # raw bits: uint16 holds a bf16 pointee
            else:
                np.save(path, value)
                cmd += ["--arg", f"{param}=@{path}"]
        for out in expected:
            cmd += ["--out", f"{out}={pathlib.Path(tmp) / (out + '.out.npy')}"]
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=RUN_TIMEOUT_S)
        if r.returncode != 0:
            return False, f"exit {r.returncode}: {(r.stdout + r.stderr).strip()[:400]}"
        for out, want in expected.items():
            got = np.load(pathlib.Path(tmp) / (out + ".out.npy"))
            if dtypes[out] == "bf16":
                got = bf16_value(got)
            got = got.reshape(np.asarray(want).shape)
            if not common_ref.matches(got, want, tol):
                diff = np.max(np.abs(got.astype(np.float64) - np.asarray(want, dtype=np.float64)))
                return False, f"{out} differs from NumPy's (largest difference {diff:g}, tolerance {tol})"
    return True, ""


def versions_only():
    """(NAME, KERNEL) -> "13_4" for the manifest's kernel@VERSION lines."""
    out = {}
    for line in (KERNELS.parent / "manifest.txt").read_text().splitlines():
        f = line.split()
        if len(f) >= 3 and f[0].startswith("kernel@"):
            out[(pathlib.Path(f[1]).stem, f[2])] = f[0].split("@", 1)[1].replace(".", "_")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("binary")
    ap.add_argument("--versions", default="13_1,13_2,13_3,13_4")
    ap.add_argument("--device", help="run on this device (opencl, opencl:N, ...)")
    ap.add_argument("--only", action="append", default=[], help="kernels whose NAME.KERNEL contains this")
    ap.add_argument("--jobs", type=int, default=2)
    o = ap.parse_args()
    if o.device:
        devices = json.loads(subprocess.run([o.binary, "devices", "--format=json"], capture_output=True, text=True).stdout)
        want = o.device if ":" in o.device else o.device + ":0"
        if not any(d["id"] == want for d in devices["devices"]):
            print(f"skip: no device {want}")
            return 77
    work = []
    only_at = versions_only()
    for launch in sorted(KERNELS.glob("*.launch.json")):
        name, kernel = launch.name[: -len(".launch.json")].split(".", 1)
        if o.only and not any(s in f"{name}.{kernel}" for s in o.only):
            continue
        for version in o.versions.split(","):
            if (name, kernel) in only_at and only_at[(name, kernel)] != version:
                continue  # compiled at one version only (manifest kind@VERSION): cuTile refuses the others
            work.append((name, kernel, version))
    failed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, o.jobs)) as pool:
        futures = [pool.submit(run_one, o.binary, n, k, v, o.device) for n, k, v in work]
        for (name, kernel, version), f in zip(work, futures):
            ok, why = f.result()
            failed += not ok
            print(f"{'ok  ' if ok else 'FAIL'} {name}.{kernel} {version}{'' if ok else ': ' + why}")
    print(f"{len(work) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
