#pragma once
// Subcommands of the tilesight executable. Each returns the process exit code.

namespace tilesight::cli {

int runCheck();   // options are the llvm::cl options of the `check` subcommand
int runLayout();  // the `layout` subcommand
int runLsp();     // the `lsp` subcommand: the language server
int runRun();     // the `run` subcommand: the CPU reference interpreter
int runDevices(); // the `devices` subcommand: what `run` can use
int runEmit();    // the `emit` subcommand: generated GPU source
int runTranslate();  // the `translate` subcommand: bytecode to text
bool translateCommand();
int runRecord();     // the `record` subcommand: a program's cuTile launches
bool recordCommand();
int runHelp(const char* argv0);  // `help [COMMAND]`: a command's usage
int runExplain();                // `explain [CODE]`: a code's section of docs/checks.md
bool helpCommand();
bool explainCommand();

}  // namespace tilesight::cli
