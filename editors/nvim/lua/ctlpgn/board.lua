-- :CtlpgnBoard: a side window with the board at the cursor of a CTL-PGN buffer (the
-- server's `ctlpgn/board` request), which follows the cursor there (debounced), and after a
-- half-move played with `m` shows the position after it (asked for where the server says the
-- half-move stands). It shows the half-move, whose turn it is and the check, the PDTL whole on
-- a line of its own (wrapped by the window, never cut), the board, and its keys. The window is
-- as wide as the board.
-- Works on Neovim 0.7 and later.
--
-- The keys are the table `M.keys`: each entry's `run` is called with the window's state (the
-- last answer in `state.answer`, the followed buffer in `state.source`); a key added there is
-- mapped in the window and listed on its last line.
local M = {}

local has_config_api = vim.fn.has('nvim-0.11') == 1
local uv = vim.uv or vim.loop

-- How long the cursor must rest before the board is asked for again, in milliseconds: a held
-- key asks once.
local DEBOUNCE = 60

-- The narrowest the window gets: the text board's width (34 columns) and a margin.
local MIN_WIDTH = 36

-- The open board: its window and buffer, the buffer it follows, its timer and autocommands,
-- and the last answer.
local state = {}

local function present(value)
  return value ~= nil and value ~= vim.NIL
end

M.keys = {
  {
    lhs = 'm',
    desc = 'play a move',
    run = function(board)
      local source = board.source
      -- The board window keeps the focus, so no cursor move or change in the buffer asks for
      -- the board again: it is asked for where the half-move played stands.
      require('ctlpgn.play').play(source, function(played)
        if state.source == source then
          M.update(played.range['end'])
        end
      end)
    end,
  },
  {
    lhs = 'y',
    desc = 'copy the PDTL',
    run = function(board)
      local answer = board.answer
      if present(answer) and present(answer.pdtl) then
        require('ctlpgn').copy(answer.pdtl)
      else
        vim.notify('ctlpgn: no PDTL here', vim.log.levels.WARN)
      end
    end,
  },
  {
    lhs = 'q',
    desc = 'close',
    run = function()
      M.close()
    end,
  },
}

local function is_open()
  return state.win ~= nil and vim.api.nvim_win_is_valid(state.win)
end

-- The last line of the window: its keys.
local function keys_line()
  local parts = {}
  for _, key in ipairs(M.keys) do
    table.insert(parts, key.lhs .. ' ' .. key.desc)
  end
  return table.concat(parts, ' · ')
end

-- The window's width: its widest line but the PDTL (which the window wraps), at least the board's.
local function width_of(lines, pdtl)
  local width = MIN_WIDTH
  for _, line in ipairs(lines) do
    if line ~= pdtl then
      width = math.max(width, vim.fn.strdisplaywidth(line) + 2)
    end
  end
  return math.min(width, math.max(MIN_WIDTH, math.floor(vim.o.columns / 2)))
end

local function show(lines, answer)
  state.answer = answer
  local buf = state.buf
  if not (buf and vim.api.nvim_buf_is_valid(buf)) then
    return
  end
  vim.bo[buf].modifiable = true
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].modifiable = false
  if is_open() then
    local pdtl = present(answer) and present(answer.pdtl) and answer.pdtl or nil
    vim.api.nvim_win_set_width(state.win, width_of(lines, pdtl))
  end
end

-- The window's lines for an answer of `ctlpgn/board`: the half-move, whose turn it is and
-- the check, the PDTL alone on its line (or why there is none), the board, the keys.
function M.lines(answer)
  if not present(answer) then
    return { 'No record here.', '', keys_line() }
  end
  local lines = { present(answer.move) and answer.move or 'The start of the record' }
  local turn = {}
  if present(answer.side) then
    table.insert(turn, (answer.side == 'white' and 'White' or 'Black') .. ' to move.')
  end
  if present(answer.check) then
    table.insert(turn, answer.check .. '.')
  end
  if #turn > 0 then
    table.insert(lines, table.concat(turn, ' '))
  end
  table.insert(lines, '')
  if present(answer.pdtl) then
    table.insert(lines, 'PDTL:')
    table.insert(lines, answer.pdtl)
  elseif answer.exact == false then
    table.insert(lines, 'Not replayed: the last position known.')
  else
    table.insert(lines, 'No PDTL may hold this position.')
  end
  if present(answer.text) then
    table.insert(lines, '')
    local picture = vim.split(answer.text, '\n', { plain = true })
    if picture[#picture] == '' then
      table.remove(picture)
    end
    vim.list_extend(lines, picture)
  end
  table.insert(lines, '')
  table.insert(lines, keys_line())
  return lines
end

-- Asks the server for the board at the cursor of the followed buffer, or at `position` (a
-- protocol position in it) when given, and shows it.
function M.update(position)
  if not is_open() then
    return
  end
  local source = state.source
  local window = source and vim.fn.bufwinid(source) or -1
  if window == -1 and not position then
    return
  end
  local client = require('ctlpgn').client(source)
  if not client then
    show({ 'ctlpgn: the language server is not running for this buffer.' }, nil)
    return
  end
  local params
  if position then
    params = { textDocument = { uri = vim.uri_from_bufnr(source) }, position = position }
  else
    params = vim.lsp.util.make_position_params(window, client.offset_encoding)
  end
  local function handler(err, result)
    if err then
      show({ 'ctlpgn: ' .. tostring(err.message or err) }, nil)
    else
      show(M.lines(result), result)
    end
  end
  if has_config_api then
    client:request('ctlpgn/board', params, handler, source)
  else
    client.request('ctlpgn/board', params, handler, source)
  end
end

local function schedule()
  if not state.timer then
    return
  end
  state.timer:stop()
  state.timer:start(DEBOUNCE, 0, vim.schedule_wrap(function()
    M.update()
  end))
end

-- Forgets the board: its autocommands and timer (the window and buffer are gone or going).
local function forget()
  if state.group then
    pcall(vim.api.nvim_del_augroup_by_id, state.group)
  end
  if state.timer then
    state.timer:stop()
    state.timer:close()
  end
  state = {}
end

function M.close()
  if is_open() then
    vim.api.nvim_win_close(state.win, true)
  end
  forget()
end

-- Maps the keys of `M.keys` in the board's buffer.
local function map_keys(buf)
  for _, key in ipairs(M.keys) do
    vim.keymap.set('n', key.lhs, function()
      key.run(state)
    end, { buffer = buf, nowait = true, silent = true, desc = 'ctlpgn board: ' .. key.desc })
  end
end

-- Opens the board beside the current CTL-PGN buffer, or follows it with the open one.
function M.open()
  local source = vim.api.nvim_get_current_buf()
  if vim.bo[source].filetype ~= 'ctlpgn' then
    vim.notify('ctlpgn: :CtlpgnBoard follows a CTL-PGN buffer; open one first', vim.log.levels.WARN)
    return
  end
  if is_open() then
    state.source = source
    M.update()
    return
  end
  forget()
  local from = vim.api.nvim_get_current_win()
  vim.cmd('rightbelow vertical ' .. MIN_WIDTH .. 'new')
  state.win = vim.api.nvim_get_current_win()
  state.buf = vim.api.nvim_get_current_buf()
  state.source = source
  local buf = state.buf
  vim.bo[buf].buftype = 'nofile'
  vim.bo[buf].bufhidden = 'wipe'
  vim.bo[buf].swapfile = false
  vim.bo[buf].filetype = 'ctlpgnboard'
  pcall(vim.api.nvim_buf_set_name, buf, 'ctlpgn://board')
  local window = vim.wo[state.win]
  window.number = false
  window.relativenumber = false
  window.signcolumn = 'no'
  window.foldcolumn = '0'
  window.list = false
  -- The PDTL is one line, wrapped by the window where it is wider, never cut.
  window.wrap = true
  window.linebreak = false
  window.winfixwidth = true
  map_keys(buf)
  state.timer = uv.new_timer()
  state.group = vim.api.nvim_create_augroup('ctlpgn_board', { clear = true })
  vim.api.nvim_create_autocmd({ 'CursorMoved', 'CursorMovedI', 'TextChanged', 'TextChangedI', 'BufEnter' }, {
    group = state.group,
    callback = function(event)
      if vim.bo[event.buf].filetype == 'ctlpgn' then
        state.source = event.buf
        schedule()
      end
    end,
  })
  vim.api.nvim_create_autocmd('BufWipeout', {
    group = state.group,
    buffer = buf,
    callback = function()
      vim.schedule(forget)
    end,
  })
  show({ 'Asking the server…' }, nil)
  vim.api.nvim_set_current_win(from)
  M.update()
end

return M
