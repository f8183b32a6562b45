-- What a ctlpgn buffer gets when the language server attaches to it, on every Neovim from 0.7:
--
-- * Neovim 0.7 to 0.10: what 0.11 gives an LSP buffer by itself: 'omnifunc', 'tagfunc' and
--   'formatexpr' from the server, and the keys K (hover), ]d and [d (next and previous
--   diagnostic), <C-W>d (the diagnostic under the cursor), grr (references), gra (code
--   actions) and gO (outline). An option the user set and a key the user mapped are left alone.
-- * Neovim 0.7 to 0.10, whose 'omnifunc' writes items as plain text: the cursor between the
--   quotes of a tag line just completed, and no preview window left open after completion.
-- * Neovim 0.11 and later: `vim.lsp.completion` for the buffer, which expands the server's
--   snippets (a whole `[Event "…"]` from `[Ev`) and, with `autotrigger`, asks as the trigger
--   characters are typed.
-- * Neovim before 0.11, whose virtual text (on by default) shows a diagnostic without its code:
--   the code before the message; before 0.9, after it in the float too (`K003`), as 0.9 and
--   later do in their float.

local M = {}

local function has(version)
  return vim.fn.has('nvim-' .. version) == 1
end

-- The buffer-local keys of an LSP buffer that Neovim 0.11 maps itself, for older versions:
-- { modes, lhs, action, description }.
M.keys = {
  { 'n', 'K', function() vim.lsp.buf.hover() end, 'Hover: the half-move, whose turn, the PDTL, the board' },
  { 'n', ']d', function() vim.diagnostic.goto_next() end, 'Next diagnostic' },
  { 'n', '[d', function() vim.diagnostic.goto_prev() end, 'Previous diagnostic' },
  { 'n', '<C-W>d', function() vim.diagnostic.open_float() end, 'The diagnostics under the cursor' },
  { 'n', '<C-W><C-D>', function() vim.diagnostic.open_float() end, 'The diagnostics under the cursor' },
  { 'n', 'grr', function() vim.lsp.buf.references() end, 'References to the half-move or hex' },
  { { 'n', 'x' }, 'gra', function() vim.lsp.buf.code_action() end, 'Code actions: quick fixes, conversions' },
  { 'n', 'gO', function() vim.lsp.buf.document_symbol() end, 'Outline: records and move lines' },
}

-- Whether `lhs` is mapped in `mode` for the current buffer, by the user or anyone else.
local function mapped(mode, lhs)
  return vim.fn.maparg(lhs, mode) ~= ''
end

-- The options and keys of an LSP buffer, for Neovim before 0.11.
local function set_defaults(bufnr)
  local options = vim.bo[bufnr]
  if options.omnifunc == '' then
    options.omnifunc = 'v:lua.vim.lsp.omnifunc'
  end
  if options.tagfunc == '' then
    options.tagfunc = 'v:lua.vim.lsp.tagfunc'
  end
  if options.formatexpr == '' then
    options.formatexpr = 'v:lua.vim.lsp.formatexpr()'
  end
  vim.api.nvim_buf_call(bufnr, function()
    for _, key in ipairs(M.keys) do
      local modes, lhs, action, description = unpack(key)
      for _, mode in ipairs(type(modes) == 'table' and modes or { modes }) do
        if not mapped(mode, lhs) then
          vim.keymap.set(mode, lhs, action, { buffer = bufnr, silent = true, desc = 'ctlpgn: ' .. description })
        end
      end
    end
  end)
end

-- 'completeopt' for a buffer whose completion is asked for as the user types: the first item
-- selected but not written in (`noinsert`), so that typing goes on over it and <C-y> takes it,
-- and the menu even for one item. A user's own `noinsert` or `noselect` is kept.
local function completeopt_for_autotrigger(global)
  local parts = vim.split(global, ',', { trimempty = true })
  local present = {}
  for _, part in ipairs(parts) do
    present[part] = true
  end
  if not (present.noinsert or present.noselect) then
    table.insert(parts, 'noinsert')
  end
  if not present.menuone then
    table.insert(parts, 'menuone')
  end
  return table.concat(parts, ',')
end
M.completeopt_for_autotrigger = completeopt_for_autotrigger

local function enable_completion(client, bufnr, completion)
  if not (completion and completion.enable and vim.lsp.completion and vim.lsp.completion.enable) then
    return
  end
  vim.lsp.completion.enable(true, client.id, bufnr, { autotrigger = completion.autotrigger })
  if completion.autotrigger then
    local here = vim.api.nvim_get_option_value('completeopt', { scope = 'local', buf = bufnr })
    if here == '' then
      vim.api.nvim_set_option_value('completeopt', completeopt_for_autotrigger(vim.o.completeopt), { scope = 'local', buf = bufnr })
    end
  end
end

-- Where the cursor goes once a completion item of the server's was written as plain text
-- (Neovim before 0.11 takes no snippets): a whole tag line whose value is to be typed
-- (`[Event ""]`, `[Date "????-??-??"]`) puts it after the opening quote, where the snippet's
-- first placeholder is; anything else leaves it after the text. Returns the byte column, or
-- nil to leave it. `word` is the text written (`Event ""]`: the `[` typed before it stays),
-- `column` the cursor's byte column after it.
function M.column_after_completion(line, column, word, item)
  if type(item) ~= 'table' or item.insertTextFormat == 2 then
    return nil
  end
  local before = line:sub(1, column)
  if word == '' or before:sub(-#word) ~= word then
    return nil
  end
  local start, _, value = before:find('%[[%w_]+ "([^"]*)"%]$')
  if not start or start < column - #word or not value:match('^[?%-]*$') then
    return nil
  end
  return (before:find('"', start, true))
end

-- The preview window, if one is open in the current tab.
local function preview_window()
  for _, win in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
    if vim.wo[win].previewwindow then
      return win
    end
  end
  return nil
end

-- Neovim 0.7 to 0.10 complete with 'omnifunc': the item is written as plain text, the cursor
-- after it, and an item with documentation opens the preview window (`completeopt` holds
-- `preview` by default, and is global before 0.11), which stays open after the completion.
-- Once an item is taken, the cursor goes where the snippet would have put it, and a preview
-- window the completion opened closes.
local function follow_completion(bufnr)
  local group = vim.api.nvim_create_augroup('ctlpgn_completion_' .. bufnr, { clear = true })
  local previewed_before = false
  vim.api.nvim_create_autocmd('InsertEnter', {
    group = group,
    buffer = bufnr,
    callback = function()
      previewed_before = preview_window() ~= nil
    end,
  })
  vim.api.nvim_create_autocmd('CompleteDone', {
    group = group,
    buffer = bufnr,
    callback = function()
      local completed = vim.v.completed_item or {}
      local user_data = type(completed.user_data) == 'table' and completed.user_data or {}
      local item = vim.tbl_get(user_data, 'nvim', 'lsp', 'completion_item')
      if item and completed.word then
        local row, column = unpack(vim.api.nvim_win_get_cursor(0))
        local moved = M.column_after_completion(vim.api.nvim_get_current_line(), column, completed.word, item)
        if moved then
          vim.api.nvim_win_set_cursor(0, { row, moved })
        end
      end
      if not previewed_before then
        -- Windows may not close while the completion holds the text locked.
        vim.schedule(function()
          if preview_window() then
            vim.cmd('pclose')
          end
        end)
      end
    end,
  })
end

-- The namespaces whose diagnostics already show their code.
local coded = {}

-- Before Neovim 0.11 virtual text is on by default and shows a diagnostic without its code:
-- put it before the message (for the client's namespace, following the user's global virtual
-- text setting). Before 0.9 the float shows no code either: put it after the message, as 0.9
-- and later do.
local function show_codes(client)
  if has('0.11') then
    return
  end
  -- The namespace of pushed diagnostics, and from 0.10 that of pulled ones (the server offers
  -- both; 0.10 pulls), which older versions' get_namespace does not tell apart.
  local namespaces = {}
  for _, pulled in ipairs({ false, true }) do
    local namespace = vim.lsp.diagnostic.get_namespace(client.id, pulled)
    if not coded[namespace] then
      coded[namespace] = true
      table.insert(namespaces, namespace)
    end
  end
  if #namespaces == 0 then
    return
  end
  local virtual_text = function()
    local global = vim.diagnostic.config().virtual_text
    if not global then
      return false
    end
    local options = type(global) == 'table' and vim.deepcopy(global) or {}
    local format = options.format
    options.format = function(diagnostic)
      local message = format and format(diagnostic) or diagnostic.message
      return diagnostic.code and (diagnostic.code .. ': ' .. message) or message
    end
    return options
  end
  for _, namespace in ipairs(namespaces) do
    vim.diagnostic.config({ virtual_text = virtual_text }, namespace)
  end
  if has('0.9') then
    return
  end
  local float = vim.diagnostic.config().float
  float = type(float) == 'table' and float or {}
  local format = float.format
  float.format = function(diagnostic)
    local message = format and format(diagnostic) or diagnostic.message
    if coded[diagnostic.namespace] and diagnostic.code then
      return string.format('%s [%s]', message, diagnostic.code)
    end
    return message
  end
  vim.diagnostic.config({ float = float })
end

-- Called for every buffer the ctlpgn client attaches to, with the options of `setup`.
function M.attach(client, bufnr, options)
  options = options or require('ctlpgn').options
  if options.keys and not has('0.11') then
    set_defaults(bufnr)
  end
  if not has('0.11') then
    follow_completion(bufnr)
  end
  enable_completion(client, bufnr, options.completion)
  show_codes(client)
end

-- Neovim 0.8 and later announce every attach with the LspAttach event: following it gives
-- the buffer its keys and completion however the client was started (`setup`, or
-- `vim.lsp.enable('ctlpgn')` alone) and whatever `on_attach` a configuration sets. Returns
-- false on Neovim 0.7, where the client's `on_attach` does it.
function M.follow()
  if vim.fn.has('nvim-0.8') == 0 then
    return false
  end
  vim.api.nvim_create_autocmd('LspAttach', {
    group = vim.api.nvim_create_augroup('ctlpgn_attach', { clear = true }),
    callback = function(event)
      local client = vim.lsp.get_client_by_id(event.data.client_id)
      if client and client.name == 'ctlpgn' then
        M.attach(client, event.buf)
      end
    end,
  })
  return true
end

return M
