// The playground's editor: CodeMirror 6 with CTL-PGN's colours, and the module's answers
// (hover, completion, diagnostics) in CodeMirror's terms. Places go between CodeMirror's
// offsets and the module's `{line, character}`: both count UTF-16 code units and split lines
// at the same breaks (LF, CRLF, CR), so a line and a column name one place in both texts.

import { EditorState } from '@codemirror/state';
import {
  EditorView, keymap, lineNumbers, highlightActiveLine, highlightActiveLineGutter, drawSelection, hoverTooltip,
} from '@codemirror/view';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { autocompletion, completionKeymap, snippet, closeBrackets } from '@codemirror/autocomplete';
import { lintGutter, lintKeymap, setDiagnostics } from '@codemirror/lint';
import { searchKeymap, highlightSelectionMatches } from '@codemirror/search';
import { bracketMatching } from '@codemirror/language';
import { ctlpgnLanguage } from '../js/ctlpgn-language.js';

/** The module's place of a CodeMirror offset in `doc`. */
export function placeOf(doc, offset) {
  const line = doc.lineAt(offset);
  return { line: line.number - 1, character: offset - line.from };
}

/** The CodeMirror offset of a module's place in `doc`, kept inside the document and its line. */
export function offsetOf(doc, place) {
  if (place.line >= doc.lines) {
    return doc.length;
  }
  const line = doc.line(place.line + 1);
  return Math.min(line.from + place.character, line.to);
}

/** The module's edits as CodeMirror changes of `doc` (all read in `doc`, as both define). */
export function changesOf(doc, edits) {
  return edits.map((edit) => ({
    from: offsetOf(doc, edit.range.start),
    to: offsetOf(doc, edit.range.end),
    insert: edit.newText,
  }));
}

/**
 * An LSP snippet (`$1`, `${1:text}`, `${1|a,b|}`, `$0`, `\` escapes) as a CodeMirror template
 * (`${1}`, `${1:text}`, braces taken literally when escaped): a choice becomes its first value.
 */
export function templateOf(lspSnippet) {
  let out = '';
  let at = 0;
  const literal = (c) => (c === '{' || c === '}' ? '\\' + c : c);
  while (at < lspSnippet.length) {
    const c = lspSnippet[at];
    if (c === '\\' && at + 1 < lspSnippet.length) {
      out += literal(lspSnippet[at + 1]);
      at += 2;
      continue;
    }
    if (c === '$') {
      const plain = /^\$(\d+)/.exec(lspSnippet.slice(at));
      const braced = /^\$\{(\d+)(?::((?:\\.|[^}\\])*)|\|((?:\\.|[^|\\])*)\|)?\}/.exec(lspSnippet.slice(at));
      if (plain) {
        out += '${' + plain[1] + '}';
        at += plain[0].length;
        continue;
      }
      if (braced) {
        const unescape = (text) => text.replace(/\\(.)/g, '$1');
        const value = braced[2] !== undefined ? unescape(braced[2])
          : braced[3] !== undefined ? unescape(braced[3].split(/(?<!\\),/)[0]) : '';
        out += '${' + braced[1] + (value ? ':' + value.replace(/[{}]/g, '\\$&') : '') + '}';
        at += braced[0].length;
        continue;
      }
    }
    out += literal(c);
    at += 1;
  }
  return out;
}

const KINDS = { tag: 'property', value: 'constant', piece: 'variable', move: 'function', keyword: 'keyword', reference: 'text' };

/** Diagnostics of the module as CodeMirror's, in `doc`. */
export function lintOf(doc, diagnostics) {
  const severities = { error: 'error', warning: 'warning', hint: 'info' };
  return diagnostics.map((found) => ({
    from: offsetOf(doc, found.range.start),
    to: offsetOf(doc, found.range.end),
    severity: severities[found.severity] || 'info',
    source: found.code,
    message: `${found.code} ${found.message}`,
  }));
}

/** A transaction that shows `diagnostics` (the module's) in `view`. */
export function showDiagnostics(view, diagnostics) {
  view.dispatch(setDiagnostics(view.state, lintOf(view.state.doc, diagnostics)));
}

/**
 * The editor's extensions. `bridge` holds the page's side: `document()` (the open document's
 * handle, or null), `changed(update)` (after each change of the text, which the page sends to
 * the module), and `selected(update)` (after a move of the cursor).
 */
export function extensions(bridge) {
  const hover = hoverTooltip((view, pos) => {
    const document = bridge.document();
    if (!document) {
      return null;
    }
    let found;
    try {
      found = document.call('hover', { position: placeOf(view.state.doc, pos), markdown: false });
    } catch {
      return null;
    }
    if (!found || !found.contents) {
      return null;
    }
    const doc = view.state.doc;
    return {
      pos: offsetOf(doc, found.range.start),
      end: offsetOf(doc, found.range.end),
      above: true,
      create() {
        // The hover's text as text: record text in it never becomes markup.
        const dom = window.document.createElement('div');
        dom.className = 'hover';
        const pre = window.document.createElement('pre');
        pre.textContent = found.contents;
        dom.appendChild(pre);
        return { dom };
      },
    };
  });

  const complete = (context) => {
    const document = bridge.document();
    if (!document || (!context.explicit && !context.matchBefore(/[^\s,]$/))) {
      return null;
    }
    let items;
    try {
      items = document.call('completion', { position: placeOf(context.state.doc, context.pos) });
    } catch {
      return null;
    }
    if (items.length === 0) {
      return null;
    }
    const doc = context.state.doc;
    return {
      from: offsetOf(doc, items[0].range.start),
      to: Math.max(context.pos, offsetOf(doc, items[0].range.end)),
      // The module sends only the items that go on with what was typed, in its order; it is
      // asked again at each key.
      filter: false,
      options: items.map((item) => ({
        label: item.label,
        detail: item.detail || undefined,
        info: item.documentation || undefined,
        type: KINDS[item.kind],
        apply: item.snippet && item.snippet !== item.newText ? snippet(templateOf(item.snippet)) : item.newText,
      })),
    };
  };

  return [
    lineNumbers(),
    highlightActiveLineGutter(),
    history(),
    drawSelection(),
    highlightActiveLine(),
    highlightSelectionMatches(),
    bracketMatching(),
    closeBrackets(),
    ctlpgnLanguage(),
    lintGutter(),
    hover,
    autocompletion({ override: [complete] }),
    keymap.of([...completionKeymap, ...defaultKeymap, ...historyKeymap, ...searchKeymap, ...lintKeymap]),
    EditorView.lineWrapping,
    EditorView.contentAttributes.of({ 'aria-label': 'CTL-PGN record' }),
    EditorView.updateListener.of((update) => {
      if (update.docChanged) {
        bridge.changed(update);
      }
      if (update.docChanged || update.selectionSet) {
        bridge.selected(update);
      }
    }),
    EditorView.domEventHandlers({
      // A file dropped on the editor is not pasted into the record: the page opens it (its
      // handler on the document sees the event next).
      drop(event) {
        return Boolean(event.dataTransfer && event.dataTransfer.files.length > 0);
      },
    }),
  ];
}

/** A new editor state holding `text`, the cursor at `cursor` (an offset). */
export function stateOf(text, extensionList, cursor = 0) {
  return EditorState.create({ doc: text, extensions: extensionList, selection: { anchor: Math.min(cursor, text.length) } });
}

export { EditorView };
