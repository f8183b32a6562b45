// External scanner for CTL-PGN: record starts and the inside of comments.
//
// Two things cannot be said with the grammar's regular expressions:
// * a record starts at a line whose first non-blank characters are `[Variant`; the scanner
//   emits a zero-width `_record_end` at the end of the previous record's last item and a
//   zero-width `_record_start` in front of the `[`, which also lets error recovery
//   resynchronise at the next record;
// * a comment `{ ... }` runs to the first `}`, but an unclosed comment must stop before the
//   next `[Variant` line (handbook §12.1, N003) instead of swallowing the rest of the file.
//   The scanner tokenises comment bodies (marker, text, references) and emits a zero-width
//   close there or at the end of the input.

#include "tree_sitter/parser.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

enum TokenType {
  RECORD_START,
  RECORD_END,
  COMMENT_MARKER,
  COMMENT_TEXT,
  PLAYER_REFERENCE,
  MOVE_REFERENCE,
  HEX_REFERENCE,
  PIECE_REFERENCE,
  NAG,
  COMMENT_CLOSE,
  ERROR_SENTINEL,
};

// The scanner's one piece of state: a `[Variant` line that starts a record has been seen
// by the token just emitted (a zero-width `_record_end`, or the zero-width close of an
// unclosed comment in front of that line), so the next `_record_start` needs no new check
// that the `[` begins its line (the blanks and line ends before it may already be behind).
typedef struct {
  bool record_start_pending;
} Scanner;

void *tree_sitter_ctlpgn_external_scanner_create(void) {
  Scanner *scanner = calloc(1, sizeof(Scanner));
  return scanner;
}

void tree_sitter_ctlpgn_external_scanner_destroy(void *payload) { free(payload); }

unsigned tree_sitter_ctlpgn_external_scanner_serialize(void *payload, char *buffer) {
  Scanner *scanner = payload;
  buffer[0] = (char)scanner->record_start_pending;
  return 1;
}

void tree_sitter_ctlpgn_external_scanner_deserialize(void *payload, const char *buffer,
                                                    unsigned length) {
  Scanner *scanner = payload;
  scanner->record_start_pending = length > 0 && buffer[0] != 0;
}

static inline void advance(TSLexer *lexer) { lexer->advance(lexer, false); }
static inline void skip(TSLexer *lexer) { lexer->advance(lexer, true); }

// The grammar's character classes (`grammar.js`: WHITE_SPACE = SPACE_OR_TAB, BYTE_ORDER_MARK
// and LINE_END; FIGURINES), and the server reader's (`server/src/syntax/chars.rs`).
static inline bool is_blank(int32_t c) { return c == ' ' || c == '\t' || c == 0xFEFF; }
static inline bool is_newline(int32_t c) { return c == '\n' || c == '\r'; }
static inline bool is_space(int32_t c) { return is_blank(c) || is_newline(c); }
static inline bool is_digit(int32_t c) { return c >= '0' && c <= '9'; }
static inline bool is_upper(int32_t c) { return c >= 'A' && c <= 'Z'; }
static inline bool is_letter(int32_t c) { return is_upper(c) || (c >= 'a' && c <= 'z'); }
static inline bool is_alnum(int32_t c) { return is_letter(c) || is_digit(c); }
static inline bool is_figurine(int32_t c) {
  return (c >= 0x2654 && c <= 0x265F) || c == 0x2616 || c == 0x2617 ||
         (c >= 0x1FA4F && c <= 0x1FA53);
}

// Consumes `[Variant` followed by a character that cannot continue a tag name. The caller has
// already marked the end of the (zero-width) token in front of the `[`.
static bool consume_variant_tag_opening(TSLexer *lexer) {
  static const char *const OPENING = "[Variant";
  for (const char *p = OPENING; *p; p++) {
    if (lexer->lookahead != *p) return false;
    advance(lexer);
  }
  return !(is_alnum(lexer->lookahead) || lexer->lookahead == '_');
}

// Skips blanks and line ends; tells whether a line end was crossed, and counts in `blanks` the
// blanks skipped since the last line end (when `blanks` is not NULL).
static bool skip_spaces(TSLexer *lexer, uint32_t *blanks) {
  bool crossed_line_end = false;
  uint32_t count = 0;
  while (is_space(lexer->lookahead) && !lexer->eof(lexer)) {
    if (is_newline(lexer->lookahead)) {
      crossed_line_end = true;
      count = 0;
    } else {
      count++;
    }
    skip(lexer);
  }
  if (blanks) *blanks = count;
  return crossed_line_end;
}

// Skips blanks and line ends and tells whether a `[Variant` line starts there, consuming its
// opening. When no line end was crossed, the `[` starts such a line only if nothing but the
// skipped blanks precede it on its line, or if an unclosed comment was just closed in front of
// it. The scanner starts where the previous token ended, and no token ends with a line end
// (they are extras), so nothing but blanks precede the `[` only at the start of the input.
// (Not `get_column`, which counts from the line's start on every call: a line of 10,000 `[`,
// each asked about, took seconds.) With `mark_in_front`, the token being scanned ends in
// front of the `[`.
static bool skip_to_variant_line(TSLexer *lexer, bool after_comment_close, bool mark_in_front) {
  bool at_input_start = lexer->is_at_included_range_start(lexer);
  uint32_t blanks = 0;
  bool crossed_line_end = skip_spaces(lexer, &blanks);
  if (lexer->lookahead != '[') return false;
  if (!crossed_line_end && !after_comment_close && !at_input_start) return false;
  if (mark_in_front) lexer->mark_end(lexer);
  return consume_variant_tag_opening(lexer);
}

static bool scan_record_start(TSLexer *lexer, bool after_comment_close) {
  if (!skip_to_variant_line(lexer, after_comment_close, true)) return false;
  lexer->result_symbol = RECORD_START;
  return true;
}

// Closes a record when the next non-blank character begins a `[Variant` line. The token is
// zero-width at the end of the record's last item: its end is marked before the blanks are
// skipped, and the lexer moves the start of a token that ends before it starts back to its
// end. Skipping (rather than advancing over) the blanks keeps them out of the token that is
// scanned next when this one fails (a movetext NAG).
static bool scan_record_end(Scanner *scanner, TSLexer *lexer, bool after_comment_close) {
  lexer->mark_end(lexer);
  if (!skip_to_variant_line(lexer, after_comment_close, false)) return false;
  scanner->record_start_pending = true;
  lexer->result_symbol = RECORD_END;
  return true;
}

// Text inside a comment runs until `}`, the end of the input, a line that starts a new record,
// or a character that starts a reference. It never ends with blanks.
static bool scan_comment_text(TSLexer *lexer) {
  for (;;) {
    int32_t c = lexer->lookahead;
    if (lexer->eof(lexer) || c == '}') break;
    if (is_newline(c)) {
      // Look past the line end: an unclosed comment stops in front of the next record.
      while (is_space(lexer->lookahead) && !lexer->eof(lexer)) advance(lexer);
      if (lexer->lookahead == '[') {
        if (consume_variant_tag_opening(lexer)) break;
      }
      continue;
    }
    if (is_blank(c)) {
      advance(lexer);
      continue;
    }
    if (c == '@' || c == '#' || c == '~' || c == '$') {
      advance(lexer);
      int32_t next = lexer->lookahead;
      bool starts_reference = false;
      if (c == '@') {
        if (next == 'W' || next == 'B' || next == 'N') {
          advance(lexer);
          starts_reference = !is_alnum(lexer->lookahead);
        }
      } else if (c == '#') {
        starts_reference = is_digit(next) || next == '.';
      } else if (c == '~') {
        starts_reference = is_letter(next) || is_figurine(next);
      } else {
        starts_reference = is_digit(next);
      }
      if (starts_reference) break;
      lexer->mark_end(lexer);
      continue;
    }
    advance(lexer);
    lexer->mark_end(lexer);
  }
  lexer->result_symbol = COMMENT_TEXT;
  return true;
}

// Whether `c` may continue a move reference after a dot.
static bool continues_move_reference(int32_t c) {
  return is_digit(c) || c == '.' || c == '[' || c == ']' || c == '#' || c == '$' || c == '@';
}

// Scans a move reference after its `#`: digits, dots, variation paths in brackets and the
// `@W`/`@B` suffix, read leniently; the server parses and judges the exact form (§12.3).
// A dot after a reference that is more than a number (`#11@B.`, `#14[#12.2].`, `#12.2.`),
// followed by something no reference continues with, is the full stop of a sentence and
// ends the reference before it. A dot right after the number stays in the reference:
// `#12.` is the malformed start of a variation reference (N019), as the handbook says.
static void consume_move_reference(TSLexer *lexer) {
  bool only_digits = true;
  for (;;) {
    int32_t c = lexer->lookahead;
    if (c == '.' && !only_digits) {
      lexer->mark_end(lexer);
      advance(lexer);
      if (!continues_move_reference(lexer->lookahead)) return;
    } else if (is_digit(c) || c == '.' || c == '[' || c == ']' || c == '#' || c == '$') {
      if (!is_digit(c)) only_digits = false;
      advance(lexer);
    } else if (c == '@') {
      only_digits = false;
      advance(lexer);
      if (lexer->lookahead == 'W' || lexer->lookahead == 'B' || lexer->lookahead == 'N') {
        advance(lexer);
      }
    } else {
      break;
    }
  }
  lexer->mark_end(lexer);
}

// Scans a `~` reference after its `~`: a hex (`~F14`), or a piece (`~K`, `~g`, `~♝`)
// optionally followed by a hex (`~NG25`) or a Bishop colour selector (`~J[d]`).
static enum TokenType consume_tilde_reference(TSLexer *lexer) {
  int32_t first = lexer->lookahead;
  advance(lexer);
  if (is_letter(first) && is_digit(lexer->lookahead)) {
    while (is_digit(lexer->lookahead)) advance(lexer);
    lexer->mark_end(lexer);
    return HEX_REFERENCE;
  }
  lexer->mark_end(lexer);
  if (is_letter(lexer->lookahead)) {
    advance(lexer);
    if (is_digit(lexer->lookahead)) {
      while (is_digit(lexer->lookahead)) advance(lexer);
      lexer->mark_end(lexer);
    }
  } else if (lexer->lookahead == '[') {
    advance(lexer);
    for (int i = 0; i < 4 && !is_space(lexer->lookahead) && !lexer->eof(lexer); i++) {
      int32_t c = lexer->lookahead;
      advance(lexer);
      if (c == ']') {
        lexer->mark_end(lexer);
        break;
      }
    }
  }
  return PIECE_REFERENCE;
}

static bool scan_comment(Scanner *scanner, TSLexer *lexer, const bool *valid_symbols) {
  int32_t first = lexer->lookahead;
  bool after_blank = is_space(first);
  bool crossed_line_end = skip_spaces(lexer, NULL);
  int32_t c = lexer->lookahead;

  if (lexer->eof(lexer)) {
    lexer->mark_end(lexer);
    lexer->result_symbol = COMMENT_CLOSE;
    return true;
  }
  if (c == '}') {
    advance(lexer);
    lexer->mark_end(lexer);
    lexer->result_symbol = COMMENT_CLOSE;
    return true;
  }
  if (crossed_line_end && c == '[') {
    lexer->mark_end(lexer);
    if (consume_variant_tag_opening(lexer)) {
      scanner->record_start_pending = true;
      lexer->result_symbol = COMMENT_CLOSE;
      return true;
    }
    lexer->mark_end(lexer);
    return scan_comment_text(lexer);
  }

  if (c == '@') {
    advance(lexer);
    int32_t side = lexer->lookahead;
    if (side == 'W' || side == 'B' || side == 'N') {
      advance(lexer);
      lexer->mark_end(lexer);
      if (lexer->lookahead == ':' && valid_symbols[COMMENT_MARKER]) {
        advance(lexer);
        lexer->mark_end(lexer);
        lexer->result_symbol = COMMENT_MARKER;
        return true;
      }
      if (!is_alnum(lexer->lookahead)) {
        lexer->result_symbol = PLAYER_REFERENCE;
        return true;
      }
    }
    lexer->mark_end(lexer);
    return scan_comment_text(lexer);
  }
  if (c == ':' && !after_blank && valid_symbols[COMMENT_MARKER]) {
    advance(lexer);
    lexer->mark_end(lexer);
    lexer->result_symbol = COMMENT_MARKER;
    return true;
  }
  if (c == '#') {
    advance(lexer);
    int32_t next = lexer->lookahead;
    if (valid_symbols[COMMENT_MARKER] && (next == ':' || next == 'W' || next == 'B')) {
      // The legacy markers `{#:`, `{#W:` and `{#B:` (N004).
      if (next != ':') advance(lexer);
      if (lexer->lookahead == ':') {
        advance(lexer);
        lexer->mark_end(lexer);
        lexer->result_symbol = COMMENT_MARKER;
        return true;
      }
    } else if (is_digit(next) || next == '.') {
      consume_move_reference(lexer);
      lexer->result_symbol = MOVE_REFERENCE;
      return true;
    }
    lexer->mark_end(lexer);
    return scan_comment_text(lexer);
  }
  if (c == '~') {
    advance(lexer);
    int32_t next = lexer->lookahead;
    if (is_letter(next) || is_figurine(next)) {
      lexer->result_symbol = consume_tilde_reference(lexer);
      return true;
    }
    lexer->mark_end(lexer);
    return scan_comment_text(lexer);
  }
  if (c == '$') {
    advance(lexer);
    if (is_digit(lexer->lookahead)) {
      while (is_digit(lexer->lookahead)) advance(lexer);
      lexer->mark_end(lexer);
      lexer->result_symbol = NAG;
      return true;
    }
    lexer->mark_end(lexer);
    return scan_comment_text(lexer);
  }
  advance(lexer);
  lexer->mark_end(lexer);
  return scan_comment_text(lexer);
}

// A NAG in movetext (`E7-E13 $1`), which the server reports as S008.
static bool scan_movetext_nag(TSLexer *lexer) {
  skip_spaces(lexer, NULL);
  if (lexer->lookahead != '$') return false;
  advance(lexer);
  if (!is_digit(lexer->lookahead)) return false;
  while (is_digit(lexer->lookahead)) advance(lexer);
  lexer->mark_end(lexer);
  lexer->result_symbol = NAG;
  return true;
}

bool tree_sitter_ctlpgn_external_scanner_scan(void *payload, TSLexer *lexer,
                                              const bool *valid_symbols) {
  Scanner *scanner = payload;
  bool after_comment_close = scanner->record_start_pending;
  scanner->record_start_pending = false;
  // During error recovery every symbol is valid; then only resynchronise at a record start.
  // (Never a `_record_end` here: the runtime keeps a zero-width token found during error
  // recovery only when it changes the scanner's state, and alternating `_record_end` and
  // `_record_start`, which both change it, would loop forever at the same position.)
  if (valid_symbols[ERROR_SENTINEL]) {
    return scan_record_start(lexer, after_comment_close);
  }
  if (valid_symbols[COMMENT_CLOSE]) {
    return scan_comment(scanner, lexer, valid_symbols);
  }
  if (valid_symbols[RECORD_END]) {
    if (scan_record_end(scanner, lexer, after_comment_close)) return true;
    if (lexer->lookahead == '[') return false;
  }
  if (valid_symbols[RECORD_START]) {
    if (scan_record_start(lexer, after_comment_close)) return true;
    if (lexer->lookahead == '[') return false;
  }
  if (valid_symbols[NAG]) {
    return scan_movetext_nag(lexer);
  }
  return false;
}
