; Tags
(tag_name) @property
(tag_value) @string
["[" "]"] @punctuation.bracket

; Movetext
(move_number) @number
(indentation) @punctuation.delimiter
(ellipsis) @punctuation.special
"," @punctuation.delimiter
(piece) @type
(coordinate) @constant
(separator) @operator
(promotion) @keyword.operator
(castling) @keyword
(check) @keyword
(rating) @attribute
(indicator) @attribute
(nag) @constant.numeric
(result) @constant.builtin

; Variations
["(" ")"] @punctuation.bracket
(label) @label

; Comments and the references inside them
(comment) @comment
["{" "}"] @punctuation.bracket
(comment_marker) @keyword
(player_reference) @variable.builtin
(move_reference) @label
(hex_reference) @constant
(piece_reference) @type
