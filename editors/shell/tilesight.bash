# bash completion for tilesight (installed to share/bash-completion/completions/tilesight).
# Subcommands, each one's options and values; diagnostic codes come from `tilesight explain`.
_tilesight() {
  local cur prev words cword
  _init_completion -n = || return
  local commands="check layout lsp run emit translate devices record explain help"
  if [[ $cword -eq 1 ]]; then
    COMPREPLY=($(compgen -W "$commands --help --version" -- "$cur"))
    return
  fi
  local cmd=${words[1]} opts=""
  case $cmd in
    check) opts="--format= --Werror --fix --color= --grid= --arg= --assume-aliasing --prove --disable= --launch= --split-input-file
                 --verify-diagnostics --layout-budget= --no-config --python= --help" ;;
    layout) opts="--format= --at= --max-cells= --banks= --element-bytes= --help" ;;
    lsp) opts="--stdio --listen= --log= --help" ;;
    run) opts="--entry= --grid= --device= --arg= --out= --sanitize --check --format= --repeat= --arch=
               --no-tensor-cores --threads= --deterministic --max-loop-iterations= --line= --inputs= --python=
               --source-on-stdin --help" ;;
    emit) opts="--entry= --target= --arch= --no-tensor-cores -o --help" ;;
    translate) opts="--to= --locations -o --help" ;;
    devices) opts="--format= --help" ;;
    record) opts="--out= --help" ;;
    explain) COMPREPLY=($(compgen -W "$(tilesight explain 2>/dev/null | awk 'NR > 1 { print $1 }')" -- "$cur")); return ;;
    help) COMPREPLY=($(compgen -W "$commands" -- "$cur")); return ;;
  esac
  if [[ $cur == --*=* ]]; then
    local opt=${cur%%=*} val=${cur#*=} values=""
    case "$cmd $opt" in
      "check --format") values="text json sarif" ;;
      "check --color") values="auto always never" ;;
      "check --disable") values=$(tilesight explain 2>/dev/null | awk 'NR > 1 { print $1 }') ;;
      "layout --format") values="text table markdown json svg latex png" ;;
      "lsp --log") values="error info verbose" ;;
      "run --format" | "devices --format") values="text json" ;;
      "run --device") values="auto cpu cuda cuda:0 hip hip:0 opencl opencl:0" ;;
      "emit --target") values="cuda hip opencl" ;;
      "translate --to") values="text bytecode" ;;
      "run --inputs") values="zeros random" ;;
    esac
    COMPREPLY=($(compgen -W "$values" -- "$val"))
    return
  fi
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
    [[ ${COMPREPLY[0]-} == *= ]] && compopt -o nospace
    return
  fi
  _filedir '@(tile|mlir)'
}
complete -F _tilesight tilesight
