" Vim syntax for CTL-PGN game records (C'escacs), for when the tree-sitter parser is not
" built: Neovim reads it for a buffer of filetype ctlpgn while 'syntax' is on, and turns it
" off where tree-sitter highlights. It follows tree-sitter-ctlpgn/grammar.js loosely, and
" colours with the groups the language server's semantic tokens are linked to
" (lua/ctlpgn/highlights.lua), so that a record looks alike either way: a coordinate is an
" Identifier, a piece Special, a move number a Number, a separator or a check a SpecialChar.
if exists('b:current_syntax')
  finish
endif

let s:cpo_save = &cpo
set cpo&vim

syntax case match

" ---- Tags ---------------------------------------------------------------------------------
syntax region ctlpgnTag matchgroup=ctlpgnTagBracket start=/^\s*\[/ end=/\]/ oneline keepend contains=ctlpgnTagName,ctlpgnTagValue
syntax match ctlpgnTagName /\[\@1<=\s*\zs[A-Za-z0-9_]\+/ contained
syntax region ctlpgnTagValue start=/"/ skip=/\\"/ end=/"/ oneline contained

" ---- Movetext -----------------------------------------------------------------------------
" A move number, `12.`, with the ellipsis of Black's half-move after it.
syntax match ctlpgnMoveNumber /\<[0-9]\+[.?]/
syntax match ctlpgnEllipsis /…\|\.\.\./
" A coordinate: a column letter and a line number.
syntax match ctlpgnCoordinate /\a[0-9]\+/
" A piece: the identifier letter or figurine before a coordinate (`JF6`, `☖E9`).
syntax match ctlpgnPiece /\a\@1<!\a\ze\a[0-9]/
syntax match ctlpgnPiece /[\u2654-\u265F\u2616\u2617\U1FA4F-\U1FA53]/
" The separators `-` `‐` `×` `*` `@` `@@` (and the mistaken `x` and look-alike dashes).
syntax match ctlpgnSeparator /[0-9]\@1<=\%([-‐×*@–‑−]\|@@\|x\)\ze[A-Za-z\u2654-\u265F\u2616\u2617\U1FA4F-\U1FA53]/
syntax match ctlpgnPromotion /=[&A-Za-z\u2654-\u265F\u2616\u2617\U1FA4F-\U1FA53]/
syntax match ctlpgnCastling /[K♔♚][A-Z♖♜][A-Z♔♕♖♚♛♜][-‐‑–−][A-Z]\+/
syntax match ctlpgnCheck /[0-9A-Z]\@1<=\%(+∞\|+^\|++\|^+\|+\|#\)/
syntax match ctlpgnRating /[0-9A-Z∞^+#]\@1<=[?!◇]\+/
syntax match ctlpgnIndicator /\%((=)\)\?:\%(\s\|$\)\@=/
syntax match ctlpgnNag /\$[0-9]\+/
syntax match ctlpgnResult /\%(^\|\s\)\zs\%(\*\|[0-9]\+\%(\/[0-9]\+\)\=\s*[-‐]\s*[0-9]\+\%(\/[0-9]\+\)\=\)\ze\s*$/
" Variations and their labels.
syntax match ctlpgnParen /[()]/
syntax match ctlpgnLabel /\$\[[0-9]*\]/

" ---- Comments and the references inside them ---------------------------------------------
syntax region ctlpgnComment matchgroup=ctlpgnCommentBrace start=/{/ end=/}/ contains=ctlpgnMarker,ctlpgnMoveReference,ctlpgnHexReference,ctlpgnPlayerReference,ctlpgnNag,@Spell
syntax match ctlpgnMarker /{\@1<=\s*\zs@[WB]:/ contained
syntax match ctlpgnMoveReference /#[0-9][0-9.]*\%(@[WB]\)\=\%(\[[^\]]*\]\)\=/ contained
syntax match ctlpgnHexReference /\~\S\{-1,}\%([0-9]\+\|\[[dlc]\]\)\=\>/ contained
syntax match ctlpgnPlayerReference /@[WB]\>:\@!/ contained

highlight default link ctlpgnTagBracket Delimiter
highlight default link ctlpgnTagName Identifier
highlight default link ctlpgnTagValue String
highlight default link ctlpgnMoveNumber Number
highlight default link ctlpgnEllipsis SpecialChar
highlight default link ctlpgnCoordinate Identifier
highlight default link ctlpgnPiece Special
highlight default link ctlpgnSeparator SpecialChar
highlight default link ctlpgnPromotion SpecialChar
highlight default link ctlpgnCastling Keyword
highlight default link ctlpgnCheck SpecialChar
highlight default link ctlpgnRating SpecialChar
highlight default link ctlpgnIndicator SpecialChar
highlight default link ctlpgnNag SpecialChar
highlight default link ctlpgnResult Constant
highlight default link ctlpgnParen Delimiter
highlight default link ctlpgnLabel Tag
highlight default link ctlpgnComment Comment
highlight default link ctlpgnCommentBrace Comment
highlight default link ctlpgnMarker Keyword
highlight default link ctlpgnMoveReference Tag
highlight default link ctlpgnHexReference Identifier
highlight default link ctlpgnPlayerReference Identifier

let b:current_syntax = 'ctlpgn'

let &cpo = s:cpo_save
unlet s:cpo_save
