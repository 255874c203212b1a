#!/usr/bin/env python3
"""Validates `tilesight check --format=sarif` against the SARIF 2.1.0 schema (with Debian's
python3-jsonschema) and with Microsoft's SARIF validator (the SARIF Multitool, pinned in
package.json), on a report with every code, a path with a space and é, standard input and an
unreadable file. Any error or warning either of them reports fails the test.

usage: validate.py TILESIGHT REPO_ROOT
Exit 77 (skipped, with the reason) when a validator is missing, unless TILESIGHT_REQUIRE_E2E=1.
"""
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
MULTITOOL_DIR = os.path.join(HERE, "node_modules", "@microsoft", "sarif-multitool-linux")
BAD = ("cuda_tile.module @m {\n  entry @k(%n: tile<i32>) {\n"
       "    %c = constant <i32: 1> : tile<3xi32>  // tilesight: ignore race\n"
       "    %d = addi %n, %undefined : tile<i32>\n  }\n}\n")


def skip(reason):
    if os.environ.get("TILESIGHT_REQUIRE_E2E") == "1":
        print(f"FAIL: {reason} (TILESIGHT_REQUIRE_E2E=1)")
        sys.exit(1)
    print(f"SKIP: {reason}")
    sys.exit(77)


def make_report(tilesight, repo):
    """The SARIF of a checkout holding every code, 'a b/é.tile', stdin and a missing file."""
    work = tempfile.mkdtemp(prefix="tilesight-sarif-")
    os.makedirs(os.path.join(work, ".git"))
    os.makedirs(os.path.join(work, "a b"))
    shutil.copy(os.path.join(repo, "tests", "cli", "all_codes.tile"), os.path.join(work, "all_codes.tile"))
    with open(os.path.join(work, "a b", "é.tile"), "w", encoding="utf-8") as f:
        f.write(BAD.replace("%undefined", "%undéfined"))
    cmd = [tilesight, "check", "--format=sarif", "--split-input-file", "--grid=4,1,1",
           "all_codes.tile", "a b", "-", "missing.tile"]
    p = subprocess.run(cmd, cwd=work, input=BAD.encode(), capture_output=True, timeout=120)
    if p.returncode != 2:
        print(f"FAIL: {' '.join(cmd)} exited {p.returncode} (want 2: a file could not be read)")
        print(p.stderr.decode(errors="replace"))
        sys.exit(1)
    path = os.path.join(work, "report.sarif")
    with open(path, "wb") as f:
        f.write(p.stdout)
    return work, path


def check_schema(report_path, schema_path):
    try:
        import jsonschema
    except ImportError:
        skip("python3-jsonschema is not installed")
    with open(schema_path, encoding="utf-8") as f:
        schema = json.load(f)
    with open(report_path, encoding="utf-8") as f:
        report = json.load(f)
    validator = jsonschema.Draft202012Validator(schema)
    errors = sorted(validator.iter_errors(report), key=lambda e: list(e.absolute_path))
    for e in errors:
        print(f"schema: {'/'.join(str(p) for p in e.absolute_path)}: {e.message}")
    codes = {r["ruleId"] for r in report["runs"][0]["results"]}
    print(f"schema: {len(errors)} errors; {len(report['runs'][0]['results'])} results, codes {sorted(codes)}")
    return not errors and len(codes) >= 11


def check_multitool(report_path, work):
    tool = os.path.join(MULTITOOL_DIR, "Sarif.Multitool")
    # npm may skip the package's postinstall (chmod u+x): do it here.
    os.chmod(tool, os.stat(tool).st_mode | stat.S_IXUSR)
    out = report_path + ".validation.sarif"
    env = dict(os.environ, DOTNET_SYSTEM_GLOBALIZATION_INVARIANT="1")
    p = subprocess.run([tool, "validate", report_path, "-o", out], env=env, capture_output=True, text=True, timeout=300)
    if p.returncode != 0 or not os.path.exists(out):
        print(f"multitool: exit {p.returncode}\n{p.stdout}\n{p.stderr}")
        return False
    with open(out, encoding="utf-8") as f:
        findings = [r for run in json.load(f)["runs"] for r in run.get("results", [])]
    bad = [r for r in findings if r.get("level", "warning") in ("error", "warning")]
    for r in bad:
        args = r.get("message", {}).get("arguments", [])
        print(f"multitool: {r.get('level', 'warning')} {r['ruleId']}: {args}")
    print(f"multitool: {len(bad)} errors or warnings ({len(findings)} findings in all)")
    return not bad


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    tilesight, repo = sys.argv[1], sys.argv[2]
    schema = os.path.join(MULTITOOL_DIR, "sarif-2.1.0.json")
    if not os.path.exists(schema):
        skip("the SARIF Multitool is not installed (scripts/install-deps.sh runs npm ci in tests/sarif)")
    work, report = make_report(tilesight, repo)
    try:
        ok = check_schema(report, schema)
        ok = check_multitool(report, work) and ok
        # The validators must see a broken report as broken, or passing means nothing.
        broken = os.path.join(work, "broken.sarif")
        with open(report, encoding="utf-8") as f:
            log = json.load(f)
        log["runs"][0]["tool"]["driver"]["rules"][0]["name"] = log["runs"][0]["tool"]["driver"]["rules"][0]["id"]
        del log["runs"][0]["results"][0]["message"]
        with open(broken, "w", encoding="utf-8") as f:
            json.dump(log, f)
        print("-- a broken copy (a rule named as its id, a result without a message):")
        if check_schema(broken, schema) or check_multitool(broken, work):
            print("FAIL: a validator accepted the broken copy")
            ok = False
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
