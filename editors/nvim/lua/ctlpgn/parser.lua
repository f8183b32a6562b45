-- :CtlpgnInstallParser: builds the tree-sitter parser from the grammar's C sources in the
-- repository that holds this plugin (tree-sitter-ctlpgn/src, beside editors/nvim) with the C
-- compiler, as nvim-treesitter does (`$CC`, else cc, gcc or clang; `-Os -shared -fPIC`),
-- into `parser/ctlpgn.so` under the data folder's `site` (stdpath('data') .. '/site'), which is
-- on the default runtime path and the user's to write. The library is written under another
-- name and renamed into place, so that a failed build leaves the previous one whole. Then the
-- open ctlpgn buffers get tree-sitter highlighting and folding.

local M = {}

local uv = vim.uv or vim.loop
local windows = vim.fn.has('win32') == 1

-- The folder of the grammar's sources: tree-sitter-ctlpgn/src beside the plugin folder.
function M.source()
  local here = debug.getinfo(1, 'S').source:sub(2)
  local plugin = vim.fn.fnamemodify(here, ':p:h:h:h')
  return vim.fn.fnamemodify(plugin, ':h:h') .. '/tree-sitter-ctlpgn/src'
end

-- The folder the parser goes into, on the default runtime path.
function M.site()
  return vim.fn.stdpath('data') .. '/site'
end

-- The parser's path.
function M.target()
  return M.site() .. '/parser/ctlpgn.so'
end

-- The C compiler, as nvim-treesitter looks for one: $CC, then cc, gcc, clang.
function M.compiler()
  local candidates = { 'cc', 'gcc', 'clang' }
  if vim.env.CC and vim.env.CC ~= '' then
    table.insert(candidates, 1, vim.env.CC)
  end
  for _, candidate in ipairs(candidates) do
    if vim.fn.executable(candidate) == 1 then
      return candidate
    end
  end
  return nil
end

-- The command that compiles the sources into `output`.
function M.command(compiler, source, output)
  local command = { compiler, '-o', output, '-I', source, source .. '/parser.c', source .. '/scanner.c', '-Os', '-shared' }
  if not windows then
    table.insert(command, '-fPIC')
  end
  return command
end

local function notify(message, level)
  vim.notify('ctlpgn: ' .. message, level or vim.log.levels.INFO)
end

-- What stands in the way of a build, or nil.
local function problem(compiler, source)
  if not compiler then
    return 'no C compiler was found (set $CC, or install cc, gcc or clang)'
  end
  if vim.fn.filereadable(source .. '/parser.c') == 0 then
    return 'the grammar\'s sources are not in ' .. source
      .. ' (the plugin folder must stay in the ctlpgn repository, at editors/nvim)'
  end
  return nil
end

-- After a build: the folder on the runtime path (it is by default, not under `--clean`) and
-- highlighting in the open ctlpgn buffers.
local function installed()
  local site = M.site()
  local on_path = false
  for _, folder in ipairs(vim.api.nvim_list_runtime_paths()) do
    if vim.fn.fnamemodify(folder, ':p') == vim.fn.fnamemodify(site, ':p') then
      on_path = true
    end
  end
  if not on_path then
    vim.opt.runtimepath:append(site)
  end
  local treesitter = require('ctlpgn.treesitter')
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(bufnr) and vim.bo[bufnr].filetype == 'ctlpgn' then
      treesitter.start(bufnr)
    end
  end
end

-- Builds the parser. With `options.sync` (a plugin manager's build step), waits for the
-- compiler and returns whether it succeeded and what it said; otherwise returns at once and
-- reports when done. `options.on_exit(ok, message)` is called in both cases.
function M.install(options)
  options = options or {}
  local compiler, source, target = M.compiler(), M.source(), M.target()
  local why = problem(compiler, source)
  local function finish(ok, message)
    if ok then
      installed()
      notify('the parser is built: ' .. target)
    else
      notify(message, vim.log.levels.ERROR)
    end
    if options.on_exit then
      options.on_exit(ok, message)
    end
    return ok, message
  end
  if why then
    return finish(false, 'cannot build the parser: ' .. why)
  end
  vim.fn.mkdir(vim.fn.fnamemodify(target, ':h'), 'p')
  local partial = target .. '.' .. uv.os_getpid() .. '.part'
  local command = M.command(compiler, source, partial)
  local function done(code, output)
    if code == 0 then
      local renamed, failure = os.rename(partial, target)
      if renamed then
        return finish(true, target)
      end
      os.remove(partial)
      return finish(false, 'the parser could not be put in place: ' .. tostring(failure))
    end
    os.remove(partial)
    return finish(false, 'the C compiler failed (' .. table.concat(command, ' ') .. '): ' .. output)
  end
  if options.sync then
    local output = vim.fn.system(command)
    return done(vim.v.shell_error, output)
  end
  notify('building the parser with ' .. compiler .. '…')
  local output = {}
  local function collect(_, data)
    vim.list_extend(output, data or {})
  end
  local job = vim.fn.jobstart(command, {
    stdout_buffered = true,
    stderr_buffered = true,
    on_stdout = collect,
    on_stderr = collect,
    on_exit = function(_, code)
      vim.schedule(function()
        done(code, vim.trim(table.concat(output, '\n')))
      end)
    end,
  })
  if job <= 0 then
    return finish(false, 'the C compiler could not be started: ' .. compiler)
  end
  return nil
end

return M
