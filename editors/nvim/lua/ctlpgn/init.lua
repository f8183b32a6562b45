-- Neovim support for CTL-PGN: starts `ctlpgn lsp` for `ctlpgn` buffers, gives them the keys
-- and options of an LSP buffer (ctlpgn.buffer), formats on save, copies the position at the
-- cursor, and turns on tree-sitter highlighting and folding when the parser is installed.
--
-- Two ways of starting a language server exist: `vim.lsp.config` and `vim.lsp.enable` from
-- Neovim 0.11 on, and `vim.lsp.start_client` before (0.7, the version Debian ships, has
-- nothing else). Both are used through the same options, so a configuration written once
-- works on either.

local M = {}

-- The version of the `ctlpgn` binary this plugin is written for (the workspace's version in
-- Cargo.toml, which a test keeps equal); :checkhealth ctlpgn compares the binary's with it.
M.version = '0.1.0'

-- The options `setup` accepts, with their defaults.
local defaults = {
  -- The command that starts the server; `ctlpgn` comes from `cargo install --locked --path server`.
  cmd = { 'ctlpgn', 'lsp' },
  -- The server's `ctlpgn` settings, sent at start-up and answered to `workspace/configuration`.
  settings = {
    rules = { enable = false },
    format = { separators = 'keep', ellipsis = 'keep' },
  },
  -- Format a `*.ctl-pgn` buffer with the server before writing it.
  format_on_save = true,
  -- How long formatting on save may take, in milliseconds, before the buffer is written as it is.
  format_timeout = 2000,
  -- Highlight and fold with the tree-sitter parser when `parser/ctlpgn.so` is on the runtime path
  -- (:CtlpgnInstallParser builds it); without it, colours come from syntax/ctlpgn.vim and, on
  -- Neovim 0.9 and later, from the server's semantic tokens.
  treesitter = true,
  -- On Neovim 0.7 to 0.10, give ctlpgn buffers what 0.11 gives an LSP buffer: 'omnifunc',
  -- 'tagfunc', 'formatexpr' and the keys K, ]d, [d, <C-W>d, grr, gra and gO (never over a
  -- key the user mapped or an option the user set).
  keys = true,
  -- Neovim 0.11 and later: `vim.lsp.completion` for ctlpgn buffers, which expands the
  -- server's snippets; `autotrigger` asks as `[`, `"`, `#`, `@`, a space and a separator
  -- (`-`, `‐`, `×`, `*`) are typed.
  completion = { enable = true, autotrigger = true },
  -- Passed to the client as they are.
  on_attach = nil,
  capabilities = nil,
}

M.options = vim.deepcopy(defaults)

-- Whether `setup` has been called (:checkhealth says so).
M.configured = false

local has_config_api = vim.fn.has('nvim-0.11') == 1
local has_lsp_attach = vim.fn.has('nvim-0.8') == 1

local function notify(message, level)
  vim.notify('ctlpgn: ' .. message, level or vim.log.levels.INFO)
end

-- The ctlpgn client attached to a buffer, if any.
function M.client(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  if vim.lsp.get_clients then
    return vim.lsp.get_clients({ bufnr = bufnr, name = 'ctlpgn' })[1]
  end
  for _, client in pairs(vim.lsp.buf_get_clients(bufnr)) do
    if client.name == 'ctlpgn' then
      return client
    end
  end
  return nil
end

-- A synchronous request through one client. Client methods take `self` from 0.11 on and
-- are plain functions before.
local function request_sync(client, method, params, timeout, bufnr)
  if has_config_api then
    return client:request_sync(method, params, timeout, bufnr)
  end
  return client.request_sync(method, params, timeout, bufnr)
end

-- Formats a buffer with the ctlpgn server only, whatever else is attached.
function M.format(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  local client = M.client(bufnr)
  if not client then
    return
  end
  if vim.lsp.buf.format then
    vim.lsp.buf.format({ bufnr = bufnr, id = client.id, timeout_ms = M.options.format_timeout })
    return
  end
  -- Neovim 0.7: `formatting_sync` would ask which client to use when several can format.
  local params = vim.lsp.util.make_formatting_params()
  params.textDocument = { uri = vim.uri_from_bufnr(bufnr) }
  local response = request_sync(client, 'textDocument/formatting', params, M.options.format_timeout, bufnr)
  if response and response.result then
    vim.lsp.util.apply_text_edits(response.result, bufnr, client.offset_encoding)
  end
end

-- Puts a PDTL in the unnamed register and, when Neovim has a clipboard, in `+`, and echoes it.
function M.copy(pdtl)
  vim.fn.setreg('"', pdtl)
  if vim.fn.has('clipboard') == 1 then
    pcall(vim.fn.setreg, '+', pdtl)
  end
  vim.api.nvim_echo({ { pdtl } }, true, {})
end

-- Asks the server for the PDTL of the position at the cursor and copies it (`M.copy`).
function M.copy_position()
  local bufnr = vim.api.nvim_get_current_buf()
  local client = M.client(bufnr)
  if not client then
    notify('the language server is not running for this buffer', vim.log.levels.ERROR)
    return nil
  end
  local at = vim.lsp.util.make_position_params(0, client.offset_encoding)
  local params = { command = 'ctlpgn.positionAt', arguments = { at.textDocument.uri, at.position } }
  local response, err = request_sync(client, 'workspace/executeCommand', params, 5000, bufnr)
  local problem = err or (response and response.err)
  if problem or not response then
    local message = type(problem) == 'table' and problem.message or tostring(problem)
    notify('the server did not give the position: ' .. message, vim.log.levels.ERROR)
    return nil
  end
  local pdtl = response.result
  if type(pdtl) ~= 'string' then
    notify('no position at the cursor (put it on a half-move that could be replayed)', vim.log.levels.WARN)
    return nil
  end
  M.copy(pdtl)
  return pdtl
end

-- The client's capabilities. Neovim 0.10 offers only UTF-16 positions, and turns a cursor
-- past a multi-byte character (`‐`, `×`, on every move line) into a position at the end of its
-- line: `_str_utfindex_enc` compares the byte column with the line's length in UTF-16 units.
-- Its client takes the encoding the server chooses (`positionEncoding`), and counts UTF-8
-- columns right, so it offers UTF-8 first, as 0.11 does itself.
local function capabilities(given)
  if vim.fn.has('nvim-0.10') == 0 or has_config_api then
    return given
  end
  local offered = given or vim.lsp.protocol.make_client_capabilities()
  return vim.tbl_deep_extend('force', offered, { general = { positionEncodings = { 'utf-8', 'utf-16' } } })
end

-- The client configuration shared by both ways of starting the server.
local function client_config()
  local options = M.options
  return {
    name = 'ctlpgn',
    cmd = options.cmd,
    -- The server reads its options at start-up from here and later from
    -- `workspace/configuration`, which Neovim answers from `settings`.
    init_options = options.settings,
    settings = { ctlpgn = options.settings },
    on_attach = function(client, bufnr)
      -- Neovim 0.8 and later: ctlpgn.buffer follows LspAttach (plugin/ctlpgn.lua).
      if not has_lsp_attach then
        require('ctlpgn.buffer').attach(client, bufnr, M.options)
      end
      if options.on_attach then
        options.on_attach(client, bufnr)
      end
    end,
    capabilities = capabilities(options.capabilities),
  }
end

-- Runs `action` for every buffer of filetype ctlpgn: those opened later, and those opened
-- before `setup` was called (a plugin manager loading it late).
local function for_each_ctlpgn_buffer(group, action)
  vim.api.nvim_create_autocmd('FileType', {
    group = group,
    pattern = 'ctlpgn',
    callback = function(event)
      action(event.buf)
    end,
  })
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(bufnr) and vim.bo[bufnr].filetype == 'ctlpgn' then
      action(bufnr)
    end
  end
end

-- Neovim before 0.11: one client for every ctlpgn buffer (records in different files do not
-- refer to each other), started with the first buffer and started again if it has stopped.
local client_id = nil

local function attach_legacy(bufnr)
  local client = client_id and vim.lsp.get_client_by_id(client_id)
  if not client or client.is_stopped() then
    local config = client_config()
    config.root_dir = vim.fn.getcwd()
    client_id = vim.lsp.start_client(config)
    if not client_id then
      return
    end
  end
  vim.lsp.buf_attach_client(bufnr, client_id)
end

-- Says so when the server's command cannot be run, rather than letting the client fail
-- with an error from deep inside it.
local function check_command()
  local program = M.options.cmd[1]
  if vim.fn.executable(program) == 1 then
    return true
  end
  notify(
    string.format("'%s' was not found; install it with `cargo install --locked --path server` from the ctlpgn repository, or pass `cmd` to setup()", program),
    vim.log.levels.ERROR
  )
  return false
end

-- The configuration `vim.lsp.config` takes (Neovim 0.11+), from the options of `setup` or
-- the defaults; `lsp/ctlpgn.lua` returns it, so that `vim.lsp.enable('ctlpgn')` alone works.
function M.lsp_config()
  local config = client_config()
  config.name = nil
  config.filetypes = { 'ctlpgn' }
  -- The workspace the server is told of (its `diagnostics.workspace` surveys it): the
  -- repository holding the file, else the current folder, as before Neovim 0.11. Markers
  -- alone would leave a folder of games without Git with no workspace at all.
  config.root_dir = function(bufnr, on_dir)
    on_dir(vim.fs.root(bufnr, { '.git' }) or vim.fn.getcwd())
  end
  return config
end

-- Makes `*.ctl-pgn` buffers of filetype ctlpgn, also when this folder was put on the runtime
-- path after start-up (a plugin manager's `config`), when ftdetect/ctlpgn.vim was not read.
local function detect_filetype(group)
  vim.api.nvim_create_autocmd({ 'BufRead', 'BufNewFile' }, {
    group = group,
    pattern = '*.ctl-pgn',
    command = 'setfiletype ctlpgn',
  })
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    local name = vim.api.nvim_buf_get_name(bufnr)
    if vim.api.nvim_buf_is_loaded(bufnr) and vim.bo[bufnr].filetype == '' and name:match('%.ctl%-pgn$') then
      vim.bo[bufnr].filetype = 'ctlpgn'
    end
  end
end

function M.setup(options)
  options = options or {}
  M.options = vim.tbl_deep_extend('force', vim.deepcopy(defaults), options)
  -- Lists are merged index by index; a command is taken whole.
  M.options.cmd = options.cmd or defaults.cmd
  M.configured = true
  local group = vim.api.nvim_create_augroup('ctlpgn', { clear = true })
  -- The commands and colours plugin/ctlpgn.lua defines, for a plugin manager that put this
  -- folder on the runtime path too late for Neovim to read it.
  require('ctlpgn.commands').define()
  require('ctlpgn.highlights').define()
  require('ctlpgn.buffer').follow()
  detect_filetype(group)

  if M.options.treesitter then
    local treesitter = require('ctlpgn.treesitter')
    treesitter.register()
    for_each_ctlpgn_buffer(group, treesitter.start)
  end

  if M.options.format_on_save then
    vim.api.nvim_create_autocmd('BufWritePre', {
      group = group,
      pattern = '*.ctl-pgn',
      callback = function(event)
        M.format(event.buf)
      end,
    })
  end

  if not check_command() then
    return
  end
  if has_config_api then
    vim.lsp.config('ctlpgn', M.lsp_config())
    -- This also starts the server for ctlpgn buffers that are already open.
    vim.lsp.enable('ctlpgn')
  else
    for_each_ctlpgn_buffer(group, attach_legacy)
  end
end

return M
