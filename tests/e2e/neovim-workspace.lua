-- The problems of a file never opened, as a Neovim user sees them: `setup()` with the server's
-- `diagnostics.workspace` on, one record opened (which starts the server on the working
-- folder), then `:lua vim.diagnostic.setqflist()` and the quickfix window read as it shows.
-- archive/2025/never-opened.ctl-pgn is never edited. Writes its observations as JSON to
-- CTLPGN_E2E_OUT; server/tests/neovim.rs judges them. Runs on Neovim 0.7, 0.10 and 0.11
-- (0.11 pulls an open document's diagnostics and is pushed the others').

local harness = dofile(vim.fn.fnamemodify(os.getenv('CTLPGN_E2E_SCRIPT'), ':h') .. '/harness.lua')
local server, plugin, work = harness.server, harness.plugin, harness.work
local out, wait_for = harness.out, harness.wait_for

harness.start(function()
  harness.load_plugin(plugin)
  require('ctlpgn').setup({
    cmd = { server, 'lsp' },
    settings = { diagnostics = { workspace = true } },
  })
  vim.cmd('edit ' .. vim.fn.fnameescape(work .. '/errors.ctl-pgn'))
  local never_opened = work .. '/archive/2025/never-opened.ctl-pgn'
  -- The server's diagnostics land on a buffer Neovim makes for the file without loading it.
  wait_for('the problems of never-opened.ctl-pgn', function()
    local bufnr = vim.fn.bufnr(never_opened)
    return bufnr > 0 and #vim.diagnostic.get(bufnr) >= 3
  end)
  vim.cmd('lua vim.diagnostic.setqflist()')
  wait_for('the quickfix window', function()
    return vim.bo.buftype == 'quickfix'
  end)
  -- The window as the user reads it, and whether the file was ever loaded into a buffer.
  out.quickfix = vim.api.nvim_buf_get_lines(0, 0, -1, true)
  out.loaded = vim.fn.bufloaded(never_opened) == 1
end)
