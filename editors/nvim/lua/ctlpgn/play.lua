-- :CtlpgnPlay (and `m` in the board window): the half-moves that may be played at the cursor of
-- a CTL-PGN buffer, as the server writes them (the `moves` of `ctlpgn/board`, check suffixes
-- included), offered with `vim.ui.select`; the one chosen is played through `ctlpgn/play`,
-- whose edit is applied to the buffer (one undo takes it back) and the cursor put after the
-- half-move. Works on Neovim 0.7 and later.
--
-- The play names the version of the buffer the cursor was read in: a picker may be
-- asynchronous (a fuzzy finder's), and the buffer edited while it is open; the server then
-- refuses the play (ContentModified) rather than write the half-move where the old position
-- now falls, and nothing is written. The version is the one Neovim's client sends the server
-- with each change, `vim.lsp.util.buf_versions[bufnr]` (the buffer's changedtick at its last
-- change, 0 when opened, in 0.7 as in 0.11); a request first sends the changes still pending.
local M = {}

local has_config_api = vim.fn.has('nvim-0.11') == 1

local function present(value)
  return value ~= nil and value ~= vim.NIL
end

local function request(client, method, params, handler, bufnr)
  if has_config_api then
    client:request(method, params, handler, bufnr)
  else
    client.request(method, params, handler, bufnr)
  end
end

local function warn(message)
  vim.notify('ctlpgn: ' .. message, vim.log.levels.WARN)
end

-- The byte column of a protocol position in line `row` (0-based) of `bufnr`.
local function byte_column(bufnr, position, encoding)
  if encoding == 'utf-8' then
    return position.character
  end
  local line = vim.api.nvim_buf_get_lines(bufnr, position.line, position.line + 1, false)[1] or ''
  local ok, column = pcall(vim.str_byteindex, line, encoding, position.character, false)
  if ok and type(column) == 'number' then
    return column
  end
  -- Neovim before 0.11: (line, index, use_utf16).
  ok, column = pcall(vim.str_byteindex, line, position.character, encoding == 'utf-16')
  return ok and column or #line
end

-- The protocol's ContentModified: the server refused a place read in an older text.
local CONTENT_MODIFIED = -32801

-- Plays `move` (a text of the board's `moves`) at `params` (the place the moves were asked at,
-- in version `version` of the buffer) in `bufnr`, shown in `window`; then calls `on_played`,
-- if given, with the server's answer (the edit and the half-move's range once applied).
local function play_move(client, bufnr, window, params, version, move, on_played)
  local document = { uri = params.textDocument.uri, version = version }
  local play = { textDocument = document, position = params.position, move = move }
  request(client, 'ctlpgn/play', play, function(err, result)
    if err and err.code == CONTENT_MODIFIED then
      warn('the buffer changed while the half-move was chosen: nothing was played; play again')
      return
    end
    if err then
      warn(tostring(err.message or err))
      return
    end
    if not present(result) then
      warn('the buffer is not open in the language server')
      return
    end
    vim.lsp.util.apply_workspace_edit(result.edit, client.offset_encoding)
    if vim.api.nvim_win_is_valid(window) and vim.api.nvim_win_get_buf(window) == bufnr then
      local finish = result.range['end']
      vim.api.nvim_win_set_cursor(window, { finish.line + 1, byte_column(bufnr, finish, client.offset_encoding) })
    end
    if on_played then
      on_played(result)
    end
  end, bufnr)
end

-- Lists the half-moves that may be played at the cursor of `bufnr` (default: the current
-- buffer) and plays the one chosen; `on_played`, if given, is called with the server's answer
-- once the half-move is written.
function M.play(bufnr, on_played)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  if not vim.api.nvim_buf_is_valid(bufnr) or vim.bo[bufnr].filetype ~= 'ctlpgn' then
    warn(':CtlpgnPlay plays in a CTL-PGN buffer; open one first')
    return
  end
  local window = vim.fn.bufwinid(bufnr)
  if window == -1 then
    warn('the CTL-PGN buffer is not in a window')
    return
  end
  local client = require('ctlpgn').client(bufnr)
  if not client then
    warn('the language server is not running for this buffer')
    return
  end
  local params = vim.lsp.util.make_position_params(window, client.offset_encoding)
  -- The version the position belongs to, read with it (the request below sends the changes
  -- up to it first); the board's answer names the same one.
  local version = vim.lsp.util.buf_versions[bufnr]
  request(client, 'ctlpgn/board', params, function(err, board)
    if err then
      warn(tostring(err.message or err))
      return
    end
    if not (present(board) and present(board.moves)) then
      warn('nothing can be played here (the position is not known, or the game is over)')
      return
    end
    if version == nil then
      version = board.version
    end
    vim.ui.select(board.moves, {
      prompt = (board.side == 'black' and 'Black' or 'White') .. ' plays: ',
      format_item = function(move)
        return move.text
      end,
    }, function(choice)
      if choice then
        play_move(client, bufnr, window, params, version, choice.text, on_played)
      end
    end)
  end, bufnr)
end

return M
