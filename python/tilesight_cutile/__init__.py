"""tilesight's bridge to cuTile Python, run in the user's Python with the user's cuTile.

`python3 -m tilesight_cutile compile FILE.py --out DIR` compiles the launches that
`# tilesight: launch ...` comments describe to CUDA Tile IR bytecode and launch files;
`python3 -m tilesight_cutile directives FILE.py` prints those comments parsed (no cuTile needed);
record_site/sitecustomize.py records the launches a running program makes (`tilesight record`).
docs/cutile.md describes all three.
"""
