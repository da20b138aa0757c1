// The page's stylesheet and script, served as /assets/inbox.css and /assets/inbox.js. No framework: the script
// (a) checks a form before it is sent, by asking the server's own checker (POST …/check: the same code that
// checks the real submit, so the two never disagree) and showing each message next to its field; (b) greys out
// the fields of a question answered "Decline" or "Cancel"; (c) on a flow being resumed, waits until it moves on
// and reloads. Without the script, the server checks the submit and shows the same messages.

/** The stylesheet. */
export const INBOX_CSS = `
:root { --ink: #1c1f24; --muted: #5b6470; --line: #d6dbe1; --accent: #1f5fbf; --accent-ink: #fff;
  --bad: #a4161a; --bad-bg: #fdecec; --ok: #1e6b34; --ok-bg: #e8f5ec; --warn-bg: #fff6dd; --bg: #f6f7f9; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: var(--bg); }
.skip { position: absolute; left: -999px; } .skip:focus { left: 8px; top: 8px; background: #fff; padding: 4px 8px; }
.top { display: flex; justify-content: space-between; align-items: center; padding: 10px 24px; background: #fff; border-bottom: 1px solid var(--line); }
.brand { font-weight: 700; color: var(--ink); text-decoration: none; }
.who { display: flex; gap: 8px; align-items: center; margin: 0; }
main { max-width: 860px; margin: 0 auto; padding: 16px 24px 48px; }
h1 { font-size: 1.6rem; margin: 8px 0 4px; } h2 { font-size: 1.15rem; margin: 0 0 8px; }
a { color: var(--accent); }
:focus-visible { outline: 3px solid #f0a500; outline-offset: 2px; }
.meta, .quiet, .hint, .crumbs { color: var(--muted); } .hint { font-size: .9rem; margin: 2px 0 0; }
.count { color: var(--muted); font-weight: 400; }
.flows { list-style: none; padding: 0; margin: 0 0 24px; }
.flow-row { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 10px 14px; margin-bottom: 8px; }
.flow-link { font-weight: 600; } .flow-row .meta { font-size: .9rem; } .ask { margin-top: 2px; }
.badge { display: inline-block; font-size: .8rem; padding: 1px 8px; border-radius: 10px; background: #e9edf2; margin-left: 6px; }
.status-pending { background: var(--warn-bg); } .status-completed { background: var(--ok-bg); color: var(--ok); }
.status-failed, .status-rejected, .status-expired { background: var(--bad-bg); color: var(--bad); }
.question { background: #fff; border: 1px solid var(--line); border-radius: 10px; padding: 16px 18px; margin: 16px 0; }
.message { font-size: 1.05rem; }
.field { margin: 14px 0; border: 0; padding: 0; }
fieldset.field legend, .field > label { display: block; font-weight: 600; margin-bottom: 4px; padding: 0; }
.field .check { display: flex; gap: 8px; align-items: center; } .field .check label { font-weight: 600; }
.option { display: block; padding: 2px 0; font-weight: 400; }
input[type=text], input[type=email], input[type=url], input[type=date], input[type=datetime-local], input[type=number], select, textarea {
  font: inherit; padding: 7px 9px; border: 1px solid #8a94a1; border-radius: 6px; width: 100%; max-width: 420px; background: #fff; }
textarea { max-width: 100%; }
[aria-invalid=true], fieldset[aria-invalid=true] { border-color: var(--bad); box-shadow: 0 0 0 1px var(--bad); }
fieldset[aria-invalid=true] { border-radius: 6px; padding: 6px; }
.field-error { color: var(--bad); font-weight: 600; margin: 4px 0 0; min-height: 0; }
.field-error:empty { display: none; }
.required { color: var(--bad); }
.response { border: 1px dashed var(--line); border-radius: 8px; padding: 6px 12px; margin: 8px 0; }
.response .option { display: inline-block; margin-right: 14px; }
.fields[aria-disabled=true] { opacity: .45; }
.actions { display: flex; flex-wrap: wrap; gap: 10px; align-items: center; margin-top: 18px; }
.actions .hint { flex-basis: 100%; }
button { font: inherit; padding: 8px 16px; border-radius: 6px; border: 1px solid #8a94a1; background: #fff; cursor: pointer; }
button.primary { background: var(--accent); color: var(--accent-ink); border-color: var(--accent); font-weight: 600; }
button.quiet { border-color: transparent; background: transparent; color: var(--muted); text-decoration: underline; }
button[disabled] { opacity: .6; cursor: progress; }
.error-summary { border: 2px solid var(--bad); background: var(--bad-bg); border-radius: 8px; padding: 10px 14px; }
.error-summary ul { margin: 0; padding-left: 20px; } .error-summary a { color: var(--bad); }
.notice, .message-box, .problem-box, .result { background: #fff; border: 1px solid var(--line); border-radius: 10px; padding: 14px 18px; margin: 16px 0; }
.problem-box { border-color: var(--bad); background: var(--bad-bg); }
.result { border-color: var(--ok); background: var(--ok-bg); } .error-result { border-color: var(--bad); background: var(--bad-bg); }
.result-text { white-space: pre-wrap; font-size: 1.05rem; }
.working::before { content: ""; display: inline-block; width: .8em; height: .8em; margin-right: 8px; border-radius: 50%;
  border: 2px solid var(--accent); border-right-color: transparent; animation: spin 1s linear infinite; vertical-align: -1px; }
@keyframes spin { to { transform: rotate(360deg); } }
@media (prefers-reduced-motion: reduce) { .working::before { animation: none; } }
.url .host { font-family: ui-monospace, monospace; } .url a { word-break: break-all; }
.warning { background: var(--warn-bg); padding: 8px 12px; border-radius: 6px; }
.conversation { list-style: none; padding: 0; } .turn { border-left: 3px solid var(--line); padding: 2px 10px; margin: 6px 0; }
.turn p { margin: 2px 0; } .role { font-size: .8rem; text-transform: uppercase; color: var(--muted); margin-right: 6px; }
.history { padding-left: 20px; color: var(--muted); }
pre.structured { background: #fff; padding: 8px; border-radius: 6px; overflow: auto; }
`;

/** The script (plain ES2020, no build step, no dependency). */
export const INBOX_JS = `
'use strict';
(function () {
  function clearProblem(id) {
    var error = document.getElementById(id + '-error');
    if (error) error.textContent = '';
    var control = document.getElementById(id);
    if (control) control.removeAttribute('aria-invalid');
  }
  function showProblems(form, problems) {
    form.querySelectorAll('[aria-invalid]').forEach(function (el) { el.removeAttribute('aria-invalid'); });
    form.querySelectorAll('.field-error').forEach(function (el) { el.textContent = ''; });
    var summary = form.querySelector('#error-summary');
    var list = summary && summary.querySelector('ul');
    if (list) list.textContent = '';
    problems.forEach(function (p) {
      var error = document.getElementById(p.id + '-error');
      if (error) error.textContent = p.message;
      var control = document.getElementById(p.id);
      if (control) control.setAttribute('aria-invalid', 'true');
      if (list) {
        var item = document.createElement('li');
        var link = document.createElement('a');
        link.href = '#' + p.id;
        link.textContent = p.label + ': ' + p.message;
        item.appendChild(link);
        list.appendChild(item);
      }
    });
    if (summary) {
      summary.hidden = problems.length === 0;
      var title = summary.querySelector('h2');
      if (title) title.textContent = problems.length === 1 ? 'Please fix this:' : 'Please fix these:';
      if (problems.length > 0) summary.focus();
    }
  }
  function setBusy(form, busy) {
    form.querySelectorAll('button[type=submit]').forEach(function (b) { b.disabled = busy; });
  }
  function toggleQuestion(radio) {
    var section = radio.closest('[data-question]');
    var fields = section && section.querySelector('.fields');
    if (!fields) return;
    var off = radio.value !== 'accept';
    fields.setAttribute('aria-disabled', off ? 'true' : 'false');
    fields.querySelectorAll('input, select, textarea').forEach(function (el) { el.disabled = off; });
  }
  document.querySelectorAll('form[data-check]').forEach(function (form) {
    form.noValidate = true;
    form.addEventListener('input', function (event) {
      var holder = event.target.closest('[data-field]');
      if (holder) clearProblem(holder.getAttribute('data-field'));
    });
    form.querySelectorAll('input[data-response]').forEach(function (radio) {
      if (radio.checked) toggleQuestion(radio);
      radio.addEventListener('change', function () { toggleQuestion(radio); });
    });
    form.addEventListener('submit', function (event) {
      var submitter = event.submitter;
      var intent = submitter && submitter.name === 'intent' ? submitter.value : 'accept';
      if (intent !== 'accept' || form.dataset.checked === 'yes') return;
      event.preventDefault();
      var body = new URLSearchParams(new FormData(form));
      body.set('intent', 'accept');
      setBusy(form, true);
      fetch(form.getAttribute('data-check'), { method: 'POST', body: body, credentials: 'same-origin',
        headers: { 'content-type': 'application/x-www-form-urlencoded' } })
        .then(function (response) { return response.ok ? response.json() : { problems: [] }; })
        .catch(function () { return { problems: [] }; })
        .then(function (answer) {
          setBusy(form, false);
          if (answer.problems && answer.problems.length > 0) { showProblems(form, answer.problems); return; }
          form.dataset.checked = 'yes';
          var hidden = document.createElement('input');
          hidden.type = 'hidden'; hidden.name = 'intent'; hidden.value = 'accept';
          form.appendChild(hidden);
          setBusy(form, true);
          HTMLFormElement.prototype.submit.call(form);
        });
    });
  });
  var main = document.querySelector('main[data-poll]');
  if (main && main.dataset.status) {
    var poll = function () {
      fetch(main.dataset.poll, { credentials: 'same-origin', headers: { accept: 'application/json' } })
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (now) {
          if (now && (now.status !== main.dataset.status || String(now.round) !== main.dataset.round)) {
            location.reload();
          } else {
            setTimeout(poll, 400);
          }
        })
        .catch(function () { setTimeout(poll, 1500); });
    };
    setTimeout(poll, 300);
  }
})();
`;
