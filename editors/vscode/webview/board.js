// The board panel's page: the board front-end the web playground draws with
// (web/js/board-view.js, bundled into out/webview/board.js by scripts/bundle.js), its wishes
// carried to the extension as messages and the extension's answers shown. The extension posts
// `board` (an answer of `ctlpgn/board`, and whether the board is flipped), `empty` (no board,
// and why) or `refused` (a play the server or VS Code refused, and why); the page posts
// `ready`, `goto` (a ply), `play` (a half-move's text), `flip` and `copy` (the PDTL). The
// extension moves the editor's cursor or edits the record, and posts again.

import { BoardView, boardCss } from '../../../web/js/board-view.js';

const vscode = acquireVsCodeApi();
const nonce = document.currentScript ? document.currentScript.nonce : '';

// The view's own look first, so that media/board.css (VS Code's theme) comes after it.
const style = document.createElement('style');
style.setAttribute('nonce', nonce);
style.textContent = boardCss;
document.head.prepend(style);

const view = new BoardView(
  document.body,
  {
    goto: (ply) => vscode.postMessage({ type: 'goto', ply }),
    play: (move) => vscode.postMessage({ type: 'play', move }),
    flip: () => vscode.postMessage({ type: 'flip' }),
    copy: (pdtl) => vscode.postMessage({ type: 'copy', pdtl }),
  },
  // The panel's keys wherever its focus is: the webview gives the focus to its body.
  { nonce, keys: window },
);

window.addEventListener('message', (event) => {
  const message = event.data;
  if (message.type === 'refused') {
    view.say(message.reason);
  } else if (message.type === 'empty') {
    view.empty(message.reason);
  } else if (message.type === 'board') {
    vscode.setState({ flip: message.flip === true });
    view.show(message.answer);
  }
});
vscode.postMessage({ type: 'ready' });
