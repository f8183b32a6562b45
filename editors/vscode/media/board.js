// The board panel's page: draws what the extension posts (the answer of `ctlpgn/board`) and
// sends back the user's wishes: go to a half-move (←/→, Home/End, a click in the move list),
// flip the board, copy the PDTL. The extension moves the editor's cursor and posts again.
(function () {
  'use strict';
  const vscode = acquireVsCodeApi();
  const nonce = document.currentScript ? document.currentScript.nonce : '';
  const element = (id) => document.getElementById(id);
  let answer = null;

  function show(message) {
    if (message.type === 'empty') {
      answer = null;
      element('board').replaceChildren();
      element('moves').replaceChildren();
      element('turn').textContent = '';
      element('check').textContent = '';
      element('pdtl').textContent = '';
      element('message').textContent = message.reason;
      return;
    }
    answer = message.answer;
    vscode.setState({ flip: message.flip === true });
    // The SVG's own <style> gets the page's nonce, which the Content Security Policy asks for.
    element('board').innerHTML = answer.svg ? answer.svg.replace('<style>', '<style nonce="' + nonce + '">') : '';
    element('turn').textContent = answer.side ? (answer.side === 'white' ? 'White' : 'Black') + ' to move' : '';
    element('check').textContent = answer.check ? answer.check + '.' : '';
    element('pdtl').textContent = answer.pdtl || (answer.exact ? 'no PDTL may hold this position' : 'not replayed: the last position known');
    element('copy').disabled = !answer.pdtl;
    element('message').textContent = '';
    const items = answer.line.map((halfMove) => {
      const item = document.createElement('li');
      const button = document.createElement('button');
      button.textContent = halfMove.label;
      button.className = 'move' + (halfMove.ply === answer.ply ? ' current' : '') + (halfMove.played ? '' : ' failed');
      button.dataset.ply = String(halfMove.ply);
      if (halfMove.ply === answer.ply) {
        button.setAttribute('aria-current', 'step');
      }
      button.addEventListener('click', () => vscode.postMessage({ type: 'goto', ply: halfMove.ply }));
      item.appendChild(button);
      return item;
    });
    element('moves').replaceChildren(...items);
    const currentMove = element('moves').querySelector('.current');
    if (currentMove) {
      currentMove.scrollIntoView({ block: 'nearest' });
    }
  }

  window.addEventListener('message', (event) => show(event.data));
  window.addEventListener('keydown', (event) => {
    if (answer === null || event.target instanceof HTMLInputElement) {
      return;
    }
    const last = answer.line.length;
    const target = { ArrowLeft: answer.ply - 1, ArrowRight: answer.ply + 1, Home: 0, End: last }[event.key];
    if (target === undefined || target < 0 || target > last || target === answer.ply) {
      return;
    }
    event.preventDefault();
    vscode.postMessage({ type: 'goto', ply: target });
  });
  element('flip').addEventListener('click', () => vscode.postMessage({ type: 'flip' }));
  element('copy').addEventListener('click', () => {
    if (answer && answer.pdtl) {
      vscode.postMessage({ type: 'copy', pdtl: answer.pdtl });
    }
  });
  vscode.postMessage({ type: 'ready' });
})();
