" CUDA Tile IR: every *.tile file, and *.mlir files that hold a
" cuda_tile.module in their first 100 lines (room for a header comment and
" #layout aliases); other MLIR keeps its own filetype. `set filetype=` rather
" than `setfiletype`, so that this wins over a generic mlir detection that
" ran before it.
autocmd BufRead,BufNewFile *.tile set filetype=tileir
autocmd BufRead,BufNewFile *.mlir
      \ if match(getline(1, 100), '\<cuda_tile\.module\>') >= 0
      \ | set filetype=tileir | endif
