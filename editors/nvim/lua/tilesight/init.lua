-- tilesight for Neovim: starts `tilesight lsp` for tileir buffers, one client
-- per project root. Works on Neovim 0.7 (vim.lsp.start_client and
-- vim.lsp.buf_attach_client) and later (vim.lsp.start).
local M = {}

local defaults = {
  cmd = { 'tilesight', 'lsp' },
  grid = nil, -- the launch grid {x, y, z}
  args = nil, -- integer arguments of the launch by name or position, {n = 512}
  checks = nil, -- codes (or prefixes) to turn off, or {code = false, ...}
  log_level = nil, -- 'error', 'info' or 'verbose'
  debounce_ms = nil, -- quiet time after an edit before analysis starts
  run = nil, -- options of `tilesight run` for entries without a `// tilesight-run:` line
  cutile = true, -- cuTile Python buffers with a `# tilesight: launch` directive (docs/cutile.md)
  python = nil, -- the Python interpreter that has cuTile (default: $TILESIGHT_PYTHON, else python3)
  cutile_idle_ms = nil, -- how long a .py buffer rests after an edit before it compiles again
  on_attach = nil, -- function(client, bufnr), e.g. for key maps
  capabilities = nil, -- client capabilities, e.g. from a completion plugin
}

local config = vim.deepcopy(defaults)
-- root directory -> client id; only for 0.7, as vim.lsp.start reuses a
-- client with the same name and root by itself.
local clients = {}
local warned = false

local function is_log_level(v)
  return v == nil or v == 'error' or v == 'info' or v == 'verbose'
end

-- Raises an error that names the caller of setup().
local function validate(opts)
  local ok, problem = pcall(vim.validate, {
    cmd = { opts.cmd, 'table' },
    grid = { opts.grid, 'table', true },
    args = { opts.args, 'table', true },
    checks = { opts.checks, 'table', true },
    log_level = {
      opts.log_level, is_log_level, "'error', 'info' or 'verbose'",
    },
    debounce_ms = { opts.debounce_ms, 'number', true },
    run = { opts.run, 'string', true },
    cutile = { opts.cutile, 'boolean' },
    python = { opts.python, 'string', true },
    cutile_idle_ms = { opts.cutile_idle_ms, 'number', true },
    on_attach = { opts.on_attach, 'function', true },
    capabilities = { opts.capabilities, 'table', true },
  })
  if ok and type(opts.cmd[1]) ~= 'string' then
    ok, problem = false, 'cmd: expected a list that starts with the executable'
  end
  if not ok then
    error('tilesight.setup: ' .. problem, 3)
  end
end

-- The server's setting names (server/lsp/settings.h); nil ones are left out.
local function server_settings()
  return {
    grid = config.grid,
    args = config.args,
    checks = config.checks,
    logLevel = config.log_level,
    debounceMs = config.debounce_ms,
    run = config.run,
    python = config.python,
    cutileIdleMs = config.cutile_idle_ms,
  }
end

-- The nearest directory holding .git (a folder, or a file in worktrees and
-- submodules), else the file's own directory.
local function root_of(bufnr)
  local name = vim.api.nvim_buf_get_name(bufnr)
  if name == '' then
    return vim.loop.cwd()
  end
  local dir = vim.fn.fnamemodify(name, ':p:h')
  local d = dir
  while not vim.loop.fs_stat(d .. '/.git') do
    local parent = vim.fn.fnamemodify(d, ':h')
    if parent == d then
      return dir
    end
    d = parent
  end
  return d
end

local function on_attach(client, bufnr)
  -- 0.8 and later set omnifunc themselves; 0.7 does not.
  if vim.bo[bufnr].omnifunc == '' then
    vim.bo[bufnr].omnifunc = 'v:lua.vim.lsp.omnifunc'
  end
  if config.on_attach then
    config.on_attach(client, bufnr)
  end
end

local function client_config(root)
  local settings = server_settings()
  local c = {
    name = 'tilesight',
    cmd = config.cmd,
    root_dir = root,
    init_options = settings,
    settings = { tilesight = settings },
    capabilities = config.capabilities,
    on_attach = on_attach,
  }
  if not vim.lsp.start then
    -- 0.8 and later send `settings` after initialize by themselves.
    c.on_init = function(client)
      client.notify('workspace/didChangeConfiguration',
        { settings = client.config.settings })
    end
  end
  return c
end

local function executable()
  if vim.fn.executable(config.cmd[1]) == 1 then
    return true
  end
  if not warned then -- once, not for every buffer
    warned = true
    vim.notify(string.format(
      "tilesight: cannot start the language server: '%s' is not executable. "
        .. 'Put tilesight on PATH, or give its path: '
        .. "require('tilesight').setup({cmd = {'/path/to/tilesight', 'lsp'}})",
      config.cmd[1]), vim.log.levels.ERROR)
  end
  return false
end

local function attach(bufnr)
  if vim.bo[bufnr].buftype ~= '' or not executable() then
    return
  end
  local root = root_of(bufnr)
  if vim.lsp.start then
    -- 0.8 starts for the current buffer; later versions take opts.bufnr.
    vim.api.nvim_buf_call(bufnr, function()
      vim.lsp.start(client_config(root), { bufnr = bufnr })
    end)
    return
  end
  local id = clients[root]
  local client = id and vim.lsp.get_client_by_id(id)
  if not client or client.is_stopped() then
    id = vim.lsp.start_client(client_config(root))
    if not id then -- start_client has reported why
      return
    end
    clients[root] = id
  end
  vim.lsp.buf_attach_client(bufnr, id)
end

-- The tilesight client of a buffer, if one is attached.
local function client_of(bufnr)
  for _, c in pairs(vim.lsp.buf_get_clients(bufnr)) do
    if c.name == 'tilesight' then
      return c
    end
  end
end

-- The entry the cursor is in (or below), else the buffer's first: its name
-- without '@' (quoted names unquoted).
local function entry_at_cursor(bufnr)
  local lines = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
  local cursor = vim.api.nvim_win_get_cursor(0)[1]
  local found, first
  for i, line in ipairs(lines) do
    local name = line:match('^%s*entry%s+@"([^"]+)"') or line:match('^%s*entry%s+@([%w_%.%$%-]+)')
    if name then
      first = first or name
      if i <= cursor then
        found = name
      end
    end
  end
  return found or first
end

-- The run's report (markdown) in a scratch buffer, in a split below.
local function show_report(markdown)
  local buf = vim.api.nvim_create_buf(false, true)
  vim.bo[buf].filetype = 'markdown'
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, vim.split(markdown, '\n', { plain = true }))
  vim.bo[buf].modifiable = false
  vim.cmd('botright split')
  vim.api.nvim_win_set_buf(0, buf)
  vim.api.nvim_buf_set_var(buf, 'tilesight_run_report', true)
  return buf
end

-- The line (1-based) of the `# tilesight: launch` directive at or above the
-- cursor in a cuTile Python buffer, else the buffer's first.
local function directive_at_cursor(bufnr)
  local lines = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
  local cursor = vim.api.nvim_win_get_cursor(0)[1]
  local found, first
  for i, line in ipairs(lines) do
    if line:match('^%s*#%s*tilesight:%s*launch') then
      first = first or i
      if i <= cursor then
        found = i
      end
    end
  end
  return found or first
end

-- Runs the server's tilesight.run with `args` and shows the report.
local function request_run(client, bufnr, args)
  client.request('workspace/executeCommand', { command = 'tilesight.run', arguments = { args } },
    function(err, result)
      if err then
        vim.notify('tilesight: ' .. err.message, vim.log.levels.ERROR)
        return
      end
      show_report(result.report)
    end, bufnr)
end

-- :TilesightRun [device] and :TilesightSanitize: the entry at the cursor
-- runs (the server's tilesight.run command) as its `// tilesight-run:` line
-- or the `run` option configures it; the report opens in a split, the
-- sanitizer's findings show as diagnostics. `device` defaults to the
-- configuration's (auto: the first GPU, else cpu).
function M.run(device, sanitize)
  local bufnr = vim.api.nvim_get_current_buf()
  local client = client_of(bufnr)
  if not client then
    vim.notify('tilesight: no language server is attached to this buffer', vim.log.levels.ERROR)
    return
  end
  local args = { uri = vim.uri_from_bufnr(bufnr), sanitize = sanitize or false }
  if vim.bo[bufnr].filetype == 'python' then -- the launch of the directive at the cursor, on the cpu
    args.line = directive_at_cursor(bufnr)
    args.device = 'cpu'
  else
    args.entry = entry_at_cursor(bufnr)
  end
  if device and device ~= '' then
    args.device = device
  end
  vim.notify(string.format('tilesight: running %s on %s%s…',
    args.entry or (args.line and 'the launch at line ' .. args.line) or 'the entry',
    args.device or 'the configured device', sanitize and ' with the sanitizer' or ''))
  request_run(client, bufnr, args)
end

-- A code lens's tilesight.run (vim.lsp.codelens.run()): the run's report
-- opens as for :TilesightRun.
vim.lsp.commands['tilesight.run'] = function(command, ctx)
  local client = vim.lsp.get_client_by_id(ctx.client_id)
  if client then
    request_run(client, ctx.bufnr, command.arguments[1])
  end
end

-- :TilesightRunCancel: ends this buffer's run.
function M.cancel()
  local bufnr = vim.api.nvim_get_current_buf()
  local client = client_of(bufnr)
  if client then
    client.request('workspace/executeCommand',
      { command = 'tilesight.cancelRun', arguments = { { uri = vim.uri_from_bufnr(bufnr) } } },
      function() end, bufnr)
  end
end

local function define_commands()
  vim.api.nvim_create_user_command('TilesightRun', function(o)
    M.run(o.args)
  end, { nargs = '?', desc = 'tilesight: run the entry at the cursor [on DEVICE]',
    complete = function()
      return { 'cpu', 'auto', 'cuda:0', 'hip:0', 'opencl:0' }
    end })
  vim.api.nvim_create_user_command('TilesightSanitize', function()
    M.run('cpu', true)
  end, { desc = 'tilesight: run the entry at the cursor on the cpu with the sanitizer' })
  vim.api.nvim_create_user_command('TilesightRunCancel', function()
    M.cancel()
  end, { desc = "tilesight: cancel this buffer's run" })
end

-- CUDA Tile IR bytecode (docs/bytecode.md): a buffer shows its text form,
-- from `tilesight translate`, read-only; the server analyzes that text under
-- the file's URI, with the launch file beside it, and locates diagnostics in
-- the Python source too (related information).
local BYTECODE = { '*.tilebc', '*.bytecode', '*.cutile' }

local function is_bytecode(path)
  local f = io.open(path, 'rb')
  if not f then
    return false
  end
  local head = f:read(8)
  f:close()
  return head == '\127TileIR\0'
end

-- BufReadCmd: bytecode as its text form; any other file (a text .tilebc) as it is.
local function read_bytecode(bufnr, path)
  local lines
  if is_bytecode(path) then
    lines = vim.fn.systemlist({ config.cmd[1], 'translate', path })
    if vim.v.shell_error ~= 0 then
      vim.notify('tilesight: cannot show ' .. path .. ' as text: ' .. table.concat(lines, '\n'),
        vim.log.levels.ERROR)
      lines = {}
    end
    vim.b[bufnr].tilesight_bytecode = true
  else
    lines = vim.fn.filereadable(path) == 1 and vim.fn.readfile(path) or {}
  end
  vim.bo[bufnr].modifiable = true
  vim.api.nvim_buf_set_lines(bufnr, 0, -1, false, lines)
  vim.bo[bufnr].modified = false
  if vim.b[bufnr].tilesight_bytecode then
    vim.bo[bufnr].modifiable = false
    vim.bo[bufnr].readonly = true
  end
  vim.bo[bufnr].filetype = 'tileir'
end

-- BufWriteCmd: the text form never goes over the bytecode; a text file is
-- written as usual.
local function write_bytecode(bufnr, path)
  if vim.b[bufnr].tilesight_bytecode then
    vim.notify('tilesight: ' .. path .. ' is bytecode shown as text and is not written; '
      .. 'to keep the text, write it to a .tile file (:saveas NAME.tile)', vim.log.levels.ERROR)
    return
  end
  if vim.fn.writefile(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), path) == 0 then
    vim.bo[bufnr].modified = false
  end
end

-- Whether a Python buffer asks for tilesight: a comment names it, in any
-- spelling (a launch directive, or a misspelt one, which the server reports;
-- other Python files are the user's Python language server's alone).
local function has_directive(bufnr)
  for _, line in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
    if line:lower():match('#.*tilesight') then
      return true
    end
  end
  return false
end

-- Starts the server for every tileir buffer, now and later. Calling it again
-- replaces the options for clients started afterwards.
function M.setup(opts)
  local merged = vim.tbl_extend('force', defaults, opts or {})
  validate(merged)
  config = merged
  warned = false
  define_commands()
  local group = vim.api.nvim_create_augroup('tilesight', { clear = true })
  vim.api.nvim_create_autocmd('FileType', {
    group = group,
    pattern = 'tileir',
    callback = function(args)
      attach(args.buf)
    end,
  })
  if config.cutile then
    -- A Python buffer attaches when it has a directive, or once it is saved with one.
    vim.api.nvim_create_autocmd({ 'FileType', 'BufWritePost' }, {
      group = group,
      pattern = { 'python', '*.py' },
      callback = function(args)
        if vim.bo[args.buf].filetype == 'python' and not client_of(args.buf) and has_directive(args.buf) then
          attach(args.buf)
        end
      end,
    })
  end
  -- nested: the filetype set while reading starts the server (FileType above).
  vim.api.nvim_create_autocmd('BufReadCmd', {
    group = group,
    pattern = BYTECODE,
    nested = true,
    callback = function(args)
      read_bytecode(args.buf, vim.fn.fnamemodify(args.file, ':p'))
    end,
  })
  vim.api.nvim_create_autocmd('BufWriteCmd', {
    group = group,
    pattern = BYTECODE,
    callback = function(args)
      write_bytecode(args.buf, vim.fn.fnamemodify(args.file, ':p'))
    end,
  })
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(bufnr) and vim.bo[bufnr].filetype == 'tileir'
    then
      attach(bufnr)
    end
  end
end

return M
