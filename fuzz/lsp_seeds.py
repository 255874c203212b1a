#!/usr/bin/env python3
"""Writes the client side of each tests/lsp/*.test transcript (its `send` and
`raw` steps, framed) as one libFuzzer seed file, minus the initialize request
that the lsp fuzz target sends itself.
usage: fuzz/lsp_seeds.py TESTS_DIR OUT_DIR"""
import json
import pathlib
import sys


def frame(body: bytes) -> bytes:
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def client_bytes(path: pathlib.Path) -> bytes:
    texts, steps, out = {}, [], b""
    lines = path.read_text(encoding="utf-8").split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("text "):
            end = lines.index("end", i + 1)
            texts[line[5:].strip()] = "\n".join(lines[i + 1:end]) + "\n"
            i = end + 1
            continue
        if line[:1].isspace() and steps:
            steps[-1][1] += "\n" + line
        elif line and not line.startswith("#"):
            kind, _, rest = line.partition(" ")
            steps.append([kind, rest])
        i += 1
    for kind, body in steps:
        if kind == "send":
            for name, text in texts.items():
                body = body.replace("${%s}" % name, json.dumps(text))
            message = json.loads(body)
            if message.get("method") != "initialize":
                out += frame(json.dumps(message).encode())
        elif kind == "raw":
            out += body.encode().decode("unicode_escape").encode("latin-1")
    return out


def main() -> None:
    tests, dest = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    dest.mkdir(parents=True, exist_ok=True)
    for test in sorted(tests.glob("*.test")):
        (dest / test.stem).write_bytes(client_bytes(test))


if __name__ == "__main__":
    main()
