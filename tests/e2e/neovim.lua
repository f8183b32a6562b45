-- Drives a headless Neovim as a user would drive it with the shipped plugin (editors/nvim):
-- opens the fixtures, lets `ctlpgn lsp` attach, hovers, completes, copies a position, edits,
-- and writes with format on save. It checks nothing itself: every observation goes into a
-- JSON file that server/tests/neovim.rs compares with what it expects, so the expectations
-- live in one place. Runs on Neovim 0.7 (Debian's) and 0.11 alike.
--
-- Environment: CTLPGN_SERVER (the ctlpgn binary), CTLPGN_E2E_PLUGIN (editors/nvim),
-- CTLPGN_E2E_WORK (a folder holding copies of the fixtures and `parser/ctlpgn.so`),
-- CTLPGN_E2E_OUT (the JSON file to write).

local server = assert(os.getenv('CTLPGN_SERVER'), 'CTLPGN_SERVER is set')
local plugin = assert(os.getenv('CTLPGN_E2E_PLUGIN'), 'CTLPGN_E2E_PLUGIN is set')
local work = assert(os.getenv('CTLPGN_E2E_WORK'), 'CTLPGN_E2E_WORK is set')
local out_path = assert(os.getenv('CTLPGN_E2E_OUT'), 'CTLPGN_E2E_OUT is set')

-- How long any one step may take before the run gives up (a cold debug server included).
local PATIENCE = 20000

local out = { errors = {} }

-- Runs one step; a step that fails is recorded and the next ones still run, so that one
-- missing feature does not hide what the others do. Steps that later ones depend on are not
-- wrapped: their failure ends the run.
local function step(name, action)
  local ok, failure = xpcall(action, debug.traceback)
  if not ok then
    out.errors[name] = failure
  end
end

local function wait_for(what, condition)
  if not vim.wait(PATIENCE, condition, 20) then
    error('timed out waiting for ' .. what, 2)
  end
end

-- The version of a buffer that Neovim last sent to the server.
local function version_of(bufnr)
  return vim.lsp.util.buf_versions[bufnr]
end

-- The version whose diagnostics Neovim last took in, per URI: diagnostics are pushed with
-- their version (`publishDiagnostics`) or, on clients that pull them (0.11), answered for
-- the version the request was made at.
local received = {}

local function watch(method, locate)
  local original = vim.lsp.handlers[method]
  if not original then
    return
  end
  vim.lsp.handlers[method] = function(err, result, ctx, config)
    local returned = original(err, result, ctx, config)
    if err == nil and result ~= nil then
      local uri, version = locate(result, ctx)
      received[uri] = version
    end
    return returned
  end
end

watch('textDocument/publishDiagnostics', function(result)
  return result.uri, result.version
end)
watch('textDocument/diagnostic', function(_, ctx)
  return vim.uri_from_bufnr(ctx.bufnr), ctx.version
end)

local function wait_for_diagnostics(bufnr, what)
  local uri = vim.uri_from_bufnr(bufnr)
  wait_for(what, function()
    return received[uri] ~= nil and received[uri] == version_of(bufnr)
  end)
end

-- A diagnostic as `line:column-line:column CODE`, lines 0-based and columns counted in
-- characters, whatever encoding the client and the server agreed on.
local function compact_diagnostics(bufnr)
  local lines = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
  local function characters(row, byte)
    return vim.fn.strchars(string.sub(lines[row + 1] or '', 1, byte))
  end
  local found = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code) or '?'
    local end_lnum = d.end_lnum or d.lnum
    local end_col = d.end_col or d.col
    table.insert(found, string.format('%d:%d-%d:%d %s', d.lnum, characters(d.lnum, d.col), end_lnum, characters(end_lnum, end_col), code))
  end
  table.sort(found)
  return found
end

-- Puts the cursor on the last character of the first occurrence of `needle`.
local function cursor_on_end_of(bufnr, needle)
  for row, line in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
    local start = string.find(line, needle, 1, true)
    if start then
      local last = vim.fn.strcharpart(needle, vim.fn.strchars(needle) - 1)
      vim.api.nvim_win_set_cursor(0, { row, start - 1 + #needle - #last })
      return line
    end
  end
  error('not in the buffer: ' .. needle)
end

local function request(bufnr, method, params)
  local client = require('ctlpgn').client(bufnr)
  local responses = vim.lsp.buf_request_sync(bufnr, method, params, PATIENCE) or {}
  local response = responses[client.id]
  if response == nil then
    return nil, 'no response'
  end
  return response.result, response.err or response.error
end

local function text_of(bufnr)
  return table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), '\n') .. '\n'
end

-- The highlight captures over the first character of `needle`.
local function captures_at(bufnr, needle)
  local parser = vim.treesitter.get_parser(bufnr, 'ctlpgn')
  local root = parser:parse()[1]:root()
  local query = require('ctlpgn.treesitter').query('highlights')
  for row, line in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
    local column = string.find(line, needle, 1, true)
    if column then
      local names, seen = {}, {}
      for id, node in query:iter_captures(root, bufnr, row - 1, row) do
        local start_row, start_column, end_row, end_column = node:range()
        local after_start = start_row < row - 1 or (start_row == row - 1 and start_column <= column - 1)
        local before_end = end_row > row - 1 or (end_row == row - 1 and end_column > column - 1)
        local name = query.captures[id]
        if after_start and before_end and not seen[name] then
          seen[name] = true
          table.insert(names, name)
        end
      end
      table.sort(names)
      return names
    end
  end
  error('not in the buffer: ' .. needle)
end

local function run()
  local version = vim.version()
  out.nvim = string.format('%d.%d.%d', version.major, version.minor, version.patch)

  vim.opt.runtimepath:prepend(plugin)
  vim.opt.runtimepath:append(work)
  -- Re-read the filetype scripts so that the plugin's ftdetect file is among them.
  vim.cmd('filetype off')
  vim.cmd('filetype plugin on')
  vim.cmd('runtime! plugin/ctlpgn.lua')

  require('ctlpgn').setup({
    cmd = { server, 'lsp' },
    settings = { format = { separators = 'unicode' } },
  })

  -- Diagnostics, with an error after a `×` on its line.
  vim.cmd('edit ' .. vim.fn.fnameescape(work .. '/errors.ctl-pgn'))
  local bufnr = vim.api.nvim_get_current_buf()
  out.filetype = vim.bo[bufnr].filetype
  wait_for('the server to attach', function()
    return require('ctlpgn').client(bufnr) ~= nil
  end)
  local client = require('ctlpgn').client(bufnr)
  out.encoding = client.offset_encoding
  wait_for_diagnostics(bufnr, 'the diagnostics of the opened file')
  out.diagnostics = compact_diagnostics(bufnr)

  -- Tree-sitter: the highlighter runs, captures and folds come from the shipped queries.
  out.highlighter = vim.treesitter.highlighter.active[bufnr] ~= nil
  out.captures = {
    ['Event'] = captures_at(bufnr, 'Event'),
    ['{ Obertura'] = captures_at(bufnr, '{ Obertura'),
    ['3.'] = captures_at(bufnr, '3.'),
    ['×F16'] = captures_at(bufnr, '×F16'),
  }
  out.folds = {}
  for line = 1, vim.api.nvim_buf_line_count(bufnr) do
    table.insert(out.folds, vim.fn.foldlevel(line))
  end

  -- Hover on Black's half-move of a line with two `‐` (three bytes, one UTF-16 unit) before it.
  out.hover = { line = cursor_on_end_of(bufnr, 'F20‐F16') }
  step('hover', function()
    local params = vim.lsp.util.make_position_params(0, client.offset_encoding)
    local hover, hover_error = request(bufnr, 'textDocument/hover', params)
    out.hover.error = hover_error and vim.inspect(hover_error) or nil
    out.hover.markdown = hover and hover.contents and hover.contents.value or nil
  end)

  -- The user command, at the same place.
  vim.fn.setreg('"', '')
  step('copy', function()
    vim.cmd('CtlpgnCopyPosition')
  end)
  out.copied = vim.fn.getreg('"')

  -- The board window at the same place, then following the cursor to the next line, then
  -- closed with `q`.
  out.board = { windows_before = #vim.api.nvim_tabpage_list_wins(0) }
  step('board', function()
    vim.cmd('CtlpgnBoard')
    local board_buf
    local function board_text()
      for _, win in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
        local buf = vim.api.nvim_win_get_buf(win)
        if vim.bo[buf].filetype == 'ctlpgnboard' then
          board_buf, out.board.win = buf, win
          return table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, true), '\n')
        end
      end
      return ''
    end
    wait_for('the board', function()
      return board_text():find('PDTL', 1, true) ~= nil
    end)
    out.board.first = board_text()
    out.board.current_is_source = vim.api.nvim_get_current_buf() == bufnr
    cursor_on_end_of(bufnr, 'E13×F16')
    wait_for('the board to follow the cursor', function()
      return board_text():find('3. E13×F16', 1, true) ~= nil
    end)
    out.board.moved = board_text()
    vim.api.nvim_set_current_win(out.board.win)
    vim.cmd('normal q')
    out.board.windows_after = #vim.api.nvim_tabpage_list_wins(0)
    out.board.wiped = not vim.api.nvim_buf_is_valid(board_buf)
  end)

  -- Edits: a comment line inserted above the moves moves the error down a line; then the
  -- wrong letter, after the `×`, is deleted and the error goes.
  vim.api.nvim_buf_set_lines(bufnr, 10, 10, true, { '{ Comentari afegit: «×» }' })
  wait_for_diagnostics(bufnr, 'the diagnostics after inserting a line')
  out.diagnostics_after_insert = compact_diagnostics(bufnr)
  local row = vim.fn.search('NE15', 'n') - 1
  local column = string.find(vim.api.nvim_buf_get_lines(bufnr, row, row + 1, true)[1], 'NE15', 1, true) - 1
  vim.api.nvim_buf_set_text(bufnr, row, column, row, column + 1, {})
  wait_for_diagnostics(bufnr, 'the diagnostics after the fix')
  out.diagnostics_after_fix = compact_diagnostics(bufnr)

  -- Format on save, with the `separators = "unicode"` setting given to setup.
  out.before_save = text_of(bufnr)
  vim.cmd('write')
  out.after_save = text_of(bufnr)
  out.saved_file = table.concat(vim.fn.readfile(work .. '/errors.ctl-pgn'), '\n') .. '\n'

  -- Completion after `[` on a new line of the tags of a record that lacks `Variant`.
  vim.cmd('edit ' .. vim.fn.fnameescape(work .. '/tags.ctl-pgn'))
  local tags = vim.api.nvim_get_current_buf()
  wait_for('the server to attach to the second file', function()
    return require('ctlpgn').client(tags) ~= nil
  end)
  vim.api.nvim_buf_set_lines(tags, 3, 3, true, { '[' })
  out.completion = { labels = {} }
  step('completion', function()
    -- Right after the `[`, where the cursor of a user typing it stands; a cursor in normal
    -- mode cannot stand past a line's last character, so the position is written out.
    local params = { textDocument = { uri = vim.uri_from_bufnr(tags) }, position = { line = 3, character = 1 } }
    local completion, completion_error = request(tags, 'textDocument/completion', params)
    out.completion.error = completion_error and vim.inspect(completion_error) or nil
    for _, item in ipairs(completion and (completion.items or completion) or {}) do
      table.insert(out.completion.labels, item.label)
    end
  end)
end

step('run', run)
-- An empty table would be written as `[]`; no failures, no key.
if next(out.errors) == nil then
  out.errors = nil
end
vim.fn.writefile({ vim.fn.json_encode(out) }, out_path)
vim.cmd('qall!')
