-- The user commands of the ctlpgn plugin, defined by plugin/ctlpgn.lua at start-up and again
-- by `setup` (defining a command twice replaces it). Each loads its module when it runs.

local M = {}

M.commands = {
  {
    name = 'CtlpgnCopyPosition',
    run = function()
      require('ctlpgn').copy_position()
    end,
    desc = "C'escacs: copy the position at the cursor (PDTL)",
  },
  {
    name = 'CtlpgnBoard',
    run = function()
      require('ctlpgn.board').open()
    end,
    desc = "C'escacs: a side window with the board at the cursor (q closes it, y copies the PDTL)",
  },
  {
    name = 'CtlpgnPlay',
    run = function()
      require('ctlpgn.play').play()
    end,
    desc = "C'escacs: choose a half-move to play at the cursor; it is written into the record",
  },
  {
    name = 'CtlpgnInstallParser',
    run = function()
      require('ctlpgn.parser').install()
    end,
    desc = "C'escacs: build the tree-sitter parser with the C compiler into the data folder",
  },
}

function M.define()
  for _, command in ipairs(M.commands) do
    vim.api.nvim_create_user_command(command.name, command.run, { desc = command.desc })
  end
end

return M
