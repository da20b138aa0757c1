import { describe, expect, it } from 'vitest';
import { attr, escapeHtml, flag, html, raw } from './html.js';

describe('html', () => {
  it('escapes every interpolated value, keeps Html as is, joins arrays, drops nothing-values', () => {
    const name = '<script>alert("x")</script> & \'co\'';
    expect(html`<p title="${name}">${name}</p>`.text).toBe(
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;co&#39;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;co&#39;</p>',
    );
    expect(html`<ul>${['a', '<b>'].map((x) => html`<li>${x}</li>`)}</ul>`.text).toBe(
      '<ul><li>a</li><li>&lt;b&gt;</li></ul>',
    );
    expect(html`${undefined}${null}${false}${0}${raw('<br>')}`.text).toBe('0<br>');
    expect(escapeHtml(42)).toBe('42');
  });

  it('writes optional and boolean attributes', () => {
    expect(
      html`<input${attr('min', 0)}${attr('max', undefined)}${flag('required', true)}${flag('checked', false)}>`
        .text,
    ).toBe('<input min="0" required>');
    expect(attr('value', '"quoted"').text).toBe(' value="&quot;quoted&quot;"');
  });
});
