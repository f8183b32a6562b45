-- Colours for the server's semantic tokens (Neovim 0.9 and later) in the groups every colour
-- scheme colours. Neovim gives a token of type T the group `@lsp.type.T.ctlpgn`, which falls
-- back to `@lsp.type.T`: the default scheme of 0.10 and later leaves variables, types and
-- operators plain, so a move line would be one colour. Here a coordinate is an Identifier,
-- a piece Special, a move reference a Tag, a separator, a check, an indicator or a NAG a
-- SpecialChar: a line of pawn moves (`2. F8-F12, F20-F16`) shows three colours in the default
-- scheme, its number plain, its coordinates and its separators each in theirs. The links are
-- defaults: a colour scheme or the user may set these groups themselves. The Vim syntax file
-- (syntax/ctlpgn.vim) uses the same groups, so that a record looks alike with either.

local M = {}

M.links = {
  ['@lsp.type.variable.ctlpgn'] = 'Identifier', -- a coordinate, a hex reference
  ['@lsp.type.type.ctlpgn'] = 'Special', -- a piece's identifier
  ['@lsp.type.number.ctlpgn'] = 'Number', -- a move number
  ['@lsp.type.operator.ctlpgn'] = 'SpecialChar', -- a separator, a check, a promotion, `…`
  ['@lsp.type.keyword.ctlpgn'] = 'Keyword', -- a castling, a comment's marker
  ['@lsp.type.macro.ctlpgn'] = 'Tag', -- a move reference in a comment (#14@B)
  ['@lsp.type.enumMember.ctlpgn'] = 'Constant', -- a result
  ['@lsp.type.event.ctlpgn'] = 'SpecialChar', -- an indicator (!, ?)
  ['@lsp.type.decorator.ctlpgn'] = 'SpecialChar', -- a rating, a NAG
  ['@lsp.type.property.ctlpgn'] = 'Identifier', -- a tag's name
  ['@lsp.type.string.ctlpgn'] = 'String', -- a tag's value
  ['@lsp.type.comment.ctlpgn'] = 'Comment', -- a comment's text
}

local function apply()
  for group, target in pairs(M.links) do
    vim.api.nvim_set_hl(0, group, { link = target, default = true })
  end
end

-- Sets the links now and again after every `:colorscheme`, which clears them. Neovim before
-- 0.9 has no semantic tokens.
function M.define()
  if not (vim.lsp.semantic_tokens and vim.fn.has('nvim-0.9') == 1) then
    return
  end
  apply()
  vim.api.nvim_create_autocmd('ColorScheme', {
    group = vim.api.nvim_create_augroup('ctlpgn_highlights', { clear = true }),
    callback = apply,
  })
end

return M
