-- The ctlpgn language server for Neovim 0.11 and later, as a `vim.lsp.Config` in the form of
-- nvim-lspconfig's `lsp/` files: with this plugin folder on 'runtimepath',
--
--   vim.lsp.enable('ctlpgn')
--
-- starts `ctlpgn lsp` for ctlpgn buffers, with the server's default settings and the plugin's
-- completion (plugin/ctlpgn.lua follows LspAttach). Change them with
-- `vim.lsp.config('ctlpgn', { settings = { ctlpgn = { rules = { enable = true } } } })`.
-- `require('ctlpgn').setup()` declares the same configuration and adds format on save and the
-- tree-sitter parser; it also works on Neovim 0.7.

---@type vim.lsp.Config
return require('ctlpgn').lsp_config()
