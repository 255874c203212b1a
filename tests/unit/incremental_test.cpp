// reanalyze() (issue 16): after any edit, the reused analysis equals a fresh
// analyze() of the new text in every field the features read: ops, values and
// the side table with their ids and offsets, the item records, the layout
// facts, and the diagnostics with their origins. Seeded random edits inside
// the entries of real kernels and of a generated many-entry program; more
// with TILESIGHT_EDITS=N (edits per kernel) and TILESIGHT_SEED=S.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "analysis/analysis.h"
#include "analysis/ir/printer.h"
#include "bench/program_gen.h"

using namespace tilesight;

namespace {

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string r(Range x) { return "[" + std::to_string(x.begin) + "," + std::to_string(x.end) + ")"; }
std::string t(TypeRef x) { return x ? printType(x) : "?"; }

void dumpAttr(std::ostream& os, const Attr& a) {
  os << "{" << int(a.kind) << r(a.range) << a.i << "/" << a.f << "/" << a.wide << "/" << a.s << "/" << t(a.type);
  for (const Attr& e : a.elems) dumpAttr(os, e);
  for (const AttrEntry& e : a.dict) {
    os << e.key << "=";
    dumpAttr(os, e.value);
  }
  os << "}";
}

// Every field, ids and offsets included; types by spelling, names by text.
std::string dump(const Analysis& a) {
  std::ostringstream os;
  for (const ChunkAnalysis& c : a.chunks) {
    const Program& p = c.parsed.program;
    os << "chunk " << c.chunk.begin << "-" << c.chunk.end << " source " << p.source.size() << "\n";
    for (size_t i = 0; i < p.ops.size(); ++i) {
      const Operation& o = p.ops[i];
      os << "op" << i << " " << o.name << r(o.range) << r(o.nameRange) << " parent " << o.parent << " g" << o.generic
         << " b" << o.broken << " res";
      for (ValueId v : o.results) os << " " << v;
      os << " opnd";
      for (const Operand& x : o.operands) os << " " << x.value << r(x.range);
      os << " seg";
      for (uint32_t n : o.segments) os << " " << n;
      for (const NamedAttr& na : o.attrs) {
        os << " " << na.name << r(na.nameRange);
        dumpAttr(os, na.attr);
      }
      for (const Region& rg : o.regions) {
        os << " region" << r(rg.range);
        for (const Block& b : rg.blocks) {
          os << " block" << r(b.range) << " args";
          for (ValueId v : b.args) os << " " << v;
          os << " ops";
          for (OpId id : b.ops) os << " " << id;
        }
      }
      os << "\n";
    }
    for (size_t i = 0; i < p.values.size(); ++i) {
      const Value& v = p.values[i];
      os << "v" << i << " " << v.name << r(v.range) << " " << t(v.type) << " owner " << v.owner << " #" << v.index
         << (v.blockArg ? " arg" : "") << "\n";
    }
    os << "top";
    for (OpId id : p.topLevel) os << " " << id;
    os << "\n";
    for (const Occurrence& o : c.parsed.side.occurrences)
      os << "occ " << int(o.kind) << o.isDef << r(o.range) << " " << o.value << " " << o.op << " "
         << (o.type ? t(o.type) : "") << "\n";
    for (const ItemParse& it : c.parsed.items)
      os << "item " << it.op << "-" << it.opEnd << " v" << it.valueBegin << "-" << it.valueEnd << " s" << it.sideBegin
         << "-" << it.sideEnd << " ok" << it.ok << "\n";
    for (const AliasDef& d : c.parsed.aliases) {
      os << "alias " << d.name << r(d.nameRange);
      dumpAttr(os, d.value);
      os << "\n";
    }
    for (const LayoutAliasFact& f : c.layouts) os << "layout " << f.name << r(f.nameRange) << r(f.bodyRange) << "\n";
  }
  auto diags = [&](const char* what, const std::vector<Diagnostic>& ds) {
    for (const Diagnostic& d : ds) {
      os << what << r(d.range) << int(d.severity) << d.code << ": " << d.message;
      for (const RelatedNote& n : d.notes) os << " | note" << r(n.range) << n.message;
      for (const Fix& f : d.fixes) {
        os << " | fix " << f.title;
        for (const TextEdit& e : f.edits) os << r(e.range) << e.newText;
      }
      os << "\n";
    }
  };
  diags("diag", a.diagnostics);
  diags("found", a.found);
  for (const DiagOrigin& o : a.origins) os << "origin " << o.item << "/" << int(o.pass) << "\n";
  return os.str();
}

// One random edit inside the body of a random entry: a changed digit or
// name, a deleted, duplicated or inserted line, a stray token, a brace.
std::string randomEdit(const std::string& text, std::mt19937& rng) {
  std::vector<size_t> lines;  // starts of lines that hold an op inside an entry (indented 4+)
  for (size_t i = 0; i < text.size();) {
    size_t e = text.find('\n', i);
    if (e == std::string::npos) e = text.size();
    if (text.compare(i, 4, "    ") == 0) lines.push_back(i);
    i = e + 1;
  }
  if (lines.empty()) return text;
  size_t at = lines[rng() % lines.size()];
  size_t end = text.find('\n', at);
  std::string line = text.substr(at, end - at);
  std::string out = text;
  // Braces that unbalance an entry are rarer than the edits of typing.
  unsigned kind = rng() % 40;
  switch (kind < 32 ? kind % 6 : kind < 36 ? 6 : kind < 38 ? 7 : 8) {
    case 0: {  // a digit changes
      size_t d = line.find_first_of("0123456789");
      if (d != std::string::npos) out[at + d] = static_cast<char>('0' + rng() % 10);
      break;
    }
    case 1: out.erase(at, end - at + 1); break;                             // the line goes
    case 2: out.insert(at, line + "\n"); break;                             // the line twice
    case 3: out.insert(at + line.size() / 2, " %"); break;                  // a stray token
    case 4: out.insert(at, "    %extra = constant <i32: 7> : tile<i32>\n"); break;
    case 5: out.insert(at + line.size(), "  // tilesight: ignore race"); break;
    case 6: out.insert(at, "    }\n"); break;                               // an early brace
    case 7: {  // a value renamed at its definition
      size_t v = line.find('%');
      if (v != std::string::npos) out.insert(at + v + 1, "x");
      break;
    }
    default: out.insert(at + line.size(), " {"); break;                    // an open brace
  }
  return out;
}

struct Tally {
  int reused = 0, edits = 0;
};

void checkEdits(const std::string& name, std::string text, const AnalyzeOptions& options, int count, unsigned seed,
                Tally& tally) {
  std::mt19937 rng(seed);
  const std::string original = text;
  Analysis current = analyze(text, options);
  for (int i = 0; i < count; ++i) {
    // Every tenth edit starts again from the original text, so that broken
    // states do not pile up (that edit is a whole-file change: no reuse).
    std::string next = i % 10 == 9 ? original : randomEdit(text, rng);
    Analysis fresh = analyze(next, options);
    std::optional<Analysis> reused = reanalyze(std::move(current), text, next, options);
    ++tally.edits;
    if (reused) {
      ++tally.reused;
      std::string want = dump(fresh), got = dump(*reused);
      if (want != got) {
        size_t at = std::mismatch(want.begin(), want.end(), got.begin(), got.end()).first - want.begin();
        size_t line = want.rfind('\n', at);
        line = line == std::string::npos ? 0 : line + 1;
        FAIL() << name << " edit " << i << " (seed " << seed << "): the reused analysis differs from a fresh one at\n"
               << "fresh:  " << want.substr(line, 300) << "\nreused: " << got.substr(line, 300);
      }
      current = std::move(*reused);
    } else {
      current = std::move(fresh);
    }
    text = std::move(next);
  }
}

}  // namespace

TEST(Reanalyze, EqualsAFreshAnalysisAfterRandomEditsInRealKernels) {
  Tally tally;
  unsigned seed = 1;
  std::string dir = std::string(TILESIGHT_TESTS_DIR) + "/corpus/real";
  std::vector<std::string> files;
  for (const auto& f : std::filesystem::directory_iterator(dir))
    if (f.path().extension() == ".tile") files.push_back(f.path().string());
  std::sort(files.begin(), files.end());
  ASSERT_GE(files.size(), 40u);
  AnalyzeOptions options;
  options.checks.grid = std::array<int64_t, 3>{4, 2, 1};
  int perFile = std::getenv("TILESIGHT_EDITS") ? std::atoi(std::getenv("TILESIGHT_EDITS")) : 12;
  seed = std::getenv("TILESIGHT_SEED") ? static_cast<unsigned>(std::atoi(std::getenv("TILESIGHT_SEED"))) : seed;
  for (const std::string& f : files) checkEdits(f, readFile(f), options, perFile, seed++, tally);
  // Most edits stay inside one entry and parse: reuse must be the rule, not the exception.
  EXPECT_GT(tally.reused * 2, tally.edits) << tally.reused << " of " << tally.edits << " edits reused";
  std::printf("%d of %d edits reused\n", tally.reused, tally.edits);
}

// What the language server relies on to read one entry alone (hover,
// semantic token segments): an item that parsed cleanly recorded exactly
// the occurrences and ops that lie in its text.
TEST(ModuleItems, ACleanItemsRunsAreExactlyWhatLiesInItsText) {
  std::vector<std::string> texts = {bench::generateProgram(2000, bench::Form::Custom, 20)};
  for (const auto& f : std::filesystem::directory_iterator(std::string(TILESIGHT_TESTS_DIR) + "/corpus/real"))
    if (f.path().extension() == ".tile") texts.push_back(readFile(f.path().string()));
  size_t checked = 0;
  for (const std::string& text : texts) {
    Analysis a = analyze(text);
    const ParseResult& pr = a.chunks[0].parsed;
    for (const ItemParse& item : pr.items) {
      if (!item.ok || item.op == kNoId) continue;
      ++checked;
      Range r = pr.program.op(item.op).range;
      auto inside = [&](Range x) { return x.begin >= r.begin && x.end <= r.end; };
      for (uint32_t i = 0; i < pr.side.occurrences.size(); ++i) {
        bool inRun = i >= item.sideBegin && i < item.sideEnd;
        ASSERT_EQ(inRun, inside(pr.side.occurrences[i].range)) << "occurrence " << i;
      }
      for (OpId id = 0; id < pr.program.ops.size(); ++id) {
        Range name = pr.program.op(id).nameRange;
        if (name.end == name.begin) continue;
        ASSERT_EQ(id >= item.op && id < item.opEnd, inside(name)) << "op " << id;
      }
    }
  }
  EXPECT_GT(checked, 60u);
}

TEST(Reanalyze, EqualsAFreshAnalysisInAManyEntryProgram) {
  Tally tally;
  std::string text = bench::generateProgram(2000, bench::Form::Custom, 20);
  checkEdits("generated", text, {}, 60, 7, tally);
  EXPECT_GT(tally.reused * 2, tally.edits) << tally.reused << " of " << tally.edits << " edits reused";
  std::printf("%d of %d edits reused\n", tally.reused, tally.edits);
}

TEST(Reanalyze, DeclinesWhatItCannotReuse) {
  std::string text = bench::generateProgram(200, bench::Form::Custom, 2);
  Analysis a = analyze(text);
  // An edit of the module's header, not inside an entry.
  std::string header = text;
  header.insert(header.find('@') + 1, "x");
  EXPECT_FALSE(reanalyze(analyze(text), text, header, {}));
  // Split files are analysed chunk by chunk.
  AnalyzeOptions split;
  split.splitInputFile = true;
  EXPECT_FALSE(reanalyze(analyze(text, split), text, text + " ", split));
  // A brace that closes the entry early changes where it ends.
  std::string brace = text;
  brace.insert(brace.find("    %v1 ="), "  }\n");
  EXPECT_FALSE(reanalyze(std::move(a), text, brace, {}));
}
