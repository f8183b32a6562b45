-- Tree-sitter highlighting and folding of CTL-PGN buffers, with the parser `parser/ctlpgn.so`
-- and the queries `queries/ctlpgn/{highlights,folds}.scm` found on the runtime path (the
-- README says how to build the parser). Without the parser nothing happens: the language
-- server still works, only the colours and folds are missing.
--
-- Neovim 0.7 has the highlighter but neither `vim.treesitter.start` (0.8) nor
-- `vim.treesitter.foldexpr` (0.10); for those versions this module starts the highlighter
-- itself and computes fold levels from the folds query, as nvim-treesitter does.

local M = {}

-- The query `name` of the language, with the function of this Neovim's version (renamed in 0.9).
local function get_query(name)
  if vim.treesitter.query and vim.treesitter.query.get then
    return vim.treesitter.query.get('ctlpgn', name)
  end
  return vim.treesitter.get_query('ctlpgn', name)
end
M.query = get_query

-- The buffer's parser, or nil when `ctlpgn.so` is not installed.
local function parser_of(bufnr)
  local ok, parser = pcall(vim.treesitter.get_parser, bufnr, 'ctlpgn')
  if ok and parser then
    return parser
  end
  return nil
end

-- Fold levels of a buffer by its changedtick: the foldexpr is asked line by line, and one
-- walk of the folds query answers every line of one version of the text.
local levels_cache = {}

local function compute_levels(bufnr)
  local levels = {}
  local parser = parser_of(bufnr)
  local line_count = vim.api.nvim_buf_line_count(bufnr)
  if not parser then
    return levels
  end
  local query = get_query('folds')
  local tree = parser:parse()[1]
  -- How many folds start and stop on each row (0-based).
  local starts, stops = {}, {}
  for id, node in query:iter_captures(tree:root(), bufnr, 0, line_count) do
    if query.captures[id] == 'fold' then
      local start_row, _, end_row, end_column = node:range()
      -- A node that ends at column 0 ends on the line before: its last newline.
      if end_column == 0 then
        end_row = end_row - 1
      end
      if end_row > start_row then
        starts[start_row] = (starts[start_row] or 0) + 1
        stops[end_row] = (stops[end_row] or 0) + 1
      end
    end
  end
  local level = 0
  for row = 0, line_count - 1 do
    local opened = starts[row] or 0
    level = level + opened
    -- `>N` starts a fold even right after another of the same level ends.
    levels[row + 1] = opened > 0 and ('>' .. level) or tostring(level)
    level = level - (stops[row] or 0)
  end
  return levels
end

-- The 'foldexpr' for Neovim before 0.10: `v:lua.require'ctlpgn.treesitter'.foldexpr(v:lnum)`.
function M.foldexpr(lnum)
  local bufnr = vim.api.nvim_get_current_buf()
  local tick = vim.api.nvim_buf_get_changedtick(bufnr)
  local cached = levels_cache[bufnr]
  if not cached or cached.tick ~= tick then
    cached = { tick = tick, levels = compute_levels(bufnr) }
    levels_cache[bufnr] = cached
  end
  return cached.levels[lnum] or '0'
end

local function fold_window(window)
  local options = vim.wo[window]
  options.foldmethod = 'expr'
  if vim.treesitter.foldexpr then
    options.foldexpr = 'v:lua.vim.treesitter.foldexpr()'
  else
    options.foldexpr = "v:lua.require'ctlpgn.treesitter'.foldexpr(v:lnum)"
  end
  -- Open files unfolded; `zM` closes every fold.
  options.foldlevel = 99
end

-- Tells Neovim (0.9 and later) that buffers of filetype `ctlpgn` are parsed with the
-- language `ctlpgn`, for the features that find a parser by filetype (`:InspectTree`,
-- nvim-treesitter's modules). Before 0.9 a filetype is its language's name, as here.
function M.register()
  if vim.treesitter.language and vim.treesitter.language.register then
    vim.treesitter.language.register('ctlpgn', 'ctlpgn')
  end
end

-- Starts highlighting and folding for a buffer; false when the parser is not installed.
function M.start(bufnr)
  local parser = parser_of(bufnr)
  if not parser then
    return false
  end
  if vim.treesitter.start then
    vim.treesitter.start(bufnr, 'ctlpgn')
  else
    vim.treesitter.highlighter.new(parser)
  end
  for _, window in ipairs(vim.fn.win_findbuf(bufnr)) do
    fold_window(window)
  end
  vim.api.nvim_create_autocmd('BufWinEnter', {
    buffer = bufnr,
    group = vim.api.nvim_create_augroup('ctlpgn_folds_' .. bufnr, { clear = true }),
    callback = function()
      fold_window(vim.api.nvim_get_current_win())
    end,
  })
  vim.api.nvim_create_autocmd('BufUnload', {
    buffer = bufnr,
    once = true,
    callback = function()
      levels_cache[bufnr] = nil
    end,
  })
  return true
end

return M
