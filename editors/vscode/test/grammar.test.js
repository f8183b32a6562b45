// The TextMate grammar, tokenized by the engine VS Code uses (vscode-textmate with the
// Oniguruma regular expressions): every rule compiles, and the parts of a record get the
// scopes themes colour.

'use strict';

const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const test = require('node:test');

const oniguruma = require('vscode-oniguruma');
const textmate = require('vscode-textmate');

async function loadGrammar() {
  const wasm = fs.readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm'));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new textmate.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
      createOnigString: (text) => new oniguruma.OnigString(text),
    }),
    loadGrammar: async () => {
      const file = path.join(__dirname, '..', 'syntaxes', 'ctlpgn.tmLanguage.json');
      return textmate.parseRawGrammar(fs.readFileSync(file, 'utf8'), file);
    },
  });
  return registry.loadGrammar('source.ctlpgn');
}

/** Each line of `text` as its tokens: `[text of the token, innermost scope]`. */
async function tokenize(text) {
  const grammar = await loadGrammar();
  let stack = textmate.INITIAL;
  return text.split('\n').map((line) => {
    const result = grammar.tokenizeLine(line, stack);
    stack = result.ruleStack;
    return result.tokens.map((token) => [line.slice(token.startIndex, token.endIndex), token.scopes[token.scopes.length - 1]]);
  });
}

const record = `[Variant "C'escacs"]
[Black "Vidàl, \\"Marc\\""]
{ @W: both sides open; ~G13 and #3@B, $24
  a second line }
1. E7-E13, NE21×JF15
.2. KRK-II ?!(=), …
($[1] 5. …, F12@@G9+^:
..7. B22-B24=D#)
*`;

test('every part of a record gets its scope', async () => {
  const lines = await tokenize(record);
  const expected = [
    [['[', 'punctuation.definition.tag.begin.ctlpgn'], ['Variant', 'entity.name.tag.ctlpgn'], [' ', 'source.ctlpgn'], ['"C\'escacs"', 'string.quoted.double.ctlpgn'], [']', 'punctuation.definition.tag.end.ctlpgn']],
    [['[', 'punctuation.definition.tag.begin.ctlpgn'], ['Black', 'entity.name.tag.ctlpgn'], [' ', 'source.ctlpgn'], ['"Vidàl, ', 'string.quoted.double.ctlpgn'], ['\\"', 'constant.character.escape.ctlpgn'], ['Marc', 'string.quoted.double.ctlpgn'], ['\\"', 'constant.character.escape.ctlpgn'], ['"', 'string.quoted.double.ctlpgn'], [']', 'punctuation.definition.tag.end.ctlpgn']],
    [['{', 'punctuation.definition.comment.begin.ctlpgn'], [' @W:', 'keyword.other.marker.ctlpgn'], [' both sides open; ', 'comment.block.ctlpgn'], ['~G13', 'variable.other.reference.ctlpgn'], [' and ', 'comment.block.ctlpgn'], ['#3@B', 'entity.name.function.preprocessor.reference.ctlpgn'], [', ', 'comment.block.ctlpgn'], ['$24', 'constant.numeric.nag.ctlpgn']],
    [['  a second line ', 'comment.block.ctlpgn'], ['}', 'punctuation.definition.comment.end.ctlpgn']],
    [['1', 'constant.numeric.move-number.ctlpgn'], ['.', 'punctuation.separator.move-number.ctlpgn'], [' ', 'source.ctlpgn'], ['E7', 'variable.other.coordinate.ctlpgn'], ['-', 'keyword.operator.separator.ctlpgn'], ['E13', 'variable.other.coordinate.ctlpgn'], [',', 'punctuation.separator.half-moves.ctlpgn'], [' ', 'source.ctlpgn'], ['N', 'entity.name.type.piece.ctlpgn'], ['E21', 'variable.other.coordinate.ctlpgn'], ['×', 'keyword.operator.separator.ctlpgn'], ['J', 'entity.name.type.piece.ctlpgn'], ['F15', 'variable.other.coordinate.ctlpgn']],
    [['.', 'punctuation.whitespace.indentation.ctlpgn'], ['2', 'constant.numeric.move-number.ctlpgn'], ['.', 'punctuation.separator.move-number.ctlpgn'], [' ', 'source.ctlpgn'], ['KRK-II', 'keyword.control.castling.ctlpgn'], [' ', 'source.ctlpgn'], ['?!', 'entity.other.attribute-name.rating.ctlpgn'], ['(=)', 'entity.other.attribute-name.indicator.ctlpgn'], [',', 'punctuation.separator.half-moves.ctlpgn'], [' ', 'source.ctlpgn'], ['…', 'punctuation.other.ellipsis.ctlpgn']],
    [['(', 'punctuation.section.parens.begin.ctlpgn'], ['$[1]', 'entity.name.label.variation.ctlpgn'], [' ', 'source.ctlpgn'], ['5', 'constant.numeric.move-number.ctlpgn'], ['.', 'punctuation.separator.move-number.ctlpgn'], [' ', 'source.ctlpgn'], ['…', 'punctuation.other.ellipsis.ctlpgn'], [',', 'punctuation.separator.half-moves.ctlpgn'], [' ', 'source.ctlpgn'], ['F12', 'variable.other.coordinate.ctlpgn'], ['@@', 'keyword.operator.separator.ctlpgn'], ['G9', 'variable.other.coordinate.ctlpgn'], ['+^', 'keyword.control.check.ctlpgn'], [':', 'entity.other.attribute-name.end-mark.ctlpgn']],
    [['..', 'punctuation.whitespace.indentation.ctlpgn'], ['7', 'constant.numeric.move-number.ctlpgn'], ['.', 'punctuation.separator.move-number.ctlpgn'], [' ', 'source.ctlpgn'], ['B22', 'variable.other.coordinate.ctlpgn'], ['-', 'keyword.operator.separator.ctlpgn'], ['B24', 'variable.other.coordinate.ctlpgn'], ['=', 'keyword.operator.promotion.ctlpgn'], ['D', 'entity.name.type.piece.ctlpgn'], ['#', 'keyword.control.check.ctlpgn'], [')', 'punctuation.section.parens.end.ctlpgn']],
    [['*', 'constant.language.result.ctlpgn']],
  ];
  assert.deepStrictEqual(lines, expected);
});

test('mistakes the server reports are marked before it starts', async () => {
  const [line] = await tokenize('3. E13xF16, E15–F12 $4');
  const marked = line.filter(([, scope]) => scope.startsWith('invalid.'));
  assert.deepStrictEqual(marked, [
    ['x', 'invalid.illegal.capture-sign.ctlpgn'],
    ['–', 'invalid.deprecated.separator.ctlpgn'],
    ['$4', 'invalid.illegal.nag.ctlpgn'],
  ]);
});

test('the shipped example is coloured without a gap in its moves', async () => {
  const example = fs.readFileSync(path.join(__dirname, '..', '..', '..', 'examples', 'opening.ctl-pgn'), 'utf8');
  const lines = await tokenize(example);
  for (const tokens of lines) {
    const unscoped = tokens.filter(([text, scope]) => scope === 'source.ctlpgn' && text.trim() !== '');
    assert.deepStrictEqual(unscoped, [], `text left without a scope: ${JSON.stringify(tokens)}`);
  }
});
