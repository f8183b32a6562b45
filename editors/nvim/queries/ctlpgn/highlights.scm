; Syntax highlighting for CTL-PGN. Capture names follow the Neovim (nvim-treesitter)
; conventions, which Helix and the tree-sitter CLI also understand for the most part.

; ---- Tags -------------------------------------------------------------------------------

(tag
  name: (tag_name) @property)

(tag_value) @string

(tag
  [
    "["
    "]"
  ] @punctuation.bracket)

; ---- Movetext ---------------------------------------------------------------------------

(move_number) @number

(indentation) @punctuation.delimiter

(ellipsis) @punctuation.special

(move_line
  "," @punctuation.delimiter)

; The moving piece and the captured piece.
(piece) @type

(coordinate) @constant

; `-` `‐` `×` `*` `@` `@@` (and the mistaken `x`).
(separator) @operator

(promotion) @keyword.operator

(castling) @keyword

(check) @keyword.operator

(rating) @attribute

(indicator) @attribute

; A NAG written in movetext (an error there, S008).
(half_move
  nag: (nag) @attribute)

(result) @constant.builtin

; ---- Variations -------------------------------------------------------------------------

(variation
  [
    "("
    ")"
  ] @punctuation.bracket)

(stray_close
  ")" @punctuation.bracket)

(label) @label

; ---- Comments and the references inside them --------------------------------------------

(comment) @comment

(comment_text) @spell

(comment
  [
    "{"
    "}"
  ] @punctuation.bracket)

(comment_marker) @keyword

(player_reference) @variable.builtin

(move_reference) @label

(hex_reference) @constant

(piece_reference) @type

(comment
  (nag) @number)
