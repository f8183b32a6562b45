(record) @fold
(tag_section) @fold
(variation) @fold
(comment) @fold
