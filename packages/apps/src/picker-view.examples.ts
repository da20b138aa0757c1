// The book picker view of the README's example: a plain-JavaScript MCP App (no SDK). It speaks the view↔host
// JSON-RPC over postMessage, lists books through an app-only tool, and answers the question it was rendered for
// with `ui/elicitation-result`. Any other view works the same way; the official `App` class can send the same.

/** The picker's HTML (one document, inline script and style, as views are). */
export const PICKER_HTML = `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Book picker</title>
<style>body{font:15px system-ui,sans-serif;margin:12px}button{margin:4px;padding:6px 10px}#error{color:#b00}</style>
</head><body>
<h3 id="question">Books</h3><div id="books"></div><p id="error"></p>
<script>
(() => {
  let next = 1;
  const waiting = new Map();
  const post = (message) => window.parent.postMessage(message, '*');
  const request = (method, params) =>
    new Promise((resolve, reject) => {
      const id = next++;
      waiting.set(id, { resolve, reject });
      post({ jsonrpc: '2.0', id, method, params });
    });
  window.addEventListener('message', (event) => {
    const message = event.data;
    if (event.source !== window.parent || !message || !waiting.has(message.id)) return;
    const { resolve, reject } = waiting.get(message.id);
    waiting.delete(message.id);
    if (message.error) reject(message.error);
    else resolve(message.result);
  });
  const answer = (isbn) =>
    request('ui/elicitation-result', { action: 'accept', content: { isbn } }).catch((error) => {
      document.getElementById('error').textContent = error.message;
    });
  async function main() {
    const { hostContext } = await request('ui/initialize', {
      protocolVersion: '2026-01-26',
      appInfo: { name: 'book-picker', version: '1.0.0' },
      appCapabilities: {},
    });
    post({ jsonrpc: '2.0', method: 'ui/notifications/initialized', params: {} });
    const question = hostContext.elicitation;
    if (question) document.getElementById('question').textContent = question.message;
    const found = await request('tools/call', { name: 'search_books', arguments: { q: '' } });
    for (const book of found.structuredContent.books) {
      const button = document.createElement('button');
      button.textContent = book.title;
      button.dataset.isbn = book.isbn;
      button.addEventListener('click', () => answer(book.isbn));
      document.getElementById('books').append(button);
    }
    const cancel = document.createElement('button');
    cancel.textContent = 'None of these';
    cancel.addEventListener('click', () => request('ui/elicitation-result', { action: 'decline' }));
    document.getElementById('books').append(cancel);
    post({ jsonrpc: '2.0', method: 'ui/notifications/size-changed', params: { height: document.body.scrollHeight + 24 } });
  }
  main().catch((error) => {
    document.getElementById('error').textContent = String(error && error.message ? error.message : error);
  });
})();
</script></body></html>`;
