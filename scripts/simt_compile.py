#!/usr/bin/env python3
"""Compile-only checks of the SIMT lowering's CUDA and HIP output (issue 15, no GPU needed).

For every kernel of the corpora (tests/corpus/real, examples, and the cuTile corpus's kernels of
what 13.4 writes differently: fpowi, insert, grid dependency control) that `tilesight emit` lowers:
  * CUDA: NVRTC (libnvrtc from the CUDA toolkit, loaded with ctypes) to a cubin for sm_80 and sm_90,
    and `nvcc -arch=sm_90 -cubin` on the emitted file, whose `ptxas -v` registers and spills are
    recorded;
  * HIP: hiprtc (Debian's libamdhip64.so.5 holds it; ROCm 6 has libhiprtc) to a code object for
    gfx90a and gfx1030.
A toolkit that is missing is skipped with its reason printed; a kernel that fails to compile is a
failure (exit 1). A kernel the lowering does not handle yet is listed, not failed.
Usage: scripts/simt_compile.py build/tilesight [--markdown] [--only NAME]
"""
import argparse
import ctypes
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
CORPORA = [ROOT / "tests/corpus/real", ROOT / "examples"]


def cuda_home():
    for c in [os.environ.get("CUDA_HOME"), "/usr/local/cuda"]:
        if c and (pathlib.Path(c) / "include/cuda.h").exists():
            return pathlib.Path(c)
    nvcc = shutil.which("nvcc")
    return pathlib.Path(nvcc).resolve().parent.parent if nvcc else None


class Nvrtc:
    def __init__(self, home):
        libs = sorted((home / "lib64").glob("libnvrtc.so.*")) + sorted((home / "lib").glob("libnvrtc.so.*"))
        libs = [p for p in libs if re.fullmatch(r"libnvrtc\.so\.\d+", p.name)]
        if not libs:
            raise OSError(f"no libnvrtc.so.N under {home}")
        self.lib = ctypes.CDLL(str(libs[0]))
        self.include = [f"-I{home / 'include'}"] + ([f"-I{home / 'include/cccl'}"] if (home / "include/cccl").exists() else [])
        self.name = libs[0].name

    def compile(self, src, arch):
        prog = ctypes.c_void_p()
        self.lib.nvrtcCreateProgram(ctypes.byref(prog), src.encode(), b"kernel.cu", 0, None, None)
        opts = [f"--gpu-architecture={arch}", "-std=c++17", "--fmad=false"] + self.include
        arr = (ctypes.c_char_p * len(opts))(*[o.encode() for o in opts])
        rc = self.lib.nvrtcCompileProgram(prog, len(opts), arr)
        size = ctypes.c_size_t()
        self.lib.nvrtcGetProgramLogSize(prog, ctypes.byref(size))
        log = ctypes.create_string_buffer(size.value)
        self.lib.nvrtcGetProgramLog(prog, log)
        cubin = ctypes.c_size_t()
        self.lib.nvrtcGetCUBINSize(prog, ctypes.byref(cubin))
        self.lib.nvrtcDestroyProgram(ctypes.byref(prog))
        return rc == 0 and cubin.value > 0, log.value.decode(errors="replace"), cubin.value


class Hiprtc:
    def __init__(self):
        last = None
        for name in ["libhiprtc.so.7", "libhiprtc.so.6", "libamdhip64.so.5"]:
            try:
                self.lib = ctypes.CDLL(name)
                self.lib.hiprtcCreateProgram
                self.name = name
                return
            except (OSError, AttributeError) as e:
                last = e
        raise OSError(f"no hiprtc (libhiprtc.so.6/7, or libamdhip64.so.5 of ROCm 5): {last}")

    def compile(self, src, arch):
        prog = ctypes.c_void_p()
        self.lib.hiprtcCreateProgram(ctypes.byref(prog), src.encode(), b"kernel.hip", 0, None, None)
        opts = [f"--offload-arch={arch}", "-O3"]
        arr = (ctypes.c_char_p * len(opts))(*[o.encode() for o in opts])
        rc = self.lib.hiprtcCompileProgram(prog, len(opts), arr)
        size = ctypes.c_size_t()
        self.lib.hiprtcGetProgramLogSize(prog, ctypes.byref(size))
        log = ctypes.create_string_buffer(max(size.value, 1))
        self.lib.hiprtcGetProgramLog(prog, log)
        code = ctypes.c_size_t()
        self.lib.hiprtcGetCodeSize(prog, ctypes.byref(code))
        self.lib.hiprtcDestroyProgram(ctypes.byref(prog))
        return rc == 0 and code.value > 0, log.value.decode(errors="replace"), code.value


def emit(binary, tile, target):
    p = subprocess.run([binary, "emit", str(tile), "--target", target], capture_output=True, text=True)
    return p.stdout if p.returncode == 0 else None, p.stderr.strip()


def ptxas_figures(text):
    regs = [int(x) for x in re.findall(r"Used (\d+) registers", text)]
    spills = [int(a) + int(b) for a, b in re.findall(r"(\d+) bytes spill stores, (\d+) bytes spill loads", text)]
    return (max(regs) if regs else 0), (max(spills) if spills else 0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("binary")
    ap.add_argument("--only", action="append", default=[])
    ap.add_argument("--markdown", action="store_true")
    o = ap.parse_args()
    home = cuda_home()
    tools, skipped = {}, []
    try:
        tools["nvrtc"] = Nvrtc(home) if home else None
        if not home:
            skipped.append("NVRTC: no CUDA toolkit (CUDA_HOME, /usr/local/cuda, nvcc on PATH)")
    except OSError as e:
        skipped.append(f"NVRTC: {e}")
    nvcc = shutil.which("nvcc") or (str(home / "bin/nvcc") if home and (home / "bin/nvcc").exists() else None)
    if not nvcc:
        skipped.append("nvcc: not found")
    try:
        tools["hiprtc"] = Hiprtc()
    except OSError as e:
        skipped.append(f"hiprtc: {e}")

    files = [f for c in CORPORA for f in sorted(c.glob("*.tile"))]
    files += sorted((ROOT / "tests/corpus/cutile/kernels").glob("v13_4.*.13_4.tilebc"))
    files = [f for f in files if not o.only or any(s in f.stem for s in o.only)]
    rows, unlowered, failures = [], [], 0
    with tempfile.TemporaryDirectory(prefix="simt-") as d:
        for f in files:
            cuda, why = emit(o.binary, f, "cuda")
            if cuda is None:
                unlowered.append((f.stem, why.splitlines()[-1] if why else "exit != 0"))
                continue
            row = {"name": f.stem, "results": {}, "regs": None, "spills": None}
            if tools.get("nvrtc"):
                for arch in ["sm_80", "sm_90"]:
                    ok, log, size = tools["nvrtc"].compile(cuda, arch)
                    row["results"][f"nvrtc {arch}"] = ok
                    if not ok:
                        failures += 1
                        print(f"FAIL {f.stem}: NVRTC {arch}:\n{log[:3000]}")
            if nvcc:
                path = pathlib.Path(d) / (f.stem + ".cu")
                path.write_text(cuda)
                p = subprocess.run([nvcc, "-arch=sm_90", "-cubin", "-Xptxas", "-v", "-o", str(path.with_suffix(".cubin")),
                                    str(path)], capture_output=True, text=True)
                row["results"]["nvcc sm_90"] = p.returncode == 0
                row["regs"], row["spills"] = ptxas_figures(p.stderr + p.stdout)
                if p.returncode:
                    failures += 1
                    print(f"FAIL {f.stem}: nvcc:\n{p.stderr[:3000]}")
            if tools.get("hiprtc"):
                hip, why = emit(o.binary, f, "hip")
                for arch in ["gfx90a", "gfx1030"]:
                    ok, log, size = tools["hiprtc"].compile(hip, arch) if hip else (False, why, 0)
                    row["results"][f"hiprtc {arch}"] = ok
                    if not ok:
                        failures += 1
                        print(f"FAIL {f.stem}: hiprtc {arch}:\n{log[:3000]}")
            rows.append(row)
    cols = sorted({k for r in rows for k in r["results"]})
    if o.markdown:
        print("| kernel | " + " | ".join(cols) + " | registers | spill bytes |")
        print("|---" * (len(cols) + 3) + "|")
    for r in rows:
        marks = ["ok" if r["results"][c] else "FAIL" for c in cols]
        if o.markdown:
            print(f"| `{r['name']}` | " + " | ".join(marks) + f" | {r['regs']} | {r['spills']} |")
        else:
            print(f"{r['name']:36} " + "  ".join(f"{c}: {m:4}" for c, m in zip(cols, marks)) +
                  (f"  regs {r['regs']:3} spills {r['spills']}" if r["regs"] is not None else ""))
    for name, why in unlowered:
        print(f"not lowered: {name}: {why}")
    for why in skipped:
        print(f"skip {why}")
    print(f"simt compile: {len(rows)} kernels, {failures} failed compiles, {len(unlowered)} not lowered; "
          f"compilers: {', '.join(getattr(t, 'name', '') for t in tools.values() if t) or 'none'}"
          f"{', nvcc' if nvcc else ''}")
    if not any(tools.values()) and not nvcc:
        return 77
    return 1 if failures or not rows else 0


if __name__ == "__main__":
    sys.exit(main())
