// CTL-PGN's colours in CodeMirror: a small line-by-line tokenizer (the handbook's lexical
// rules, §7, §10.1, §12.1) that only colours; the checking is the module's.

import { StreamLanguage, HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { tags } from '@lezer/highlight';

const RESULT = /^(?:3-0|2-1|0-3|1-2|1-1|\*)(?=\s|$)/;
const ANNOTATION = /^(?:\?\?|\?!|!!|!\?|[?!◇]|\(=\)|:)+/;
const CHECK = /^(?:\+∞|\+\^|\+\+|\+|#)/;

/** The tokenizer: state is whether a comment is open, and where in a tag line the stream is. */
const ctlpgn = StreamLanguage.define({
  name: 'ctlpgn',
  startState: () => ({ comment: false, tag: null }),
  copyState: (state) => ({ ...state }),
  token(stream, state) {
    if (state.comment) {
      // The first `}` ends a comment (no nesting).
      if (stream.skipTo('}')) {
        stream.next();
        state.comment = false;
      } else {
        stream.skipToEnd();
      }
      return 'comment';
    }
    if (stream.sol()) {
      state.tag = null;
    }
    if (state.tag === 'name') {
      if (stream.match(/^[A-Za-z0-9_]+/)) {
        state.tag = 'value';
        return 'propertyName';
      }
      state.tag = 'value';
    }
    if (state.tag === 'value') {
      if (stream.eatSpace()) {
        return null;
      }
      if (stream.match(/^"(?:[^"\\]|\\.)*"?/)) {
        return 'string';
      }
      if (stream.eat(']')) {
        state.tag = null;
        return 'squareBracket';
      }
      stream.next();
      return null;
    }
    if (stream.eatSpace()) {
      return null;
    }
    // Indentation dots, at the start of a line's content.
    if (/^[\s.]*$/.test(stream.string.slice(0, stream.pos)) && stream.match(/^\.+/)) {
      return 'meta';
    }
    if (stream.eat('{')) {
      state.comment = true;
      if (stream.skipTo('}')) {
        stream.next();
        state.comment = false;
      } else {
        stream.skipToEnd();
      }
      return 'comment';
    }
    if (stream.peek() === '[' && stream.string.slice(0, stream.pos).trim() === '') {
      stream.next();
      state.tag = 'name';
      return 'squareBracket';
    }
    if (stream.match(/^\$\[\d*\]?/)) {
      return 'labelName';
    }
    if (stream.match(ANNOTATION)) {
      return 'annotation';
    }
    if (stream.eat('(') || stream.eat(')')) {
      return 'paren';
    }
    if (stream.match(/^(?:\d+\.|1\?)/)) {
      return 'number';
    }
    if (stream.match(/^(?:…|\.\.\.)/)) {
      return 'punctuation';
    }
    if (stream.match(RESULT)) {
      return 'keyword';
    }
    if (stream.eat(',')) {
      return 'punctuation';
    }
    if (stream.match(CHECK)) {
      return 'operator';
    }
    if (stream.match(/^(?:×|\*|@@|@|‐|-|x|=&?)/)) {
      return 'operator';
    }
    if (stream.match(/^[^\s,()×*@‐\-=+#?!:◇]+/)) {
      return 'variableName';
    }
    stream.next();
    return null;
  },
  languageData: { commentTokens: {} },
});

/** Colours that read on a light background, close to VS Code's for the same kinds of token; a page sets `--ctlpgn-code-<tag>` for another background (the playground's dark theme). */
const style = HighlightStyle.define([
  { tag: tags.comment, color: 'var(--ctlpgn-code-comment, #5f7a3a)', fontStyle: 'italic' },
  { tag: tags.propertyName, color: 'var(--ctlpgn-code-propertyName, #0b5cad)' },
  { tag: tags.string, color: 'var(--ctlpgn-code-string, #a3341f)' },
  { tag: tags.squareBracket, color: 'var(--ctlpgn-code-squareBracket, #666)' },
  { tag: tags.number, color: 'var(--ctlpgn-code-number, #8a5a00)' },
  { tag: tags.keyword, color: 'var(--ctlpgn-code-keyword, #7b2fa8)', fontWeight: 'bold' },
  { tag: tags.operator, color: 'var(--ctlpgn-code-operator, #b03060)' },
  { tag: tags.annotation, color: 'var(--ctlpgn-code-annotation, #b05a00)' },
  { tag: tags.labelName, color: 'var(--ctlpgn-code-labelName, #2a7f7f)' },
  { tag: tags.meta, color: 'var(--ctlpgn-code-meta, #999)' },
  { tag: tags.paren, color: 'var(--ctlpgn-code-paren, #555)', fontWeight: 'bold' },
  { tag: tags.variableName, color: 'var(--ctlpgn-code-variableName, #1f1f1f)' },
]);

/** The language and its colours, as one extension. */
export function ctlpgnLanguage() {
  return [ctlpgn, syntaxHighlighting(style)];
}
