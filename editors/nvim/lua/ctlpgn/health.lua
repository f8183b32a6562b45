-- :checkhealth ctlpgn: the server's binary (found, and of the version this plugin is written
-- for), the tree-sitter parser and its queries, the clients running and the buffers they
-- serve, and the settings in force: each running client's own (however it was started:
-- setup(), or vim.lsp.config and vim.lsp.enable), and whether saving formats. Works with the
-- health API of each Neovim: `vim.health.start` and `ok`/`warn`/`error`/`info` from 0.10,
-- `vim.health.report_*` in 0.8 and 0.9, the `health#report_*` functions in 0.7.

local M = {}

local function reporter()
  local health = vim.health or {}
  if health.start then
    return health
  end
  if health.report_start then
    return {
      start = health.report_start,
      ok = health.report_ok,
      warn = health.report_warn,
      error = health.report_error,
      info = health.report_info,
    }
  end
  return {
    start = vim.fn['health#report_start'],
    ok = vim.fn['health#report_ok'],
    warn = function(message, advice)
      vim.fn['health#report_warn'](message, advice or {})
    end,
    error = function(message, advice)
      vim.fn['health#report_error'](message, advice or {})
    end,
    info = vim.fn['health#report_info'],
  }
end

-- The clients named ctlpgn, on every Neovim.
local function clients()
  local found = {}
  local all = vim.lsp.get_clients and vim.lsp.get_clients({ name = 'ctlpgn' }) or vim.lsp.get_active_clients()
  for _, client in ipairs(all) do
    if client.name == 'ctlpgn' then
      table.insert(found, client)
    end
  end
  return found
end

local function buffers_of(client)
  local buffers = {}
  for bufnr in pairs(client.attached_buffers or {}) do
    table.insert(buffers, vim.fn.fnamemodify(vim.api.nvim_buf_get_name(bufnr), ':~:.'))
  end
  table.sort(buffers)
  return buffers
end

-- The settings the server is answered when no client runs yet: those of vim.lsp.config
-- (Neovim 0.11 and later, lsp/ctlpgn.lua merged with the user's vim.lsp.config('ctlpgn', …)),
-- else those setup() was given, else the defaults.
local function configured_settings(ctlpgn)
  local ok, lsp_config = pcall(function()
    return vim.lsp.config and vim.lsp.config.ctlpgn
  end)
  if ok and type(lsp_config) == 'table' then
    return {
      cmd = lsp_config.cmd,
      settings = (lsp_config.settings or {}).ctlpgn or lsp_config.init_options or {},
      source = "vim.lsp.config('ctlpgn')",
    }
  end
  return {
    cmd = ctlpgn.options.cmd,
    settings = ctlpgn.options.settings,
    source = ctlpgn.configured and 'setup()' or 'the defaults',
  }
end

-- The server's settings as the client answers them (its `settings.ctlpgn`, which
-- `workspace/configuration` gives the server), the rule checks named first: they are what a
-- user asks about when an R-code shows or does not.
local function report_settings(report, settings, from)
  local rules = type(settings.rules) == 'table' and settings.rules.enable == true
  report.info(string.format('rule checks (R001-R009): %s (%s)', rules and 'on' or 'off', from))
  report.info(string.format('settings (%s): %s', from, vim.fn.json_encode(settings)))
end

-- Whether saving a ctlpgn buffer formats it: setup()'s BufWritePre autocommand is there.
local function format_on_save()
  local ok, autocmds = pcall(vim.api.nvim_get_autocmds, { group = 'ctlpgn', event = 'BufWritePre' })
  return ok and #autocmds > 0
end

function M.check()
  local report = reporter()
  local ctlpgn = require('ctlpgn')
  local options = ctlpgn.options

  report.start('ctlpgn: setup')
  local version = vim.version()
  local running = string.format('%d.%d.%d', version.major, version.minor, version.patch)
  if vim.fn.has('nvim-0.7') == 1 then
    report.ok('Neovim ' .. running)
  else
    report.error('Neovim ' .. running .. ': the plugin needs 0.7 or later')
  end
  if ctlpgn.configured then
    report.ok("require('ctlpgn').setup() was called")
  elseif vim.lsp.enable then
    report.info("require('ctlpgn').setup() was not called: the server starts only through vim.lsp.enable('ctlpgn')")
  else
    report.warn("require('ctlpgn').setup() was not called: nothing starts the server", {
      "Call require('ctlpgn').setup() in your init.lua",
    })
  end

  report.start('ctlpgn: the language server')
  -- The binary of the running client, else the one the configuration names.
  local running_clients = clients()
  local configured = configured_settings(ctlpgn)
  local running_cmd = running_clients[1] and running_clients[1].config and running_clients[1].config.cmd
  local program = (running_cmd or configured.cmd or options.cmd)[1]
  local path = vim.fn.exepath(program)
  if path == '' then
    report.error(string.format("'%s' (the cmd option) was not found", program), {
      'Install it with `cargo install --locked --path server` from the ctlpgn repository',
      'or pass its full path: setup({ cmd = { "/path/to/ctlpgn", "lsp" } })',
    })
  else
    report.ok('found ' .. path)
    local answer = vim.fn.system({ path, '--version' })
    local found = vim.v.shell_error == 0 and answer:match('ctlpgn (%S+)') or nil
    if not found then
      report.error(string.format("'%s --version' did not answer: %s", path, vim.trim(answer)))
    elseif found == ctlpgn.version then
      report.ok('version ' .. found .. ', the version this plugin is written for')
    else
      report.warn(string.format('version %s, but this plugin is written for %s', found, ctlpgn.version), {
        'Install the binary and the plugin from the same checkout of the ctlpgn repository',
      })
    end
  end
  if #running_clients == 0 then
    report.info('no ctlpgn client is running (open a *.ctl-pgn file to start one)')
  end
  for _, client in ipairs(running_clients) do
    local buffers = buffers_of(client)
    local message = string.format('client %d (%s positions) serves %d buffer(s)', client.id, client.offset_encoding, #buffers)
    if #buffers > 0 then
      message = message .. ': ' .. table.concat(buffers, ', ')
    end
    report.ok(message)
  end

  report.start('ctlpgn: colours and folds')
  local parser = vim.api.nvim_get_runtime_file('parser/ctlpgn.so', false)[1]
  if parser then
    report.ok('tree-sitter parser: ' .. parser)
    local queries = vim.api.nvim_get_runtime_file('queries/ctlpgn/highlights.scm', false)[1]
    if queries then
      report.ok('tree-sitter queries: ' .. vim.fn.fnamemodify(queries, ':h'))
    else
      report.warn('the parser is there but not queries/ctlpgn/highlights.scm: put editors/nvim on the runtime path')
    end
  else
    local with = vim.lsp.semantic_tokens and "the server's semantic tokens and syntax/ctlpgn.vim" or 'syntax/ctlpgn.vim'
    report.warn('no tree-sitter parser (parser/ctlpgn.so): colours come from ' .. with .. ', and there are no folds', {
      'Run :CtlpgnInstallParser (it needs a C compiler)',
    })
  end
  if options.treesitter == false then
    report.info('treesitter = false: the parser is not used')
  end

  report.start('ctlpgn: settings')
  if #running_clients == 0 then
    report.info(string.format('cmd: %s (%s)', table.concat(configured.cmd or {}, ' '), configured.source))
    report_settings(report, configured.settings, configured.source)
  end
  for _, client in ipairs(running_clients) do
    local config = client.config or {}
    local from = string.format('client %d', client.id)
    report.info(string.format('cmd: %s (%s)', table.concat(config.cmd or {}, ' '), from))
    report_settings(report, (config.settings or {}).ctlpgn or config.init_options or {}, from)
  end
  local saving = format_on_save()
  if saving then
    report.info(string.format('format on save: on (timeout %d ms)', options.format_timeout))
  elseif ctlpgn.configured then
    report.info('format on save: off (setup() was given format_on_save = false)')
  else
    report.info("format on save: off: setup() was not called, and it is setup() that formats on save (require('ctlpgn').setup() declares the same configuration)")
  end
  if vim.fn.has('nvim-0.11') == 1 then
    local completion = options.completion or {}
    report.info(string.format('completion: %s, autotrigger: %s', tostring(completion.enable), tostring(completion.autotrigger)))
  else
    report.info('keys: ' .. tostring(options.keys) .. ' (omnifunc, tagfunc, formatexpr, K, ]d, [d, <C-W>d, grr, gra, gO)')
  end
end

return M
