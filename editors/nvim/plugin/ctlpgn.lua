-- The user commands and colours of the ctlpgn plugin, and the keys and completion of a ctlpgn
-- buffer when the server attaches (LspAttach, Neovim 0.8 and later). The language server itself starts only
-- once `require('ctlpgn').setup()` has been called, so that users choose its options (or, on
-- Neovim 0.11 and later, with `vim.lsp.enable('ctlpgn')`, from lsp/ctlpgn.lua).
if vim.g.loaded_ctlpgn then
  return
end
vim.g.loaded_ctlpgn = true

require('ctlpgn.commands').define()
require('ctlpgn.highlights').define()
require('ctlpgn.buffer').follow()
