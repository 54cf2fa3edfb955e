/**
 * The HTML reports' style sheet and script, inlined into every page (no file or host is ever
 * requested). Both are constants: the page's Content-Security-Policy allows exactly these two by
 * their SHA-256 (src/report/html-page.ts), and nothing else runs or styles the page.
 *
 * The script only enhances tables that are complete HTML without it: it reads each table's rows
 * from its `<script type="application/json" id="data-ID">` block and renders them with DOM APIs
 * (textContent, never innerHTML), so a server string cannot become markup here either.
 */

export const HTML_STYLE = `
:root {
  --fg: #1f2933; --muted: #5f6b7a; --faint: #687382; --line: #dde3ea; --panel: #f6f8fa; --page: #eef1f5; --accent: #2f4a6d;
  --critical: #9f1c1c; --critical-bg: #fbe9e9; --high: #b8430b; --high-bg: #fdefe4; --medium: #8a6100; --medium-bg: #fbf3dc;
  --low: #245a96; --low-bg: #e7f0fa; --info: #5f6b7a; --info-bg: #eef1f4;
  --pass: #236b43; --pass-bg: #e4f3ea; --fail: #9f1c1c; --fail-bg: #fbe9e9; --unknown: #8a6100; --unknown-bg: #fbf3dc;
  --exception: #5b3f94; --exception-bg: #efe9f8;
}
* { box-sizing: border-box; }
[hidden] { display: none !important; }
html { background: var(--page); }
body { margin: 0; color: var(--fg); font: 14px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Liberation Sans", "Helvetica Neue", Arial, sans-serif; }
main { max-width: 1240px; margin: 24px auto; padding: 28px 36px 40px; background: #fff; border: 1px solid var(--line); border-radius: 6px; }
h1 { margin: 0; font-size: 22px; font-weight: 600; letter-spacing: -0.01em; }
h2 { margin: 36px 0 12px; padding-bottom: 6px; font-size: 17px; font-weight: 600; border-bottom: 1px solid var(--line); }
h3 { margin: 20px 0 8px; font-size: 15px; font-weight: 600; }
p { margin: 8px 0; }
a { color: var(--accent); }
code, .mono { font-family: ui-monospace, "SFMono-Regular", "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 12.5px; }
.subtitle { margin: 4px 0 0; color: var(--muted); word-break: break-all; }
header { display: flex; flex-wrap: wrap; align-items: flex-start; justify-content: space-between; gap: 16px; }
nav.toc { margin: 18px 0 0; display: flex; flex-wrap: wrap; gap: 4px 18px; font-size: 13px; }
nav.toc a { text-decoration: none; }
nav.toc a:hover { text-decoration: underline; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 4px 18px; margin: 18px 0 0; padding: 14px 18px; background: var(--panel); border: 1px solid var(--line); border-radius: 6px; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; word-break: break-word; }
.status { display: inline-block; padding: 6px 14px; border-radius: 6px; font-weight: 600; white-space: nowrap; border: 1px solid; }
.status { text-decoration: none; }
.status.tone-good { color: var(--pass); background: var(--pass-bg); border-color: #b5dcc4; }
.status.tone-bad { color: var(--fail); background: var(--fail-bg); border-color: #efb9b9; }
.status.tone-warn { color: var(--medium); background: var(--medium-bg); border-color: #efdca6; }
.status.tone-info { color: var(--low); background: var(--low-bg); border-color: #bfd5ee; }
.verdict { margin: 20px 0 0; font-size: 15px; }
.verdict-box { margin: 20px 0 0; padding: 14px 18px; border: 1px solid var(--line); border-left-width: 6px; border-radius: 6px; background: var(--panel); }
.verdict-box.tone-bad { border-left-color: var(--fail); } .verdict-box.tone-warn { border-left-color: #c58f00; }
.verdict-box.tone-info { border-left-color: #3f7cc4; } .verdict-box.tone-good { border-left-color: #3c9a64; }
.verdict-box .headline { margin: 0 0 4px; font-size: 20px; font-weight: 600; }
.verdict-box .verdict { margin: 0; }
.verdict-box.tone-bad .headline { color: var(--fail); }
.verdict-box .figures { margin-top: 10px; }
ol.risks { margin: 8px 0; padding: 0; list-style: none; counter-reset: risk; }
ol.risks li { display: grid; grid-template-columns: 84px 1fr; gap: 2px 12px; padding: 10px 0; border-bottom: 1px solid #edf0f3; }
ol.risks li:last-child { border-bottom: 0; }
ol.risks .badge { grid-row: span 2; align-self: start; }
ol.risks .what { overflow-wrap: anywhere; }
ol.risks .where { color: var(--muted); font-size: 12.5px; }
ol.risks .where .mono, ol.risks .where .more { margin-left: 8px; }
td code, ol.risks code, .verdict-box code { padding: 0 3px; background: #eef1f5; border-radius: 3px; overflow-wrap: anywhere; }
td.lines div + div { margin-top: 4px; }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(300px, 1fr)); gap: 18px; margin-top: 8px; }
.card { padding: 14px 18px 10px; border: 1px solid var(--line); border-radius: 6px; }
.card h3 { margin: 0 0 8px; font-size: 13px; font-weight: 600; color: var(--muted); text-transform: uppercase; letter-spacing: 0.04em; }
.figures { display: flex; flex-wrap: wrap; gap: 10px 28px; }
.figure strong { display: block; font-size: 24px; font-weight: 600; line-height: 1.2; }
.figure.critical strong { color: var(--critical); } .figure.high strong { color: var(--high); } .figure.medium strong { color: var(--medium); }
.figure.low strong { color: var(--low); } .figure.info strong { color: var(--info); } .figure.zero strong { color: #c2c9d1; }
.figure span { color: var(--muted); font-size: 13px; }
svg.chart { display: block; width: 100%; max-width: 560px; height: auto; overflow: visible; }
svg.chart text { font-size: 12px; fill: var(--fg); }
svg.chart text.count { fill: var(--muted); }
svg.chart .track { fill: #f0f2f5; }
.fill-critical { fill: var(--critical); } .fill-high { fill: var(--high); } .fill-medium { fill: #d29b0c; }
.fill-low { fill: #3f7cc4; } .fill-info { fill: #a3adb9; }
.fill-pass { fill: #3c9a64; } .fill-fail { fill: var(--fail); } .fill-not-evaluated { fill: #d29b0c; } .fill-exception { fill: #7d62b3; } .fill-manual { fill: #a3adb9; }
.fill-weakened { fill: var(--fail); } .fill-strengthened { fill: #3c9a64; } .fill-neutral { fill: #a3adb9; }
.legend { display: flex; flex-wrap: wrap; gap: 4px 14px; margin: 6px 0 0; padding: 0; list-style: none; font-size: 12px; color: var(--muted); }
.legend li::before { content: ""; display: inline-block; width: 10px; height: 10px; margin-right: 5px; border-radius: 2px; vertical-align: -1px; background: currentColor; }
.legend .critical::before { background: var(--critical); } .legend .high::before { background: var(--high); } .legend .medium::before { background: #d29b0c; }
.legend .low::before { background: #3f7cc4; } .legend .info::before { background: #a3adb9; }
.legend .pass::before { background: #3c9a64; } .legend .fail::before { background: var(--fail); } .legend .not-evaluated::before { background: #d29b0c; } .legend .exception::before { background: #7d62b3; } .legend .manual::before { background: #a3adb9; }
.problems { margin-top: 20px; padding: 12px 18px; border: 1px solid; border-left-width: 5px; border-radius: 6px; }
.problems h2 { margin: 0 0 6px; padding: 0; border: 0; font-size: 15px; }
.problems.errors { background: var(--fail-bg); border-color: #efb9b9; border-left-color: var(--fail); }
.problems.errors h2 { color: var(--fail); }
.problems.notices { background: #fdf8ea; border-color: #ecd9a4; border-left-color: #c58f00; }
.problems.notices h2 { color: var(--medium); }
.problems ul { margin: 4px 0; padding-left: 20px; }
.problems li { margin: 2px 0; word-break: break-word; }
.problems .label { font-weight: 600; margin-right: 6px; }
details > summary { cursor: pointer; color: var(--accent); margin: 4px 0; }
details.manual { margin-top: 12px; }
details.manual .table-wrap { margin-top: 8px; }
.badge { display: inline-block; min-width: 64px; padding: 1px 8px; border-radius: 10px; font-size: 12px; font-weight: 600; text-align: center; white-space: nowrap; border: 1px solid transparent; }
.b-critical { color: var(--critical); background: var(--critical-bg); border-color: #f1c2c2; }
.b-high { color: var(--high); background: var(--high-bg); border-color: #f5cfb2; }
.b-medium { color: var(--medium); background: var(--medium-bg); border-color: #efdca6; }
.b-low { color: var(--low); background: var(--low-bg); border-color: #bfd5ee; }
.b-info { color: var(--info); background: var(--info-bg); border-color: #d6dce3; }
.b-pass, .b-strengthened, .b-fixed { color: var(--pass); background: var(--pass-bg); border-color: #b5dcc4; }
.b-fail, .b-weakened, .b-new { color: var(--fail); background: var(--fail-bg); border-color: #efb9b9; }
.b-not-evaluated { color: var(--unknown); background: var(--unknown-bg); border-color: #efdca6; }
.b-exception { color: var(--exception); background: var(--exception-bg); border-color: #d3c6ec; }
ul.statuses { margin: 8px 0; padding: 0; list-style: none; font-size: 13px; color: var(--muted); }
ul.statuses li { margin: 4px 0; }
ul.statuses .badge { margin-right: 6px; }
.b-manual, .b-neutral { color: var(--info); background: var(--info-bg); border-color: #d6dce3; }
.controls { display: flex; flex-wrap: wrap; align-items: flex-end; gap: 10px 16px; margin: 4px 0 12px; padding: 10px 14px; background: var(--panel); border: 1px solid var(--line); border-radius: 6px; }
.controls label { display: flex; flex-direction: column; gap: 2px; font-size: 12px; color: var(--muted); }
.controls select, .controls input { font: inherit; font-size: 13px; color: var(--fg); padding: 4px 6px; border: 1px solid #c5ced8; border-radius: 4px; background: #fff; max-width: 320px; }
.controls input[type="search"] { width: 260px; }
.table-wrap { overflow-x: auto; border: 1px solid var(--line); border-radius: 6px; }
table { width: 100%; border-collapse: collapse; font-size: 13px; }
th, td { padding: 6px 10px; text-align: left; vertical-align: top; border-bottom: 1px solid #edf0f3; }
thead th { position: sticky; top: 0; background: var(--panel); font-weight: 600; color: var(--muted); font-size: 12px; white-space: nowrap; border-bottom: 1px solid var(--line); }
tbody tr:nth-child(even) td { background: #fbfcfd; }
tbody tr:hover td { background: #f2f6fb; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
td.zero { color: #c2c9d1; }
td.nowrap { white-space: nowrap; }
td.where { white-space: nowrap; max-width: 240px; overflow: hidden; text-overflow: ellipsis; }
td.msg { width: 55%; min-width: 260px; overflow-wrap: anywhere; }
td.subject { min-width: 140px; max-width: 220px; overflow-wrap: anywhere; }
/* A rule id wraps only where it must (a plugin's may be long); the built-in ones fit on a line. */
td.rule { min-width: 180px; max-width: 330px; overflow-wrap: anywhere; }
td.title { min-width: 220px; }
td.rules { min-width: 320px; }
td.found { min-width: 360px; overflow-wrap: anywhere; }
td.projects { min-width: 160px; }
td.empty { padding: 18px; text-align: center; color: var(--muted); }
button.sort { all: unset; cursor: pointer; }
button.sort::after { content: " \\2195"; color: #b5bec8; }
th[aria-sort="ascending"] button.sort::after { content: " \\2191"; color: var(--accent); }
th[aria-sort="descending"] button.sort::after { content: " \\2193"; color: var(--accent); }
button.link { all: unset; cursor: pointer; color: var(--accent); text-decoration: underline; text-decoration-color: #b9c6d6; }
button.link:hover { text-decoration-color: currentColor; }
button.sort:focus-visible, button.link:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
.pager { display: flex; flex-wrap: wrap; align-items: center; gap: 8px 14px; margin: 10px 0 0; font-size: 13px; color: var(--muted); }
.pager button { font: inherit; padding: 3px 10px; border: 1px solid #c5ced8; border-radius: 4px; background: #fff; color: var(--fg); cursor: pointer; }
.pager button:disabled { color: #b5bec8; cursor: default; }
.pager select { font: inherit; padding: 2px 4px; border: 1px solid #c5ced8; border-radius: 4px; }
.pager .count { flex: 1; }
.note { color: var(--muted); font-size: 13px; }
.empty-state { padding: 16px; color: var(--muted); background: var(--panel); border-radius: 6px; }
footer { margin-top: 36px; padding-top: 10px; border-top: 1px solid var(--line); color: var(--faint); font-size: 12px; }
@media (max-width: 720px) { main { margin: 0; padding: 16px; border: 0; border-radius: 0; } }
@media print {
  html, body { background: #fff; }
  body { font-size: 11px; }
  main { max-width: none; margin: 0; padding: 0; border: 0; }
  nav.toc, .controls, .pager button, .pager label, button.sort::after { display: none !important; }
  .pager { margin: 4px 0 0; color: var(--fg); }
  button.link { color: inherit; text-decoration: none; }
  .table-wrap { overflow: visible; border: 0; }
  thead th { position: static; }
  tr, .card, .problems li { break-inside: avoid; }
  h2 { break-after: avoid; }
  tbody tr:nth-child(even) td, tbody tr:hover td { background: none; }
  .badge, .status, .problems, .verdict-box { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  ol.risks li { break-inside: avoid; }
  a { color: inherit; text-decoration: none; }
}
`

export const HTML_SCRIPT = `
(() => {
  'use strict';
  const PAGE_SIZES = [50, 100, 250, 1000];
  // A badge's colour comes from its word ('critical', 'not evaluated'): words of the report's own, never markup.
  const BADGE = /^[a-z][a-z -]*$/;
  const collator = new Intl.Collator('en', {numeric: true, sensitivity: 'base'});
  const count = (n) => n.toLocaleString('en');
  const tables = new Map();

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // Markdown code spans (\`on branch "main"\`) as <code>, as the page's HTML rows show them (codeHtml):
  // text nodes only; a backtick without its pair stays as it is.
  function withCode(node, text) {
    const parts = text.split('\u0060');
    if (parts.length < 3) {
      node.textContent = text;
      return node;
    }
    parts.forEach((part, i) => {
      if (i % 2 === 0) node.append(part);
      else if (i < parts.length - 1) node.append(element('code', '', part));
      else node.append('\u0060' + part);
    });
    return node;
  }

  class Table {
    constructor(section, data) {
      this.section = section;
      this.columns = data.columns;
      this.rows = data.rows;
      this.noun = section.dataset.noun || 'rows';
      this.tbody = section.querySelector('tbody');
      this.filters = new Map();
      // Each filter's label ('Severity'), for the count line: a printed page says what it was filtered by.
      this.filterNames = new Map();
      this.search = '';
      this.searchShown = '';
      this.texts = null;
      this.sort = null;
      this.page = 0;
      this.pageSize = 100;
      this.shown = [];
      this.setUpControls();
      this.setUpHeaders();
      this.setUpPager();
      for (const note of section.querySelectorAll('.nojs')) note.hidden = true;
      this.update();
    }

    text(row, column) {
      const spec = this.columns[column];
      const value = row[column];
      return spec.dict ? spec.dict[value] : Array.isArray(value) ? value.join('\\n') : String(value);
    }

    setUpControls() {
      const box = this.section.querySelector('.controls');
      if (!box) return;
      box.hidden = false;
      for (const select of box.querySelectorAll('select[data-column]')) {
        const column = Number(select.dataset.column);
        this.filterNames.set(column, select.parentElement.firstChild.textContent);
        const apply = () => {
          if (select.value === '') this.filters.delete(column);
          else this.filters.set(column, Number(select.value));
        };
        apply();
        select.addEventListener('change', () => { apply(); this.page = 0; this.update(); });
      }
      const input = box.querySelector('input[data-search]');
      if (input) {
        // The texts searched are made when the box is first used, not at load: about half a second for 50,000 rows.
        input.addEventListener('focus', () => this.searchTexts(), {once: true});
        const apply = () => {
          this.searchShown = input.value.trim();
          this.search = this.searchShown.toLowerCase();
        };
        apply();
        let timer;
        input.addEventListener('input', () => {
          clearTimeout(timer);
          timer = setTimeout(() => { apply(); this.page = 0; this.update(); }, 150);
        });
      }
    }

    setFilter(column, value) {
      const select = this.section.querySelector('.controls select[data-column="' + column + '"]');
      if (select) select.value = String(value);
      this.filters.set(column, value);
      this.page = 0;
      this.update();
    }

    setUpHeaders() {
      const headers = [...this.section.querySelectorAll('thead th')];
      headers.forEach((th, column) => {
        const button = element('button', 'sort', th.textContent);
        button.type = 'button';
        th.replaceChildren(button);
        button.addEventListener('click', () => {
          const descending = this.sort && this.sort.column === column ? !this.sort.descending : this.columns[column].kind === 'number';
          this.sort = {column, descending};
          for (const other of headers) other.removeAttribute('aria-sort');
          th.setAttribute('aria-sort', descending ? 'descending' : 'ascending');
          this.page = 0;
          this.update();
        });
      });
    }

    setUpPager() {
      const pager = element('div', 'pager');
      this.status = element('span', 'count');
      this.status.setAttribute('aria-live', 'polite');
      this.previous = element('button', 'previous', '\\u2039 Previous');
      this.next = element('button', 'next', 'Next \\u203a');
      this.previous.type = this.next.type = 'button';
      this.previous.addEventListener('click', () => { this.page--; this.render(); });
      this.next.addEventListener('click', () => { this.page++; this.render(); });
      const label = element('label', '', 'Rows per page ');
      const size = element('select');
      for (const n of PAGE_SIZES) size.append(new Option(String(n), String(n), false, n === this.pageSize));
      size.addEventListener('change', () => { this.pageSize = Number(size.value); this.page = 0; this.render(); });
      label.append(size);
      pager.append(this.status, this.previous, this.next, label);
      this.section.querySelector('.table-wrap').after(pager);
    }

    searchTexts() {
      this.texts ??= this.rows.map((row) => row.map((_, column) => this.text(row, column)).join('\\n').toLowerCase());
      return this.texts;
    }

    update() {
      const needle = this.search;
      const texts = needle ? this.searchTexts() : null;
      const shown = [];
      const filters = [...this.filters];
      rows: for (let i = 0; i < this.rows.length; i++) {
        const row = this.rows[i];
        for (const [column, value] of filters) if (row[column] !== value) continue rows;
        if (texts && !texts[i].includes(needle)) continue;
        shown.push(i);
      }
      if (this.sort) {
        const {column, descending} = this.sort;
        const spec = this.columns[column];
        const sign = descending ? -1 : 1;
        const compare = spec.dict || spec.kind === 'number'
          ? (a, b) => this.rows[a][column] - this.rows[b][column]
          : (a, b) => collator.compare(this.text(this.rows[a], column), this.text(this.rows[b], column));
        shown.sort((a, b) => sign * compare(a, b) || a - b);
      }
      this.shown = shown;
      this.render();
    }

    render() {
      const last = Math.max(0, Math.ceil(this.shown.length / this.pageSize) - 1);
      this.page = Math.min(Math.max(0, this.page), last);
      const start = this.page * this.pageSize;
      const slice = this.shown.slice(start, start + this.pageSize);
      const rows = document.createDocumentFragment();
      for (const i of slice) rows.append(this.row(this.rows[i]));
      if (slice.length === 0) {
        const tr = element('tr');
        const td = element('td', 'empty', 'No ' + this.noun + ' match these filters.');
        td.colSpan = this.columns.length;
        tr.append(td);
        rows.append(tr);
      }
      this.tbody.replaceChildren(rows);
      const all = this.rows.length;
      const range = slice.length === 0 ? '0' : count(start + 1) + '\\u2013' + count(start + slice.length);
      this.status.textContent = 'Showing ' + range + ' of ' + count(this.shown.length) + ' ' + this.noun + (this.shown.length === all ? '' : ' (' + count(all) + ' in all)') + this.filtersText();
      this.previous.disabled = this.page === 0;
      this.next.disabled = this.page >= last;
    }

    /** ', filtered by Severity: high and the text "npm"', or nothing: kept in print, where the controls are not. */
    filtersText() {
      const parts = [...this.filters].map(([column, value]) => this.filterNames.get(column) + ': ' + (this.columns[column].dict[value] || '(none)'));
      if (this.searchShown !== '') parts.push('the text \u201c' + this.searchShown + '\u201d');
      return parts.length === 0 ? '' : ', filtered by ' + parts.join(' and ');
    }

    row(values) {
      const tr = element('tr');
      values.forEach((value, column) => tr.append(this.cell(column, value)));
      return tr;
    }

    cell(column, value) {
      const spec = this.columns[column];
      const text = spec.dict ? spec.dict[value] : String(value);
      const td = element('td', spec.className);
      if (spec.kind === 'number' && value === 0) td.classList.add('zero');
      if (Array.isArray(value)) {
        for (const line of value) td.append(spec.code ? withCode(element('div'), line) : element('div', '', line));
      } else if (spec.kind === 'badge') {
        if (text !== '') td.append(element('span', BADGE.test(text) ? 'badge b-' + text.replaceAll(' ', '-') : 'badge', text));
      } else if (spec.goto) {
        const button = element('button', 'link', text);
        button.type = 'button';
        button.title = 'Show its findings';
        button.addEventListener('click', () => {
          const target = tables.get(spec.goto.table);
          if (!target) return;
          target.setFilter(spec.goto.column, value);
          target.section.scrollIntoView();
        });
        td.append(button);
      } else if (spec.code) {
        withCode(td, text);
      } else {
        td.textContent = text;
      }
      return td;
    }
  }

  for (const section of document.querySelectorAll('section[data-table]')) {
    const block = document.getElementById('data-' + section.dataset.table);
    if (block) tables.set(section.dataset.table, new Table(section, JSON.parse(block.textContent)));
  }
  window.addEventListener('beforeprint', () => {
    for (const details of document.querySelectorAll('details:not([open])')) {
      details.open = true;
      details.dataset.printed = '';
    }
  });
  window.addEventListener('afterprint', () => {
    for (const details of document.querySelectorAll('details[data-printed]')) {
      details.open = false;
      delete details.dataset.printed;
    }
  });
})();
`
