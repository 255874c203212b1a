#!/usr/bin/env python3
"""Layout pictures as a browser shows them: each case's SVG (`tilesight
layout --format=svg ...`) is rendered by headless Chromium at its own size
and compared with the PNG stored in baseline/ (Pillow): the same size, and
at most 0.05% of the pixels differing by more than 48 in a channel (room for
a few anti-aliased edges of another Chromium build; two swapped cell labels
change 0.15%, a moved cell or a changed colour far more).
Each case is also drawn by `--format=png` (librsvg): the PNG must have the
SVG's size and every cell's fill colour inside the cell.
Usage: check.py TILESIGHT [--update]. Exits 77 (skipped) without chromium or
Pillow unless TILESIGHT_REQUIRE_E2E=1; --update rewrites the baselines."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = [
    ("tv", ["--format=svg", "make_layout_tv((4,2):(2,1), (2,2):(2,1))"]),
    ("banks", ["--format=svg", "--banks=32", "(8,(4,2)):(8,(1,32))"]),
    ("swizzle", ["--format=svg", "swizzle(3, 0, 3, (8,8):(8,1))"]),
    ("wmma_gfx11_a", ["--format=svg", "--max-cells=8", "wmma(gfx11, A)"]),
]
TOLERANCE, SHARE = 48, 0.0005


def skip(why):
    if os.environ.get("TILESIGHT_REQUIRE_E2E") == "1":
        print(f"FAIL: {why} (TILESIGHT_REQUIRE_E2E=1)")
        sys.exit(1)
    print(f"SKIP: {why}")
    sys.exit(77)


def screenshot(chromium, svg_path, png_path, width, height, scratch):
    subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                    "--force-device-scale-factor=1", f"--user-data-dir={scratch}",
                    f"--window-size={width},{height}", f"--screenshot={png_path}", "file://" + svg_path],
                   check=True, capture_output=True, timeout=120)


def differing(a, b):
    """The share of pixels whose channels differ by more than TOLERANCE."""
    pa, pb = a.convert("RGB").load(), b.convert("RGB").load()
    bad = 0
    for y in range(a.size[1]):
        for x in range(a.size[0]):
            if max(abs(p - q) for p, q in zip(pa[x, y], pb[x, y])) > TOLERANCE:
                bad += 1
    return bad / (a.size[0] * a.size[1])


def check_png(tilesight, name, args, svg, image_module):
    """`--format=png` of the case: the SVG's size, each cell rectangle's fill inside it."""
    png_args = ["--format=png" if a == "--format=svg" else a for a in args]
    out = subprocess.run([tilesight, "layout"] + png_args, capture_output=True)
    if out.returncode != 0:
        print(f"{name}: --format=png failed: {out.stderr.decode(errors='replace').strip()}")
        return 1
    import io
    image = image_module.open(io.BytesIO(out.stdout)).convert("RGB")
    width, height = (int(v) for v in re.search(r'width="(\d+)" height="(\d+)"', svg).groups())
    if image.size != (width, height):
        print(f"{name}: the PNG is {image.size}, the SVG {width}x{height}")
        return 1
    cells = re.findall(r'<rect x="(\d+)" y="(\d+)" width="48" height="40" fill="#([0-9a-f]{6})"', svg)
    pixels, wrong = image.load(), 0
    for x, y, fill in cells:
        want = tuple(int(fill[i:i + 2], 16) for i in (0, 2, 4))
        got = pixels[int(x) + 4, int(y) + 4]
        if max(abs(p - q) for p, q in zip(got, want)) > 2:
            wrong += 1
            if wrong <= 3:
                print(f"{name}: PNG cell at ({x},{y}) is {got}, the SVG fills it with #{fill}")
    print(f"{name}: PNG {width}x{height}, {len(cells) - wrong} of {len(cells)} cells in their colour")
    return 1 if wrong or not cells else 0


def main():
    tilesight, update = sys.argv[1], "--update" in sys.argv[2:]
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        skip("no chromium to render the pictures")
    try:
        from PIL import Image
    except ImportError:
        # Debian's python3-pil is for Debian's python3; another python3 may come first on PATH.
        if sys.executable != "/usr/bin/python3" and os.path.exists("/usr/bin/python3"):
            os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
        skip("no Pillow (python3-pil) to compare the pictures")
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, args in CASES:
            svg = subprocess.run([tilesight, "layout"] + args, capture_output=True, text=True, check=True).stdout
            width, height = (int(v) for v in re.search(r'width="(\d+)" height="(\d+)"', svg).groups())
            svg_path, png_path = os.path.join(tmp, name + ".svg"), os.path.join(tmp, name + ".png")
            with open(svg_path, "w", encoding="utf-8") as f:
                f.write(svg)
            if not update:
                failures += check_png(tilesight, name, args, svg, Image)
            screenshot(chromium, svg_path, png_path, width, height, os.path.join(tmp, "profile"))
            baseline = os.path.join(HERE, "baseline", name + ".png")
            if update:
                os.makedirs(os.path.dirname(baseline), exist_ok=True)
                shutil.copyfile(png_path, baseline)
                print(f"{name}: baseline written ({width}x{height})")
                continue
            got, want = Image.open(png_path), Image.open(baseline)
            if got.size != want.size:
                print(f"{name}: {got.size} rendered, {want.size} stored")
                failures += 1
                continue
            share = differing(got, want)
            print(f"{name}: {width}x{height}, {share:.2%} of the pixels differ")
            if share > SHARE:
                failures += 1
                keep = os.path.join(os.environ.get("TMPDIR", "/tmp"), "tilesight-picture-" + name + ".png")
                shutil.copyfile(png_path, keep)
                print(f"  over {SHARE:.2%}: the rendering is at {keep}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
