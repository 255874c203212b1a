-- e2e.nvim: Neovim's own LSP client, with editors/nvim configured as a user
-- would, against the real `tilesight lsp`. Run by run.sh, which puts the
-- plugin on the runtimepath and gives a scratch directory:
--   TILESIGHT_BINARY  the server executable
--   TILESIGHT_E2E_DIR an empty directory this test may write into
-- Exits 0 when every check passed, 1 with a FAIL line otherwise.

local WAIT_MS = 20000

local function say(line)
  -- print() goes to stderr in headless mode; the checks belong on stdout.
  io.stdout:write(line .. '\n')
  io.stdout:flush()
end

local function check(ok, what, detail)
  if not ok then
    error(what .. (detail and (': ' .. detail) or ''), 0)
  end
  say('ok: ' .. what)
end

local function json(v)
  return vim.fn.json_encode(v)
end

local here = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h')
local binary = assert(os.getenv('TILESIGHT_BINARY'), 'TILESIGHT_BINARY')
local scratch = assert(os.getenv('TILESIGHT_E2E_DIR'), 'TILESIGHT_E2E_DIR')

-- Positions in sample.tile (0-based lines, byte columns).
local ALIAS = { 3, 1 } -- inside `#sA` on its definition line
local N_DEF = { 5, 22 } -- `%n` in `entry @"kérnel→"(%n: ...)`
local N_USE = { 7, 14 } -- the first `%n` in `%d = addi %n, %n`

local function clients_of(buf)
  if vim.lsp.get_clients then -- 0.10
    return vim.lsp.get_clients({ bufnr = buf })
  end
  return vim.tbl_values(vim.lsp.buf_get_clients(buf))
end

-- An LSP position (line, character in the client's encoding) as a byte
-- column of the buffer.
local function byte_col(buf, client, pos)
  local text = vim.api.nvim_buf_get_lines(buf, pos.line, pos.line + 1, true)[1]
  if client.offset_encoding == 'utf-8' then
    return pos.character
  end
  return vim.str_byteindex(text, pos.character,
    client.offset_encoding == 'utf-16')
end

local function request(buf, method, at)
  vim.api.nvim_win_set_cursor(0, { at[1] + 1, at[2] })
  local client = clients_of(buf)[1]
  local params = vim.lsp.util.make_position_params(0, client.offset_encoding)
  local replies, err = vim.lsp.buf_request_sync(buf, method, params, WAIT_MS)
  local reply = replies and replies[client.id]
  check(reply and reply.error == nil and reply.result ~= nil,
    string.format('%s at %d:%d answered', method, at[1] + 1, at[2] + 1),
    err or json(reply and (reply.error or reply.result)))
  return reply.result
end

local function write(path, lines)
  vim.fn.mkdir(vim.fn.fnamemodify(path, ':h'), 'p')
  assert(vim.fn.writefile(lines, path) == 0, 'cannot write ' .. path)
end

-- Filetype detection, before setup() so that no server starts for these.
local function check_detection()
  local with = scratch .. '/with_module.mlir'
  local without = scratch .. '/plain.mlir'
  write(with, { '// a header', 'cuda_tile.module @m {', '}' })
  write(without, { 'func.func @f() {', '  return', '}' })
  for _, case in ipairs({ { with, true }, { without, false } }) do
    vim.cmd('edit ' .. vim.fn.fnameescape(case[1]))
    local ft = vim.bo.filetype
    check((ft == 'tileir') == case[2], vim.fn.fnamemodify(case[1], ':t')
      .. ' has filetype ' .. (ft == '' and '(none)' or ft))
    vim.cmd('bwipeout!')
  end
end

local function check_diagnostics(buf)
  local function expected(d)
    return d.lnum == 6 and d.col == 29 and d.code == 'type'
      and d.source == 'tilesight'
      and d.severity == vim.diagnostic.severity.ERROR
      and d.message:find('tile dimensions must be powers of two', 1, true)
  end
  local got = vim.wait(WAIT_MS, function()
    local ds = vim.diagnostic.get(buf)
    return #ds == 1 and expected(ds[1])
  end, 20)
  check(got, 'one diagnostic: 7:30 error [type] tile dimensions must be '
    .. 'powers of two', 'got ' .. json(vim.diagnostic.get(buf)))
end

local function check_hover(buf, client)
  local result = request(buf, 'textDocument/hover', ALIAS)
  local md = result.contents.value or ''
  check(result.contents.kind == 'markdown', 'hover is markdown')
  local grid = table.concat({
    '|   | 0 | 1 |',
    '|---|---|---|',
    '| **0** | 0 | 1 |',
    '| **1** | 2 | 3 |',
    '| **2** | 4 | 5 |',
    '| **3** | 6 | 7 |',
  }, '\n')
  check(md:find('**#sA** = `#layout<(4,2):(2,1)>`', 1, true) ~= nil,
    'hover on #sA names the alias', md)
  check(md:find(grid, 1, true) ~= nil, 'hover on #sA has the layout table', md)

  -- After é and → the byte and UTF-16 columns differ: both directions of
  -- the conversion are exercised.
  result = request(buf, 'textDocument/hover', N_DEF)
  check((result.contents.value or ''):find('**%n**', 1, true) ~= nil,
    'hover on %n after multi-byte characters', json(result))
  check(result.range and result.range.start.line == N_DEF[1]
    and byte_col(buf, client, result.range.start) == N_DEF[2],
    'its range starts at byte column ' .. N_DEF[2], json(result.range))
end

local function check_definition(buf, client)
  local result = request(buf, 'textDocument/definition', N_USE)
  -- Location, Location[] or LocationLink[].
  local loc = result.uri and result or result[1]
  check(loc ~= nil, 'definition found', json(result))
  local uri = loc.targetUri or loc.uri
  local range = loc.targetSelectionRange or loc.range
  check(uri == vim.uri_from_bufnr(buf), 'definition is in the same file', uri)
  check(range.start.line == N_DEF[1]
    and byte_col(buf, client, range.start) == N_DEF[2],
    string.format('definition of %%n at line %d, byte column %d',
      N_DEF[1] + 1, N_DEF[2]), json(range))
end

-- Rename %n from a use: Neovim asks prepareRename, then applies the
-- WorkspaceEdit to the buffer (the argument and both uses on each line).
local function check_rename(buf)
  vim.api.nvim_win_set_cursor(0, { N_USE[1] + 1, N_USE[2] })
  vim.lsp.buf.rename('%count')
  local function line(n)
    return vim.api.nvim_buf_get_lines(buf, n, n + 1, true)[1]
  end
  check(vim.wait(WAIT_MS, function()
    return line(N_USE[1]):find('%d = addi %count, %count', 1, true) ~= nil
  end, 20), 'rename %n to %count: both uses in `addi`', line(N_USE[1]))
  check(line(N_DEF[1]):find('(%count: tile<i32>)', 1, true) ~= nil,
    'and the block argument', line(N_DEF[1]))
  check(line(N_USE[1] + 1):find('muli %d, %count', 1, true) ~= nil,
    'and the use in `muli`', line(N_USE[1] + 1))
end

-- The report buffer :TilesightRun opens, once it is there.
local function wait_report()
  local found
  vim.wait(WAIT_MS, function()
    for _, b in ipairs(vim.api.nvim_list_bufs()) do
      local ok, mark = pcall(vim.api.nvim_buf_get_var, b, 'tilesight_run_report')
      if ok and mark then
        found = b
        return true
      end
    end
    return false
  end, 50)
  check(found ~= nil, 'a run report opened')
  local text = table.concat(vim.api.nvim_buf_get_lines(found, 0, -1, false), '\n')
  vim.cmd('bwipeout! ' .. found)
  return text
end

local function fmt(x)
  return string.format('%.6g', x)
end

-- :TilesightRun on the cpu and, where OpenCL is (PoCL in CI), on opencl:0;
-- the report's figures are `tilesight run --format=json`'s; then the
-- sanitizer's findings arrive as diagnostics of source "tilesight run".
local function check_run(project)
  local file = project .. '/src/add.tile'
  write(file, vim.fn.readfile(here .. '/run.tile'))
  vim.cmd('edit ' .. vim.fn.fnameescape(file))
  local buf = vim.api.nvim_get_current_buf()
  check(vim.wait(WAIT_MS, function()
    return #clients_of(buf) == 1
  end, 20), 'the client attached to add.tile')
  vim.api.nvim_win_set_cursor(0, { 4, 0 })
  vim.cmd('TilesightRun cpu')
  local report = wait_report()
  check(report:find('### tilesight run: `add` on cpu', 1, true) ~= nil, 'the report names the entry and device',
    report)
  local cli = vim.fn.json_decode(vim.fn.system({ binary, 'run', file, '--format=json', '--device=cpu', '--grid=4',
    '--arg=a=rand:64:f32:1', '--arg=b=rand:64:f32:2', '--arg=c=zeros:64:f32' }))
  local c = cli.outputs[3]
  local row = string.format('| c | 64 | f32 | %s | %s | %s |', fmt(c.min), fmt(c.max), fmt(c.mean))
  check(report:find(row, 1, true) ~= nil, "the report's row of c is tilesight run's", row .. '\n' .. report)

  local devices = vim.fn.json_decode(vim.fn.system({ binary, 'devices', '--format=json' })).devices
  local opencl = false
  for _, d in ipairs(devices) do
    opencl = opencl or d.backend == 'opencl'
  end
  if opencl then
    vim.cmd('TilesightRun opencl:0')
    report = wait_report()
    check(report:find('on opencl:0', 1, true) ~= nil and report:find('max error vs CPU', 1, true) ~= nil,
      'a run on opencl:0 reports its error against the CPU reference', report)
  elseif os.getenv('TILESIGHT_REQUIRE_E2E') == '1' then
    error('no OpenCL device for the opencl run, and TILESIGHT_REQUIRE_E2E=1', 0)
  else
    say('skip: the opencl run (no OpenCL device: install pocl-opencl-icd)')
  end

  -- One block too many: block (4, 0, 0) reads past the views.
  vim.api.nvim_buf_set_lines(buf, 0, 1, false,
    { '// tilesight-run: --grid 5 --check --arg a=rand:64:f32:1 --arg b=rand:64:f32:2 --arg c=zeros:64:f32' })
  vim.cmd('TilesightSanitize')
  wait_report()
  local findings
  check(vim.wait(WAIT_MS, function()
    findings = vim.tbl_filter(function(d)
      return d.source == 'tilesight run'
    end, vim.diagnostic.get(buf))
    return #findings > 0
  end, 50), 'the sanitizer findings are diagnostics of source "tilesight run"')
  check(findings[1].message:find('tile block (4, 0, 0)', 1, true) ~= nil, 'a finding names its tile block',
    findings[1].message)
  vim.cmd('bwipeout!')
end

-- A cuTile bytecode file of the corpus (its buggy twin, with the launch file
-- beside it): the buffer shows the text form, read-only; the server's
-- diagnostic of the bug carries the Python line, and hover works on an op.
-- A cuTile Python file (docs/cutile.md): the buffer attaches because it has a
-- launch directive; the race comes as a diagnostic on the store's line; hover
-- on the ct.load line shows the view's tile grid for the launch; the code
-- lens "▶ Run on cpu" runs the launch and its report opens. Needs cuTile in
-- the server's Python (TILESIGHT_CUTILE_PKG, as ctest's cutile fixture
-- builds it); without it this part says why and is left out.
local CUTILE_KERNEL = {
  'import cuda.tile as ct',
  '',
  '',
  '# tilesight: launch grid=(4,) x=f32[32,128] idx=i32[32] TM=8 TN=128',
  '@ct.kernel',
  'def argmax_rows(x, idx, TM: ct.Constant[int], TN: ct.Constant[int]):',
  '    bm = ct.bid(0)',
  '    t = ct.load(x, index=(bm, 0), shape=(TM, TN))',
  '    ct.store(idx, index=(0,), tile=ct.argmax(t, axis=1).astype(ct.int32))',
}
local CUTILE_LOAD, CUTILE_STORE, CUTILE_DIRECTIVE = 7, 8, 3 -- 0-based lines

local function check_cutile(project)
  local python = os.getenv('TILESIGHT_PYTHON') or 'python3'
  vim.fn.system({ python, '-c', 'import cuda.tile' })
  if vim.v.shell_error ~= 0 then
    if os.getenv('TILESIGHT_REQUIRE_CUTILE') == '1' then
      error('cuda.tile is not importable by ' .. python .. ' and TILESIGHT_REQUIRE_CUTILE=1', 0)
    end
    say('skip: the cuTile part: cuda.tile is not importable by ' .. python .. ' (set TILESIGHT_CUTILE_PKG)')
    return
  end
  local file = project .. '/argmax.py'
  write(file, CUTILE_KERNEL)
  vim.cmd('edit ' .. vim.fn.fnameescape(file))
  local buf = vim.api.nvim_get_current_buf()
  check(#clients_of(buf) == 1, 'a Python buffer with a directive attaches')
  local race
  vim.wait(60000, function()
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      if d.code == 'race.unordered' then
        race = d
        return true
      end
    end
    return false
  end, 50)
  check(race ~= nil and race.lnum == CUTILE_STORE, 'the race on the store line of the .py',
    race and json({ race.lnum, race.message }) or json(vim.diagnostic.get(buf)))
  local hover = request(buf, 'textDocument/hover', { CUTILE_LOAD, 10 })
  local text = hover.contents.value or ''
  check(text:find('load_view_tko', 1, true) and text:find('(3,0)', 1, true)
    and text:find('element offset each tile starts at', 1, true) ~= nil,
    "hover on the ct.load line: the view's tile grid and offsets for the launch", text)
  local client = clients_of(buf)[1]
  local replies = vim.lsp.buf_request_sync(buf, 'textDocument/codeLens',
    { textDocument = vim.lsp.util.make_text_document_params(buf) }, WAIT_MS)
  local lenses = replies and replies[client.id] and replies[client.id].result or {}
  local run_lens
  for _, l in ipairs(lenses) do
    if l.command.title == '▶ Run on cpu' and l.range.start.line == CUTILE_DIRECTIVE then
      run_lens = l
    end
  end
  check(run_lens ~= nil, 'a "▶ Run on cpu" lens on the directive', json(lenses))
  -- What vim.lsp.codelens.run() calls for the lens under the cursor.
  vim.lsp.commands[run_lens.command.command](run_lens.command, { bufnr = buf, client_id = client.id })
  local report = wait_report()
  check(report:find('argmax_rows', 1, true) ~= nil, 'the lens ran the launch and its report opened', report)
end

local function check_bytecode()
  local bugs = vim.fn.fnamemodify(here .. '/../../corpus/cutile/bugs', ':p'):gsub('/$', '')
  local file = bugs .. '/argmax_rows_bug1.argmax_rows.13_3.tilebc'
  local bytes = table.concat(vim.fn.readfile(file, 'b'), '\n')
  vim.cmd('edit ' .. vim.fn.fnameescape(file))
  local buf = vim.api.nvim_get_current_buf()
  local first = vim.api.nvim_buf_get_lines(buf, 0, 1, false)[1] or ''
  check(vim.bo.filetype == 'tileir' and first:find('cuda_tile.module', 1, true) ~= nil,
    'a .tilebc opens as its text form, filetype tileir', first)
  check(not vim.bo.modifiable and vim.bo.readonly, 'the text form is read-only')
  local race
  check(vim.wait(WAIT_MS, function()
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      if d.code == 'race.unordered' then
        race = d
      end
    end
    return race ~= nil
  end, 20), 'the bug is a race.unordered diagnostic (the launch file beside it gives the grid)',
    json(vim.diagnostic.get(buf)))
  local lsp = (race.user_data or {}).lsp or {}
  local python
  for _, r in ipairs(lsp.relatedInformation or {}) do
    if r.location.uri == vim.uri_from_fname(bugs .. '/argmax_rows_bug1.py') then
      python = r
    end
  end
  check(python ~= nil and python.location.range.start.line == 10,
    'its related information is line 11 of argmax_rows_bug1.py', json(lsp.relatedInformation))
  local line = vim.api.nvim_buf_get_lines(buf, race.lnum, race.lnum + 1, false)[1]
  local op = line:find('store_view_tko', 1, true)
  check(op ~= nil, 'the diagnostic is on the store_view_tko', line)
  local result = request(buf, 'textDocument/hover', { race.lnum, op })
  check((result.contents.value or ''):find('store_view_tko', 1, true) ~= nil,
    'hover on the op shows its documentation', json(result))
  pcall(vim.cmd, 'write!')
  check(table.concat(vim.fn.readfile(file, 'b'), '\n') == bytes, ':write! leaves the bytecode file as it was')
  vim.cmd('bwipeout!')
end

local function check_stop(client)
  local id = client.id
  vim.lsp.stop_client(id)
  -- The client is forgotten once the server process has exited.
  check(vim.wait(5000, function()
    return vim.lsp.get_client_by_id(id) == nil
  end, 20), 'the server exited after shutdown and exit')
end

local function run()
  local v = vim.version()
  say(string.format('neovim %d.%d.%d', v.major, v.minor, v.patch))
  vim.o.swapfile = false
  check_detection()

  -- A project: its root holds .git, the file is one level down.
  local project = scratch .. '/project'
  vim.fn.mkdir(project .. '/.git', 'p')
  local file = project .. '/src/sample.tile'
  write(file, vim.fn.readfile(here .. '/sample.tile'))

  require('tilesight').setup({
    cmd = { binary, 'lsp' },
    grid = { 8, 4, 1 },
    log_level = 'info',
  })
  vim.cmd('edit ' .. vim.fn.fnameescape(file))
  local buf = vim.api.nvim_get_current_buf()
  check(vim.bo.filetype == 'tileir', 'sample.tile has filetype tileir')

  check_diagnostics(buf)
  local clients = clients_of(buf)
  check(#clients == 1, 'one client attached', tostring(#clients))
  local client = clients[1]
  check(client.config.root_dir == project, 'its root is the project',
    client.config.root_dir)
  check(client.config.init_options.grid[1] == 8,
    'settings passed as init_options')

  check_hover(buf, client)
  check_definition(buf, client)
  check_rename(buf)
  check_run(project)
  check_cutile(project)
  check_bytecode()
  check_stop(client)
end

local ok, problem = xpcall(run, function(e)
  return type(e) == 'string' and e or debug.traceback(tostring(e))
end)
if ok then
  say('PASS')
  vim.cmd('qall!')
else
  say('FAIL: ' .. problem)
  local log = vim.lsp.get_log_path()
  if vim.fn.filereadable(log) == 1 then
    local lines = vim.fn.readfile(log)
    say('--- ' .. log .. ' (last 40 lines)')
    say(table.concat(vim.list_slice(lines, math.max(1, #lines - 39)), '\n'))
  end
  vim.cmd('cquit 1')
end
