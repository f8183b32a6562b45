-- The user commands of the ctlpgn plugin. The language server itself starts only once
-- `require('ctlpgn').setup()` has been called, so that users choose its options.
if vim.g.loaded_ctlpgn then
  return
end
vim.g.loaded_ctlpgn = true

vim.api.nvim_create_user_command('CtlpgnCopyPosition', function()
  require('ctlpgn').copy_position()
end, { desc = "C'escacs: copy the position at the cursor (PDTL)" })

vim.api.nvim_create_user_command('CtlpgnBoard', function()
  require('ctlpgn.board').open()
end, { desc = "C'escacs: a side window with the board at the cursor (q closes it)" })
