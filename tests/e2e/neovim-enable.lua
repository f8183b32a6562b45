-- Neovim 0.11's own way, without the plugin's setup(): with editors/nvim on 'runtimepath',
-- `vim.lsp.enable('ctlpgn')` finds lsp/ctlpgn.lua and starts the server for a ctlpgn buffer.
-- On an older Neovim (no vim.lsp.enable) it records what lsp/ctlpgn.lua returns instead. The
-- user's vim.lsp.config turns the rule checks on; :checkhealth ctlpgn must say so, and say
-- that saving does not format.
-- Writes its observations as JSON to CTLPGN_E2E_OUT; server/tests/neovim.rs judges them.

local server = assert(os.getenv('CTLPGN_SERVER'), 'CTLPGN_SERVER is set')
local plugin = assert(os.getenv('CTLPGN_E2E_PLUGIN'), 'CTLPGN_E2E_PLUGIN is set')
local out_path = assert(os.getenv('CTLPGN_E2E_OUT'), 'CTLPGN_E2E_OUT is set')

local out = { enable = vim.lsp.enable ~= nil }
vim.opt.runtimepath:append(plugin)
-- What Neovim reads from the folder at start-up.
vim.cmd('runtime! ftdetect/*.vim')
vim.cmd('runtime! plugin/ctlpgn.lua')

local ok, failure = pcall(function()
  local config = dofile(plugin .. '/lsp/ctlpgn.lua')
  out.config = { cmd = config.cmd, filetypes = config.filetypes }
  if not out.enable then
    return
  end
  -- The binary under test rather than `ctlpgn` on PATH, and the rule checks on, as a user
  -- of vim.lsp.config writes them (settings.ctlpgn).
  vim.lsp.config('ctlpgn', { cmd = { server, 'lsp' }, settings = { ctlpgn = { rules = { enable = true } } } })
  vim.lsp.enable('ctlpgn')
  vim.cmd('edit errors.ctl-pgn')
  local bufnr = vim.api.nvim_get_current_buf()
  out.filetype = vim.bo[bufnr].filetype
  local found = vim.wait(20000, function()
    return #vim.diagnostic.get(bufnr) > 0
  end, 20)
  out.attached = #vim.lsp.get_clients({ bufnr = bufnr, name = 'ctlpgn' }) == 1
  -- The plugin's completion, through LspAttach: vim.lsp.completion's autocommands for the
  -- buffer, and the buffer's 'completeopt' for autotrigger.
  local ok, autocmds = pcall(vim.api.nvim_get_autocmds, { group = 'nvim.lsp.completion_' .. bufnr })
  out.completion = ok and #autocmds > 0
  out.completeopt = vim.api.nvim_get_option_value('completeopt', { scope = 'local', buf = bufnr })
  out.codes = {}
  if found then
    for _, diagnostic in ipairs(vim.diagnostic.get(bufnr)) do
      table.insert(out.codes, diagnostic.code)
    end
    table.sort(out.codes)
  end

  -- A record the rule checks find fault with (R008), spaced as `ctlpgn fmt` would not space
  -- it: the rule checks are on, and saving does not format (only setup() formats on save).
  vim.cmd('edit rules.ctl-pgn')
  local rules = vim.api.nvim_get_current_buf()
  vim.wait(20000, function()
    return #vim.diagnostic.get(rules) > 0
  end, 20)
  out.rule_codes = {}
  for _, diagnostic in ipairs(vim.diagnostic.get(rules)) do
    table.insert(out.rule_codes, diagnostic.code)
  end
  table.sort(out.rule_codes)
  local before = vim.api.nvim_buf_get_lines(rules, 0, -1, true)
  vim.cmd('write')
  out.formatted_on_save = not vim.deep_equal(before, vim.api.nvim_buf_get_lines(rules, 0, -1, true))

  -- What :checkhealth ctlpgn says of it.
  vim.cmd('checkhealth ctlpgn')
  vim.wait(20000, function()
    return vim.bo.filetype == 'checkhealth' and vim.api.nvim_buf_line_count(0) > 5
  end, 20)
  out.health = vim.api.nvim_buf_get_lines(0, 0, -1, false)
end)
if not ok then
  out.error = tostring(failure)
end

local file = assert(io.open(out_path, 'w'))
file:write(vim.json and vim.json.encode(out) or vim.fn.json_encode(out))
file:close()
vim.cmd('qall!')
