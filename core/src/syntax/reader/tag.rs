//! A tag line `[Name "value"]`, read as the grammar reads it; a tag holding an error (S002) is
//! left to the tree.

use super::cursor::Cursor;
use crate::syntax::{Tag, Token};
use crate::text::TextRange;

/// Reads the tag whose `[` is at the cursor. Blanks may stand between its tokens; a line end
/// inside it is left to the tree.
pub(super) fn read_tag(cursor: &mut Cursor<'_>) -> Option<Tag> {
    let start = cursor.pos;
    cursor.pos += 1;
    cursor.skip_blanks();
    let name_start = cursor.pos;
    if !cursor.byte()?.is_ascii_alphabetic() {
        return None;
    }
    while cursor.byte().is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_') {
        cursor.pos += 1;
    }
    let name = Token { range: TextRange::new(name_start, cursor.pos) };
    cursor.skip_blanks();
    let mut value = None;
    if cursor.byte() == Some(b'"') {
        let value_start = cursor.pos;
        cursor.pos += 1;
        loop {
            match cursor.byte()? {
                b'"' => break,
                b'\r' | b'\n' => return None,
                b'\\' => {
                    if matches!(cursor.byte_at(cursor.pos + 1)?, b'\r' | b'\n') {
                        return None;
                    }
                    // The escaped character may be any, a multi-byte one included.
                    let escaped = cursor.char_at(cursor.pos + 1)?;
                    cursor.pos += 1 + escaped.len_utf8();
                }
                _ => cursor.pos += 1,
            }
        }
        cursor.pos += 1;
        value = Some(Token { range: TextRange::new(value_start, cursor.pos) });
        cursor.skip_blanks();
    }
    if cursor.byte() != Some(b']') {
        return None;
    }
    cursor.pos += 1;
    Some(Tag { range: TextRange::new(start, cursor.pos), name, value, malformed: false })
}
