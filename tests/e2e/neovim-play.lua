-- Plays half-moves in a headless Neovim as a user does, with the shipped plugin: :CtlpgnPlay
-- lists the half-moves at the cursor (vim.ui.select, whose default prompt is answered with the
-- number of the wanted move and <CR>, as typed), the one chosen is written into the buffer,
-- `u` takes it back; a line added to the buffer while the list is open (as with an
-- asynchronous picker) makes the play refused, and nothing written; then `m` in the board
-- window plays from an earlier move, which makes a variation, and the window shows the
-- position after it. Checks nothing itself: server/tests/neovim.rs judges the observations.
-- Runs on Neovim 0.7 and 0.11.
--
-- Environment: CTLPGN_SERVER (the ctlpgn binary), CTLPGN_E2E_PLUGIN (editors/nvim),
-- CTLPGN_E2E_WORK (a folder holding play.ctl-pgn), CTLPGN_E2E_OUT (the JSON file to write).

local harness = dofile(vim.fn.fnamemodify(os.getenv('CTLPGN_E2E_SCRIPT'), ':h') .. '/harness.lua')
local server, plugin, work = harness.server, harness.plugin, harness.work
local out, wait_for, feed, step = harness.out, harness.wait_for, harness.feed, harness.step

local function text_of(bufnr)
  return table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), '\n') .. '\n'
end

-- The half-move the user will pick from the next list vim.ui.select shows: the list is
-- recorded and the number of that half-move typed at the prompt, as a user reading it would.
-- When `edit_while_choosing` is set, it is called first: the buffer changes while the list is
-- open.
local wanted
local edit_while_choosing
local original_select = vim.ui.select
vim.ui.select = function(items, options, on_choice)
  if edit_while_choosing then
    edit_while_choosing()
    edit_while_choosing = nil
  end
  local texts = {}
  local number
  for index, item in ipairs(items) do
    local text = options.format_item and options.format_item(item) or tostring(item)
    table.insert(texts, text)
    if text == wanted then
      number = index
    end
  end
  out.lists = out.lists or {}
  table.insert(out.lists, { prompt = options.prompt, items = texts })
  -- The default select prompts with inputlist(): a number, then <CR>.
  feed((number and tostring(number) or '') .. '<CR>')
  return original_select(items, options, on_choice)
end

-- The cursor as (1-based line, characters before it).
local function cursor()
  local row, col = unpack(vim.api.nvim_win_get_cursor(0))
  local line = vim.api.nvim_buf_get_lines(0, row - 1, row, false)[1] or ''
  return { row, vim.fn.strchars(string.sub(line, 1, col)) }
end

-- The warnings the plugin gives, in order.
local original_notify = vim.notify
vim.notify = function(message, level, ...)
  if level == vim.log.levels.WARN then
    out.warnings = out.warnings or {}
    table.insert(out.warnings, message)
  end
  return original_notify(message, level, ...)
end

local function run()
  harness.load_plugin(plugin)
  require('ctlpgn').setup({ cmd = { server, 'lsp' }, format_on_save = false })

  vim.cmd('edit ' .. vim.fn.fnameescape(work .. '/play.ctl-pgn'))
  local bufnr = vim.api.nvim_get_current_buf()
  local before = text_of(bufnr)
  wait_for('the server to attach', function()
    return require('ctlpgn').client(bufnr) ~= nil
  end)

  -- :CtlpgnPlay at the end of the main line (on White's E7‐E9): Black's E19‐E17 goes on the
  -- same move line, written with the record's ‐, and takes the end mark.
  step('CtlpgnPlay', function()
    vim.fn.search('E7‐E9')
    wanted = 'E19‐E17'
    feed(':CtlpgnPlay<CR>')
    wait_for('the half-move in the buffer', function()
      return text_of(bufnr) ~= before
    end)
    out.played = text_of(bufnr)
    out.cursor = cursor()
  end)

  -- One `u` takes the whole half-move back.
  step('undo', function()
    feed('u')
    wait_for('the undo', function()
      return text_of(bufnr) == before
    end)
    out.undone = text_of(bufnr) == before
  end)

  -- :CtlpgnPlay again, a line added above the moves while the list is open: the place read
  -- before it is refused, and nothing is written; the line is then taken away.
  step('CtlpgnPlay after an edit', function()
    vim.fn.search('E7‐E9')
    wanted = 'E19‐E17'
    edit_while_choosing = function()
      vim.api.nvim_buf_set_lines(bufnr, 4, 4, false, { '{ a note }' })
    end
    local warned = #(out.warnings or {})
    feed(':CtlpgnPlay<CR>')
    wait_for('the refusal', function()
      return #(out.warnings or {}) > warned
    end)
    out.edited_while_choosing = text_of(bufnr)
    out.refusal = out.warnings[#out.warnings]
    vim.api.nvim_buf_set_lines(bufnr, 4, 5, false, {})
    wait_for('the line taken away', function()
      return text_of(bufnr) == before
    end)
  end)

  -- `m` in the board window, the cursor of the buffer on White's first move: Black's other
  -- answer E21‐E17 becomes a variation after the first move line, and the window shows the
  -- position after it, the focus still in the window.
  step('board m', function()
    -- The board opened on White's second move, then the cursor moved onto the first: the
    -- window follows it after its pause (no refresh is pending when `m` is pressed, so only
    -- the play can show the position after the half-move).
    vim.fn.search('E7‐E9')
    vim.cmd('CtlpgnBoard')
    local function board_showing(move)
      return function()
        for _, win in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
          local buf = vim.api.nvim_win_get_buf(win)
          if vim.bo[buf].filetype == 'ctlpgnboard' then
            local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
            if (lines[1] or ''):find(move, 1, true) then
              return win
            end
          end
        end
      end
    end
    wait_for('the board window', board_showing('E7‐E9'))
    vim.fn.search('K4‐K6', 'b')
    local board_win = wait_for('the board on the first move', board_showing('K4‐K6'))
    local lines = vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(board_win), 0, -1, false)
    out.board_keys = lines[#lines]
    vim.api.nvim_set_current_win(board_win)
    wanted = 'E21‐E17'
    local changed = text_of(bufnr)
    feed('m')
    wait_for('the variation in the buffer', function()
      return text_of(bufnr) ~= changed
    end)
    out.variation = text_of(bufnr)
    local board_buf = vim.api.nvim_win_get_buf(board_win)
    wait_for('the board after the variation', function()
      return (vim.api.nvim_buf_get_lines(board_buf, 0, 1, false)[1] or ''):find('E21‐E17', 1, true)
    end)
    out.board_after_m = vim.api.nvim_buf_get_lines(board_buf, 0, 2, false)
    out.focus_in_board = vim.api.nvim_get_current_win() == board_win
  end)
end

harness.start(run)
