#include "analysis/diag/codes.h"

namespace tilesight {

const std::vector<CodeInfo>& diagnosticCodes() {
  static const std::vector<CodeInfo> codes = {
      {"syntax", "The text does not parse",
       "The program is not valid Tile IR text. tilesight recovers at the next operation or closing brace and "
       "keeps checking the rest of the file.", true, true},
      {"type", "A type-system or op rule is broken",
       "A rule of the Tile IR type system (tile shapes, views, pointers, tokens) or an operation's verifier "
       "rule is broken. The message names the rule and the values involved.", true, true},
      {"bounds.index", "A view index is outside the index space",
       "A load or store through a view uses an index that can (warning) or must (error) fall outside the "
       "view's index space, which is undefined behaviour.", true},
      {"bounds.partial-tile", "A load may read past the tensor edge",
       "A view's tiles overhang the tensor and the load reaches the overhang without a padding_value, so the "
       "overhanging elements are unspecified. Add `padding_value = zero` to the view.", false},
      {"layout.overlap", "A store writes two elements to one address",
       "The layout of the destination maps two coordinates of the written tile to the same address: the "
       "store races with itself.", true},
      {"layout.claim", "A layout's expect = ... claim is false",
       "The #layout claims injective, surjective or bijective, and two coordinates (or a gap) prove otherwise.",
       true},
      {"prove.contract", "An entry's launch contract and what is proved (check --prove)",
       "A remark at each entry: the relations between grid and sizes that its accesses need (the host's promise), "
       "and how many of its view accesses are proved in range for every launch, for every launch that keeps the "
       "contract, or for the launch given, and how many are undecided.",
       false},
      {"prove.access", "Whether a view access is proved in range (check --prove)",
       "A remark at each access through a view: in range for every launch, for every launch that keeps the "
       "entry's contract, for the launch given, out of range for a launch that keeps the contract (with that "
       "launch), or undecided and why.",
       false},
      {"layout.invalid", "A layout expression breaks an algebra precondition",
       "A function of the layout algebra was applied to arguments that break its precondition.", true},
      {"subbyte.align", "A sub-byte access is misaligned",
       "An f4E2M1FN or i4 access cannot be byte-aligned, or its contiguity cannot be proved.", true},
      {"race.unordered", "Two accesses race",
       "Two accesses that may overlap, at least one a write, are not ordered by a token chain and are not "
       "morally strong. Thread the token of one into the other.", true},
      {"race.scope", "A scope does not cover both parties",
       "A relaxed/acquire/release pair communicates across tile blocks with a scope that does not include both.",
       true},
      {"suppression.unused", "A suppression comment silences nothing",
       "A `// tilesight: ignore CODE` comment names a code that no diagnostic on its line has (or no code at "
       "all), so it hides nothing and would hide a future finding by surprise. Remove it, or fix the code's "
       "spelling.",
       false},
      {"run.directive", "A run directive cannot configure a run",
       "A `// tilesight-run:` comment holds the options of `tilesight run` for the editor's Run lens: an unknown "
       "option, a malformed value, a path outside the file's folder, or an entry the file does not have.",
       true},
      {"run.fault", "A run stopped",
       "`tilesight run` stopped the kernel: an access outside every buffer of the run, a division by zero, a "
       "failed assert, or a `loop` past the iteration limit. The message names the tile block and the values.",
       true},
      {"run.check", "A device's result differs from the CPU reference",
       "`tilesight run --check` on a GPU ran the CPU reference from the same inputs, and an output differs from "
       "it beyond its format's tolerance (error), or the reference itself stopped (warning).",
       true},
      {"cutile.directive", "A launch directive cannot describe a launch",
       "A `# tilesight: launch` comment in a cuTile Python file (docs/cutile.md) names a parameter the kernel "
       "does not have, misses one, or gives a value that is not an array, list or scalar of its kind.",
       true},
      {"cutile.compile", "cuTile cannot compile the kernel for a directed launch",
       "cuTile's own compiler refused the kernel for the launch a directive describes (a TileTypeError, a "
       "TileSyntaxError, ...): the message is cuTile's, at the place it names.",
       true},
      {"cutile.import", "The Python file cannot be imported",
       "Importing the cuTile Python file to compile its directed launches raised an exception (a syntax error, "
       "a missing module): no launch of the file is checked.",
       true},
      {"cutile.unavailable", "cuTile is not available to compile the file",
       "The language server could not compile a cuTile file's directed launches: no Python interpreter, or "
       "one that cannot import cuda.tile. Set tilesight.python to an interpreter that has cuTile.",
       false},
      {"run.print", "A device's print buffer overflowed",
       "`tilesight run` on a GPU: the kernel printed more than the device's print buffer holds, so the later "
       "prints are missing. `--device cpu` prints them all.",
       false},
  };
  return codes;
}

const CodeInfo* findCode(std::string_view id) {
  for (const auto& c : diagnosticCodes())
    if (c.id == id) return &c;
  return nullptr;
}

bool isLanguageError(const Diagnostic& d) {
  const CodeInfo* code = findCode(d.code);
  return d.severity == Severity::Error && code && code->languageRule;
}

bool codeMatches(std::string_view code, std::string_view pattern) {
  return code == pattern || (code.size() > pattern.size() && code.starts_with(pattern) && code[pattern.size()] == '.');
}

bool isCodeOrPrefix(std::string_view pattern) {
  for (const CodeInfo& c : diagnosticCodes())
    if (codeMatches(c.id, pattern)) return true;
  return false;
}

}  // namespace tilesight
