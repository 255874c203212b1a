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

-- Starts the server for every tileir buffer, now and later. Calling it again
-- replaces the options for clients started afterwards.
function M.setup(opts)
  local merged = vim.tbl_extend('force', defaults, opts or {})
  validate(merged)
  config = merged
  warned = false
  local group = vim.api.nvim_create_augroup('tilesight', { clear = true })
  vim.api.nvim_create_autocmd('FileType', {
    group = group,
    pattern = 'tileir',
    callback = function(args)
      attach(args.buf)
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
