" CUDA Tile IR (the cuda_tile MLIR dialect's text form): a small syntax file
" so that files read well before, or without, the server's semantic tokens.
if exists('b:current_syntax')
  finish
endif

syntax match tileirNumber '\v<\d+>'
syntax match tileirNumber '\v<0x\x+>'
syntax match tileirNumber '\v-?<\d+\.\d*([eE][-+]?\d+)?>'
syntax keyword tileirBoolean true false

" Element types, alone or after a shape (4x8xf16); defined after the numbers
" so that `4x8xf16` is one type, not a number followed by letters.
syntax match tileirType
      \ '\v<(\d+x)*(i1|i8|i16|i32|i64|f16|bf16|f32|tf32|f64|f8E4M3FN|f8E5M2|f8E8M0FNU)>'
syntax match tileirType '\v<(tile|ptr|tensor_view|partition_view|token)>'
syntax match tileirType '\v!cuda_tile\.\w+'

" An op is the first word of a line (`return`, `entry @k(...)`,
" `cuda_tile.module @m {`) or the word after `%results =`.
syntax match tileirOp '\v^\s*\zs\h[[:alnum:]_.]*\ze(\s|$)'
syntax match tileirOp '\v(\%[[:alnum:]_$.#-]+\s*\=\s*)@<=\h[[:alnum:]_.]*'
syntax keyword tileirKeyword in to step iter_values

syntax match tileirValue '\v\%[[:alnum:]_$.#-]+'
syntax match tileirSymbol '\v\@[[:alnum:]_$.]+'
syntax region tileirSymbol start='@"' skip='\\"' end='"' oneline
syntax match tileirAlias '\v#\h[[:alnum:]_$.]*'
syntax region tileirString start='"' skip='\\"' end='"' oneline
syntax match tileirComment '//.*$' contains=@Spell

highlight default link tileirComment Comment
highlight default link tileirNumber Number
highlight default link tileirBoolean Boolean
highlight default link tileirType Type
highlight default link tileirOp Statement
highlight default link tileirKeyword Keyword
highlight default link tileirValue Identifier
highlight default link tileirSymbol Function
highlight default link tileirAlias PreProc
highlight default link tileirString String

let b:current_syntax = 'tileir'
