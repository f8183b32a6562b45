-- :CtlpgnBoard: a side window with the text board at the cursor of a CTL-PGN buffer (the
-- server's `ctlpgn/board` request), which follows the cursor there (debounced) and closes with
-- `q`. Works on Neovim 0.7 and later.
local M = {}

local has_config_api = vim.fn.has('nvim-0.11') == 1
local uv = vim.uv or vim.loop

-- How long the cursor must rest before the board is asked for again, in milliseconds: a held
-- key asks once.
local DEBOUNCE = 60

-- The open board: its window and buffer, the buffer it follows, its timer and autocommands.
local state = {}

local function is_open()
  return state.win ~= nil and vim.api.nvim_win_is_valid(state.win)
end

local function show(lines)
  local buf = state.buf
  if not (buf and vim.api.nvim_buf_is_valid(buf)) then
    return
  end
  vim.bo[buf].modifiable = true
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].modifiable = false
  if is_open() then
    local width = 0
    for _, line in ipairs(lines) do
      width = math.max(width, vim.fn.strdisplaywidth(line))
    end
    vim.api.nvim_win_set_width(state.win, math.min(math.max(width + 1, 40), 90))
  end
end

local function present(value)
  return value ~= nil and value ~= vim.NIL
end

-- The window's lines for an answer of `ctlpgn/board`.
function M.lines(answer)
  if not present(answer) then
    return { 'No record here.' }
  end
  local lines = { present(answer.move) and answer.move or 'The start of the record', '' }
  if present(answer.text) then
    local picture = vim.split(answer.text, '\n', { plain = true })
    if picture[#picture] == '' then
      table.remove(picture)
    end
    vim.list_extend(lines, picture)
    table.insert(lines, '')
  end
  if present(answer.side) then
    table.insert(lines, (answer.side == 'white' and 'White' or 'Black') .. ' to move.')
  end
  if present(answer.check) then
    table.insert(lines, answer.check .. '.')
  end
  if present(answer.pdtl) then
    table.insert(lines, 'PDTL ' .. answer.pdtl)
  elseif answer.exact == false then
    table.insert(lines, 'Not replayed: the last position known.')
  else
    table.insert(lines, 'No PDTL may hold this position.')
  end
  return lines
end

-- Asks the server for the board at the cursor of the followed buffer and shows it.
function M.update()
  if not is_open() then
    return
  end
  local source = state.source
  local window = source and vim.fn.bufwinid(source) or -1
  if window == -1 then
    return
  end
  local client = require('ctlpgn').client(source)
  if not client then
    show({ 'ctlpgn: the language server is not running for this buffer.' })
    return
  end
  local params = vim.lsp.util.make_position_params(window, client.offset_encoding)
  local function handler(err, result)
    if err then
      show({ 'ctlpgn: ' .. tostring(err.message or err) })
    else
      show(M.lines(result))
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
  state.timer:start(DEBOUNCE, 0, vim.schedule_wrap(M.update))
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
  vim.cmd('rightbelow vertical new')
  state.win = vim.api.nvim_get_current_win()
  state.buf = vim.api.nvim_get_current_buf()
  state.source = source
  local buf = state.buf
  vim.bo[buf].buftype = 'nofile'
  vim.bo[buf].bufhidden = 'wipe'
  vim.bo[buf].swapfile = false
  vim.bo[buf].filetype = 'ctlpgnboard'
  pcall(vim.api.nvim_buf_set_name, buf, 'ctlpgn://board')
  vim.wo[state.win].number = false
  vim.wo[state.win].relativenumber = false
  vim.wo[state.win].wrap = false
  vim.wo[state.win].winfixwidth = true
  vim.api.nvim_buf_set_keymap(buf, 'n', 'q', '<cmd>lua require("ctlpgn.board").close()<CR>', { nowait = true, silent = true })
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
  show({ 'Asking the server…' })
  vim.api.nvim_set_current_win(from)
  M.update()
end

return M
