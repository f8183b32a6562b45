/**
 * @file Tree-sitter grammar for CTL-PGN, the game-record format of C'escacs.
 * @license MIT
 *
 * The record is the top-level unit: a zero-width `_record_start` token (from the external
 * scanner) opens a record at every line that begins with `[Variant`, so that one record can be
 * parsed on its own and an edit never has to re-parse its neighbours.
 *
 * The body of a record is a flat list of line items (tags, move lines, comments, variations,
 * results). Layout rules (one tag per line, comments on their own lines, the order of the
 * tag section, movetext, result line and final comments) are judged by the language server,
 * not by the grammar, so that wrong input still yields a tree the server can point into.
 */

/// <reference types="tree-sitter-cli/dsl" />
// @ts-check

// The character classes, each written once here, as the members of a regular expression's
// `[...]`, and once for the server's reader (`server/src/syntax/chars.rs`, whose tests drive
// this grammar with every control character and Unicode space); `src/scanner.c`'s `is_blank`
// and `is_newline` are the same classes.
//
// White space is what the handbook names (§1, §7.1): spaces and tabs, and line ends (LF, and CR
// alone or before LF); the byte-order mark is skipped like a blank wherever it stands. Every
// other character is text, control characters and Unicode spaces included: never `\s`, which
// takes in U+000B, U+000C and the Unicode spaces.
const SPACE_OR_TAB = ' \\t';
const LINE_END = '\\r\\n';
const BYTE_ORDER_MARK = '\\uFEFF';
const WHITE_SPACE = SPACE_OR_TAB + BYTE_ORDER_MARK + LINE_END;
// FAN figurines: chess pieces (U+2654-U+265F), shogi elephants (U+2616, U+2617) and the
// Pegasus and Wyvern of the Chess Symbols block (U+1FA4F-U+1FA53).
const FIGURINES = '\\u2654-\\u265F\\u2616\\u2617\\u{1FA4F}-\\u{1FA53}';

/** A regular expression from a pattern written with the classes above. */
const pattern = source => new RegExp(source, 'u');

// A piece identifier: one letter (lower case is accepted so that the server can report S007)
// or one figurine.
const PIECE = pattern(`[A-Za-z${FIGURINES}]`);
// A coordinate, read leniently: any letter and any digits, so that `J5`, `F3`, `E30` and
// `F08` become coordinate nodes the server can judge (C001-C004).
const COORDINATE = /[A-Za-z][0-9]+/;
// Castling tokens: `K`, the Rook identifier, the side letter, a hyphen, then the target
// columns (`KRK-II`, `KRK-HIOO`, `KTD-DE`, `♔♖♔-II`). Any dash is accepted here; the server
// checks the token against the 24 of the handbook's table.
const CASTLING = /[K\u2654\u265A][A-Z\u2656\u265C][A-Z\u2654\u2655\u2656\u265A\u265B\u265C][-\u2010\u2011\u2013\u2212][A-Z]+/u;

module.exports = grammar({
  name: 'ctlpgn',

  externals: $ => [
    $._record_start,
    $._record_end,
    $.comment_marker,
    $.comment_text,
    $.player_reference,
    $.move_reference,
    $.hex_reference,
    $.piece_reference,
    $.nag,
    $._comment_close,
    $._error_sentinel,
  ],

  extras: _ => [pattern(`[${WHITE_SPACE}]`)],

  conflicts: _ => [],

  rules: {
    source_file: $ => seq(
      optional(alias($._headless_record, $.record)),
      repeat($.record),
    ),

    // A record opened by a `[Variant` line.
    // The scanner only opens a record in front of a `[Variant` tag, so the tag section is
    // never empty; requiring it also keeps the zero-width start from repeating in place.
    // The zero-width `_record_end` (emitted at the end of the record's last item when a
    // `[Variant` line follows) closes the record before the next one is opened, so that
    // the next record's `_record_start` is always read at the top level of the file. This is
    // what lets an incremental re-parse reuse the following records whole: a token can only
    // be reused in a parse state with the same lexical context as the one it was read in.
    // It is optional: at the end of the file, and when error recovery resynchronises at a
    // record start, the record simply ends.
    record: $ => seq(
      $._record_start,
      $.tag_section,
      repeat($._item),
      optional($._record_end),
    ),

    // Text before the first `[Variant` line: still a record, so that its content is
    // checked (the server reports the missing Variant tag).
    _headless_record: $ => seq(
      repeat1($._item),
      optional($._record_end),
    ),

    tag_section: $ => prec.right(repeat1($.tag)),

    _item: $ => choice(
      $.tag,
      $.move_line,
      $.comment,
      $.variation,
      $.result,
      $.stray_close,
    ),

    // ---- Tags -------------------------------------------------------------------------

    tag: $ => seq(
      '[',
      field('name', $.tag_name),
      optional(field('value', $.tag_value)),
      ']',
    ),

    tag_name: _ => /[A-Za-z][A-Za-z0-9_]*/,

    // The quotes are part of the token; `\"` and `\\` are the escapes of §10.1.
    tag_value: _ => pattern(`"([^"\\\\${LINE_END}]|\\\\[^${LINE_END}])*"`),

    // ---- Move lines ---------------------------------------------------------------------

    move_line: $ => seq(
      optional($.indentation),
      field('number', $.move_number),
      optional(choice(
        seq(
          field('white', $.half_move),
          optional(seq(',', optional(field('black', $.half_move)))),
        ),
        seq(
          field('ellipsis', $.ellipsis),
          optional(seq(',', optional(field('black', $.half_move)))),
        ),
      )),
    ),

    // Indentation dots before the content of a line (§7.1, §11.4). Indentation is any mix of
    // blanks and full stops; the token runs from the first dot to the last one (`. .{`).
    indentation: _ => pattern(`\\.([${SPACE_OR_TAB}]*\\.)*`),

    // `12.` or the unknown-start form `1?` (any digits, so the server can report M002).
    move_number: _ => /[0-9]+[.?]/,

    ellipsis: _ => choice('…', '...'),

    half_move: $ => seq(
      choice(
        // A piece move: `NE3-F8`, `E13×F16`, `EF12×NF14`, `B22-B24=D`, `F12@@G9`.
        // The separator is optional so that `E7E13` still has an origin and a destination.
        seq(
          optional(field('piece', $.piece)),
          field('origin', $.coordinate),
          optional(field('separator', $.separator)),
          optional(field('captured', $.piece)),
          field('destination', $.coordinate),
          optional(field('promotion', $.promotion)),
        ),
        // A forced promotion of an awaiting pawn starts with its hex: `T22=R`.
        seq(
          field('destination', $.coordinate),
          field('promotion', $.promotion),
        ),
        field('castling', $.castling),
      ),
      optional(field('check', $.check)),
      optional(choice(
        field('rating', $.rating),
        field('nag', $.nag),
      )),
      optional(field('indicator', $.indicator)),
    ),

    piece: _ => PIECE,

    coordinate: _ => COORDINATE,

    // `-` and `‐` move, `×` and `*` capture, `@`/`@@` en passant and scornful capture.
    // `x` and the look-alike dashes are read so the server can report S005 and S006.
    // The token outranks `piece`, so that `x` after an origin is a separator.
    separator: _ => token(prec(1, choice(
      '-', '\u2010', '\u00D7', '*', '@', '@@',
      'x', '\u2013', '\u2011', '\u2212',
    ))),

    // `=X` or `=&`; any identifier is read, the server checks it.
    promotion: _ => token(seq('=', choice('&', PIECE))),

    castling: _ => CASTLING,

    check: _ => token(choice('+', '+\u221E', '+^', '++', '#', '^+')),

    // A rating (`?` `??` `?!` `!` `!!` `!?` `◇`), read leniently so that `?!!` is a
    // rating node the server reports as S009.
    rating: _ => /[?!\u25C7]+/,

    // A game indicator: `(=)`, `:`, `(=):`; `(=` is read so that the server can report S009.
    indicator: _ => token(choice(':', /\(=\)?:?/)),

    // ---- Variations -------------------------------------------------------------------

    variation: $ => seq(
      optional($.indentation),
      '(',
      optional(field('label', $.label)),
      repeat($._variation_item),
      optional($.indentation),
      ')',
    ),

    _variation_item: $ => choice(
      $.move_line,
      $.comment,
      $.variation,
    ),

    // `$[2]`; a malformed label (`$2`, `$[x]`, a lone `$`) is still a label node (M020).
    // It runs up to white space (`$[1 ]` is the label `$[1`).
    label: _ => token(seq('$', optional(choice(
      pattern(`\\[[^\\]${WHITE_SPACE}]*\\]`),
      pattern(`\\[[^\\]${WHITE_SPACE}]*`),
      pattern(`[^\\[${WHITE_SPACE}][^${WHITE_SPACE}]*`),
    )))),

    // A `)` that closes nothing (M011).
    stray_close: $ => seq(optional($.indentation), ')'),

    // ---- Comments -----------------------------------------------------------------------

    // The body is tokenised by the external scanner: text, references and the marker.
    // An unclosed comment ends (with a zero-width close) before the next `[Variant` line or
    // at the end of the file, so it never swallows the next record.
    comment: $ => seq(
      optional($.indentation),
      '{',
      optional(field('marker', $.comment_marker)),
      repeat(choice(
        $.comment_text,
        $.player_reference,
        $.move_reference,
        $.hex_reference,
        $.piece_reference,
        $.nag,
      )),
      alias($._comment_close, '}'),
    ),

    // ---- Result -------------------------------------------------------------------------

    // `3-0 2-1 0-3 1-2 1-1 *`, read leniently (`1-0`, `1/2-1/2`, `3 - 0`) for M007.
    result: _ => token(choice(
      '*',
      pattern(`[0-9]+(\\/[0-9]+)?[${SPACE_OR_TAB}]*[-\\u2010][${SPACE_OR_TAB}]*[0-9]+(\\/[0-9]+)?`),
    )),
  },
});
