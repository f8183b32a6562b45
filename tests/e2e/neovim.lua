-- Drives a headless Neovim as a user would drive it with the shipped plugin (editors/nvim):
-- opens the fixtures with `setup()` and nothing built, presses the keys a user presses (K,
-- ]d, <C-W>d, <C-x><C-o>, <C-y>, y and q in the board window), runs :checkhealth, :help and
-- :CtlpgnInstallParser, edits and writes with format on save. It checks nothing itself: every
-- observation goes into a JSON file that server/tests/neovim.rs compares with what it
-- expects, so the expectations live in one place. Runs on Neovim 0.7 (Debian 12's), 0.10
-- (Debian 13's) and 0.11.
--
-- Keys are typed with nvim_input, which Neovim reads from its main loop: the script runs as a
-- coroutine that gives the loop back while it waits for what the keys lead to (a window, a
-- changed line, an answer of the server), and is resumed every 20 ms to look again; a wait
-- gives up after PATIENCE (harness.lua, which neovim-play.lua shares).
--
-- Environment: CTLPGN_SERVER (the ctlpgn binary), CTLPGN_E2E_PLUGIN (editors/nvim),
-- CTLPGN_E2E_WORK (a folder holding copies of the fixtures; XDG_DATA_HOME points into it, so
-- that :CtlpgnInstallParser builds there), CTLPGN_E2E_OUT (the JSON file to write).

local harness = dofile(vim.fn.fnamemodify(os.getenv('CTLPGN_E2E_SCRIPT'), ':h') .. '/harness.lua')
local server, plugin, work = harness.server, harness.plugin, harness.work
local PATIENCE, out = harness.PATIENCE, harness.out
local wait_for, feed, step = harness.wait_for, harness.feed, harness.step

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

-- The floating windows of the current tab.
local function floats()
  local found = {}
  for _, win in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
    if vim.api.nvim_win_get_config(win).relative ~= '' then
      table.insert(found, win)
    end
  end
  return found
end

local function close_floats()
  for _, win in ipairs(floats()) do
    pcall(vim.api.nvim_win_close, win, true)
  end
end

-- The lines of the first floating window that opens.
local function float_lines(what)
  local win = wait_for(what, function()
    return floats()[1]
  end)
  local lines = vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(win), 0, -1, false)
  close_floats()
  return lines
end

-- The foreground colour a character is drawn in: the group of the semantic token over it
-- (Neovim 0.9 and later), else its syntax group, resolved through its links; Normal's when
-- the group sets none ('default' when Normal sets none either).
local function colour_at(bufnr, row, col)
  local group
  if vim.inspect_pos then
    local at = vim.inspect_pos(bufnr, row, col)
    local best
    for _, token in ipairs(at.semantic_tokens or {}) do
      if not best or (token.opts.priority or 0) >= (best.opts.priority or 0) then
        best = token
      end
    end
    group = best and best.opts.hl_group
    if not group then
      local syntax = at.syntax[#at.syntax]
      group = syntax and syntax.hl_group
    end
    local colour = vim.api.nvim_get_hl(0, { name = group or 'Normal', link = false })
    if not colour.fg then
      colour = vim.api.nvim_get_hl(0, { name = 'Normal', link = false })
    end
    return colour.fg and string.format('#%06x', colour.fg) or 'default'
  end
  local id = vim.fn.synIDtrans(vim.fn.synID(row + 1, col + 1, 1))
  local fg = vim.fn.synIDattr(id, 'fg')
  return fg ~= '' and fg or 'default'
end

-- The colours of a line's characters but blanks and commas, as `character colour`.
local function colours_of(bufnr, row)
  local line = vim.api.nvim_buf_get_lines(bufnr, row, row + 1, true)[1]
  local colours = {}
  local byte = 0
  for index = 0, vim.fn.strchars(line) - 1 do
    local character = vim.fn.strcharpart(line, index, 1)
    if not character:match('^[ ,]$') then
      table.insert(colours, character .. ' ' .. colour_at(bufnr, row, byte))
    end
    byte = byte + #character
  end
  return colours
end

-- Whether a semantic token covers a position (Neovim 0.9 and later, once the tokens came).
local function has_token(bufnr, row, col)
  return vim.inspect_pos and #(vim.inspect_pos(bufnr, row, col).semantic_tokens or {}) > 0
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

local function current_line()
  return vim.api.nvim_get_current_line()
end

-- Whether insert-mode completion has shown its items.
local function completing()
  return #vim.fn.complete_info({ 'items' }).items > 0
end

-- Whether a preview window is open in the current tab.
local function previewing()
  for _, win in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
    if vim.wo[win].previewwindow then
      return true
    end
  end
  return false
end

-- Types `typed` at the end of a new line under `row` (1-based), then <C-x><C-o>, waits for the
-- items, and takes the selected one with <C-y>; returns the line, the line with `|` where the
-- cursor stands once the item is taken, and whether a preview window is open once back in
-- normal mode.
local function complete_line(bufnr, row, typed)
  vim.api.nvim_win_set_cursor(0, { row, 0 })
  feed('o' .. typed .. '<C-x><C-o>')
  wait_for('the completion items after ' .. typed, completing)
  local before = current_line()
  feed('<C-y>')
  -- Neovim 0.11 expands a snippet once the item is taken; 0.7 has written it in already.
  wait_for('the item to be taken', function()
    return not completing() and (current_line() ~= before or vim.fn.has('nvim-0.11') == 0)
  end)
  local line = current_line()
  local column = vim.api.nvim_win_get_cursor(0)[2]
  local cursor = line:sub(1, column) .. '|' .. line:sub(column + 1)
  feed('<Esc>')
  wait_for('normal mode', function()
    return vim.api.nvim_get_mode().mode == 'n'
  end)
  return line, cursor, previewing()
end

local function run()
  -- What a user's init.lua holds (README): the plugin on the runtime path and `setup()`.
  harness.load_plugin(plugin)
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

  -- What the buffer got from the plugin: on 0.7 to 0.10 from the plugin, on 0.11 from Neovim.
  out.buffer = {
    omnifunc = vim.bo[bufnr].omnifunc,
    tagfunc = vim.bo[bufnr].tagfunc,
    formatexpr = vim.bo[bufnr].formatexpr,
    syntax = vim.bo[bufnr].syntax,
    keys = {},
  }
  for _, key in ipairs({ 'K', ']d', '[d', '<C-W>d', 'grr', 'gra', 'gO' }) do
    out.buffer.keys[key] = vim.fn.maparg(key, 'n') ~= ''
  end

  -- Colours with nothing built: the syntax file, and on 0.9 and later the semantic tokens.
  step('colours', function()
    local row = vim.fn.search('3. E13×F16', 'nw') - 1
    if vim.inspect_pos then
      wait_for('the semantic tokens', function()
        return has_token(bufnr, row, 3)
      end)
    end
    out.colours = colours_of(bufnr, row)
  end)

  -- Keys of a diagnostic: ]d from the top goes to the first, <C-W>d shows it with its code.
  step('diagnostic keys', function()
    vim.api.nvim_win_set_cursor(0, { 1, 0 })
    feed(']d')
    wait_for(']d to move the cursor', function()
      return vim.api.nvim_win_get_cursor(0)[1] ~= 1
    end)
    out.next_diagnostic = vim.api.nvim_win_get_cursor(0)
    close_floats()
    cursor_on_end_of(bufnr, 'NE15×F12')
    feed('<C-W>d')
    out.diagnostic_float = float_lines('the diagnostic float')
    -- The virtual text of the diagnostics (off by default on 0.11).
    local texts = {}
    for _, namespace in pairs(vim.diagnostic.get_namespaces()) do
      local virtual = namespace.user_data and namespace.user_data.virt_text_ns
      for _, mark in ipairs(virtual and vim.api.nvim_buf_get_extmarks(bufnr, virtual, 0, -1, { details = true }) or {}) do
        local text = ''
        for _, chunk in ipairs(mark[4].virt_text or {}) do
          text = text .. chunk[1]
        end
        texts[text] = true
      end
    end
    out.virtual_text = vim.tbl_keys(texts)
    table.sort(out.virtual_text)
  end)

  -- K on Black's half-move of a line with two `‐` (three bytes, one UTF-16 unit) before it:
  -- the hover float, and the same hover asked for by hand.
  out.hover = { line = cursor_on_end_of(bufnr, 'F20‐F16') }
  step('hover', function()
    feed('K')
    out.hover.float = float_lines('the hover float')
    local params = vim.lsp.util.make_position_params(0, client.offset_encoding)
    local hover, hover_error = request(bufnr, 'textDocument/hover', params)
    out.hover.error = hover_error and vim.inspect(hover_error) or nil
    out.hover.markdown = hover and hover.contents and hover.contents.value or nil
  end)

  -- The keys the docs give to copy the PDTL from the float: `K` enters it, `gg` and a count
  -- of lines down reach the PDTL, `yy` copies it. The count differs by version: 0.7 strips
  -- the code fences around the PDTL from the float, 0.10 and later keep them as lines (0.11
  -- hides their rows, but `j` counts them).
  step('hover yank', function()
    feed('K')
    local win = wait_for('the hover float', function()
      return floats()[1]
    end)
    feed('K')
    wait_for('K to enter the float', function()
      return vim.api.nvim_get_current_win() == win
    end)
    vim.fn.setreg('"', '')
    feed('gg' .. (vim.fn.has('nvim-0.10') == 1 and '5j' or '4j') .. 'yy')
    wait_for('yy to copy', function()
      return vim.fn.getreg('"') ~= ''
    end)
    out.hover.yanked = vim.fn.getreg('"')
    vim.api.nvim_set_current_win(vim.fn.bufwinid(bufnr))
    close_floats()
  end)

  -- The user command, at the same place.
  vim.fn.setreg('"', '')
  step('copy', function()
    vim.cmd('CtlpgnCopyPosition')
  end)
  out.copied = vim.fn.getreg('"')

  -- The board window at the same place; `y` there copies the PDTL; it follows the cursor to
  -- the next line, then closes with `q`.
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
    out.board.width = vim.api.nvim_win_get_width(out.board.win)
    out.board.wrap = vim.wo[out.board.win].wrap
    out.board.current_is_source = vim.api.nvim_get_current_buf() == bufnr
    vim.fn.setreg('"', '')
    vim.api.nvim_set_current_win(out.board.win)
    feed('y')
    wait_for('y to copy the PDTL', function()
      return vim.fn.getreg('"') ~= ''
    end)
    out.board.yanked = vim.fn.getreg('"')
    vim.api.nvim_set_current_win(vim.fn.bufwinid(bufnr))
    cursor_on_end_of(bufnr, 'E13×F16')
    wait_for('the board to follow the cursor', function()
      return board_text():find('3. E13×F16', 1, true) ~= nil
    end)
    out.board.moved = board_text()
    vim.api.nvim_set_current_win(out.board.win)
    feed('q')
    wait_for('q to close the board', function()
      return not vim.api.nvim_win_is_valid(out.board.win)
    end)
    out.board.windows_after = #vim.api.nvim_tabpage_list_wins(0)
    out.board.wiped = not vim.api.nvim_buf_is_valid(board_buf)
  end)

  -- :checkhealth ctlpgn, in the tab it opens.
  step('health', function()
    vim.cmd('checkhealth ctlpgn')
    wait_for('the health report', function()
      return vim.bo.filetype == 'checkhealth' and vim.api.nvim_buf_line_count(0) > 5
    end)
    out.health = vim.api.nvim_buf_get_lines(0, 0, -1, false)
    vim.cmd('tabclose')
  end)

  -- :help ctlpgn, from the tags file shipped with the plugin.
  step('help', function()
    vim.cmd('help ctlpgn')
    out.help = {
      buftype = vim.bo.buftype,
      file = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(0), ':t'),
      line = current_line(),
    }
    vim.cmd('helpclose')
  end)

  -- :CtlpgnInstallParser builds the parser into the data folder; the open buffer then gets
  -- tree-sitter highlighting and folding, with the shipped queries.
  step('install parser', function()
    vim.cmd('CtlpgnInstallParser')
    wait_for('the parser to be built and started', function()
      return vim.treesitter.highlighter.active[bufnr] ~= nil
    end)
    out.parser = vim.api.nvim_get_runtime_file('parser/ctlpgn.so', false)[1]
    out.highlighter = true
    out.syntax_with_parser = vim.bo[bufnr].syntax
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

  -- Completion with the keys, in a record whose tags lack Event: `[Ev` then <C-x><C-o><C-y>
  -- gives a whole tag; `2. JF6-` then the same gives one whole half-move.
  vim.cmd('edit ' .. vim.fn.fnameescape(work .. '/complete.ctl-pgn'))
  local typed = vim.api.nvim_get_current_buf()
  wait_for('the server to attach to the third file', function()
    return require('ctlpgn').client(typed) ~= nil
  end)
  out.typed = {}
  step('tag completion', function()
    out.typed.tag, out.typed.tag_cursor, out.typed.tag_preview = complete_line(typed, 1, '[Ev')
  end)
  -- Neovim 0.11 completes as the user types: after `2. JF6-`, with no key pressed, the menu
  -- offers the Bishop's destinations (`-` is a trigger character). The line goes again.
  if vim.fn.has('nvim-0.11') == 1 then
    step('autotrigger', function()
      local last = vim.fn.search('^1\\.', 'n')
      vim.api.nvim_win_set_cursor(0, { last, 0 })
      -- The labels the menu shows that start with `prefix`. The menu may hold more: Neovim
      -- asks when a timer set by the trigger character fires and again as each key comes
      -- while the server's list is incomplete, an answer may come after more is typed, and
      -- complete_info() keeps every item a menu was given where the screen shows it narrowed.
      local function menu_of(prefix)
        if vim.fn.pumvisible() == 0 then
          return nil
        end
        local found = {}
        for _, entry in ipairs(vim.fn.complete_info({ 'items' }).items) do
          local label = entry.abbr ~= '' and entry.abbr or entry.word
          if label:sub(1, #prefix) == prefix then
            table.insert(found, label)
          end
        end
        return #found > 0 and found or nil
      end
      -- As a person types: the menu once `2. ` is typed (the space is a trigger), the pieces
      -- as `JF6` is typed, then the Bishop's destinations as `-` is.
      feed('o2. ')
      wait_for('a menu as `2. ` is typed', function()
        return current_line() == '2. ' and vim.fn.pumvisible() == 1
      end)
      -- The pieces' menu as `JF6` is typed is not waited for: with the server answering within
      -- a millisecond, Neovim 0.11 asks again at each key without a pause (its debounce follows
      -- the answers' round trip), before the key is in the line, and its menu may close; the
      -- `-` that follows is a trigger character either way.
      feed('JF6')
      wait_for('`2. JF6` typed', function()
        return current_line() == '2. JF6'
      end)
      feed('-')
      local labels = wait_for('the destinations offered as `-` is typed', function()
        return current_line() == '2. JF6-' and menu_of('JF6-')
      end)
      out.typed.autotriggered = labels
      feed('<C-e><Esc>dd')
      wait_for('the line to go', function()
        return vim.api.nvim_get_mode().mode == 'n' and vim.fn.search('^2\\. JF6-$', 'n') == 0
      end)
    end)
  end
  step('move completion', function()
    local last = vim.fn.search('^1\\.', 'n')
    out.typed.move, out.typed.move_cursor, out.typed.move_preview = complete_line(typed, last, '2. JF6-')
    out.typed.text = text_of(typed)
  end)
end

harness.start(run)
