-- What the headless Neovim scripts share (neovim.lua, neovim-play.lua, neovim-workspace.lua):
-- their environment; the run as a coroutine that gives Neovim's main loop back while it waits,
-- so that keys typed with nvim_input are read as a user's are; steps whose failures are
-- recorded rather than ending the run; and the observations written as JSON to
-- CTLPGN_E2E_OUT at the end, for server/tests/neovim.rs to judge. Loaded with dofile from the
-- script beside it.

local uv = vim.uv or vim.loop

local H = {}

-- What server/tests/neovim.rs hands every script: the ctlpgn binary, the plugin's folder
-- (editors/nvim), a folder holding copies of the fixtures, and the JSON file `start` writes.
local function required(name)
  return assert(os.getenv(name), name .. ' is set')
end
H.server = required('CTLPGN_SERVER')
H.plugin = required('CTLPGN_E2E_PLUGIN')
H.work = required('CTLPGN_E2E_WORK')
local out_path = required('CTLPGN_E2E_OUT')

-- How long any one step may take before the run gives up (a cold debug server and a C
-- compiler on a busy machine included).
H.PATIENCE = 60000

-- What the script observed; `errors` holds the steps that failed.
H.out = { errors = {} }

local runner

-- Gives the main loop back until `condition` holds: Neovim reads typed keys and the server's
-- messages meanwhile. Returns what `condition` returned.
function H.wait_for(what, condition)
  local deadline = uv.now() + H.PATIENCE
  while true do
    local ok, holds = pcall(condition)
    if ok and holds then
      return holds
    end
    if uv.now() > deadline then
      error('timed out waiting for ' .. what, 2)
    end
    local timer = uv.new_timer()
    timer:start(20, 0, function()
      timer:close()
      vim.schedule(function()
        local resumed, failure = coroutine.resume(runner)
        if not resumed then
          H.out.errors.runner = tostring(failure)
        end
      end)
    end)
    coroutine.yield()
    uv.update_time()
  end
end

-- Types keys, as a user at the keyboard (`<C-x>` notation).
function H.feed(keys)
  vim.api.nvim_input(keys)
end

-- Runs one step; a step that fails is recorded and the next ones still run, so that one
-- missing feature does not hide what the others do. Steps that later ones depend on are not
-- wrapped: their failure ends the run.
function H.step(name, action)
  local ok, failure = xpcall(action, debug.traceback)
  if not ok then
    H.out.errors[name] = failure
    -- Leave insert mode and any window the step opened, for the next step.
    vim.cmd('stopinsert')
  end
end

-- Loads the plugin as a user's init.lua does (the folder on the runtime path, then `setup()`
-- by the caller), and records Neovim's version as `out.nvim`.
function H.load_plugin(folder)
  local version = vim.version()
  H.out.nvim = string.format('%d.%d.%d', version.major, version.minor, version.patch)
  vim.opt.runtimepath:prepend(folder)
  -- Re-read the filetype scripts so that the plugin's ftdetect file is among them, and its
  -- plugin file, as Neovim reads them at start-up.
  vim.cmd('filetype off')
  vim.cmd('filetype plugin on')
  vim.cmd('runtime! plugin/ctlpgn.lua')
end

-- Runs `body` as the coroutine, then writes the observations to CTLPGN_E2E_OUT and quits.
function H.start(body)
  runner = coroutine.create(function()
    H.step('run', body)
    -- An empty table would be written as `[]`; no failures, no key.
    if next(H.out.errors) == nil then
      H.out.errors = nil
    end
    vim.fn.writefile({ vim.fn.json_encode(H.out) }, out_path)
    vim.cmd('qall!')
  end)
  local started, failure = coroutine.resume(runner)
  if not started then
    vim.fn.writefile({ vim.fn.json_encode({ errors = { start = tostring(failure) } }) }, out_path)
    vim.cmd('qall!')
  end
end

return H
