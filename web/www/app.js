// gridsat's page. This script keeps the page's own state (the draft, undo and redo, the
// selected cell, what is shown) and calls gridsat, compiled to WebAssembly, for everything
// about puzzles: reading, editing, drawing, hit-testing, checking, explaining, generating.
// Quick calls (an edit, a drawing) run here; long ones run in a Web Worker that a new edit or
// the Stop button ends at once (terminate it, start a fresh one).
/* global wasm_bindgen */
'use strict';

const $ = (id) => document.getElementById(id);
const S = {
  draft: null,
  undo: [],
  redo: [],
  cursor: null,
  overlay: {},
  verdict: null,
  pics: [],
  picTexts: [],
  picIndex: 0,
  palette: null,
  selected: [],
  typed: { cell: '', text: '', time: 0 },
  drag: null,
};
const DEBOUNCE_MS = 250;

// ---- gridsat on this thread (quick verbs) ----
function api(verb, request) {
  return JSON.parse(wasm_bindgen.call(verb, JSON.stringify(request)));
}

// ---- gridsat in a worker (long verbs) ----
const W = { module: null, url: null, worker: null, busy: null, nextId: 1, timer: null };

class Cancelled extends Error {}

function freshWorker() {
  const w = new Worker(W.url);
  w.onmessage = (e) => {
    const { id, answer, ms } = e.data;
    const b = W.busy;
    if (!b || b.id !== id) return;
    W.busy = null;
    stopTimer();
    if (answer.crashed) dropWorker();
    b.resolve({ ...answer, ms });
  };
  w.onerror = (e) => {
    const b = W.busy;
    dropWorker();
    if (b) { W.busy = null; stopTimer(); b.resolve({ ok: false, error: 'the worker failed: ' + (e.message || e) }); }
  };
  w.postMessage({ id: 0, verb: 'init', module: W.module });
  W.worker = w;
}

function dropWorker() {
  if (W.worker) W.worker.terminate();
  W.worker = null;
}

function run(verb, request) {
  cancel();
  if (!W.worker) freshWorker();
  const id = W.nextId++;
  return new Promise((resolve, reject) => {
    W.busy = { id, resolve, reject, verb, start: performance.now() };
    W.worker.postMessage({ id, verb, request });
    startTimer();
  });
}

// Ends the run in flight, if any: its worker is terminated and a fresh one started.
function cancel() {
  const b = W.busy;
  if (!b) return false;
  W.busy = null;
  stopTimer();
  dropWorker();
  freshWorker();
  b.reject(new Cancelled(b.verb));
  return true;
}

function startTimer() {
  const t = $('timer');
  clearInterval(W.timer);
  $('stop').disabled = false;
  W.timer = setInterval(() => {
    if (!W.busy) return;
    const s = (performance.now() - W.busy.start) / 1000;
    t.textContent = (W.busy.verb === 'check' ? 'checking' : W.busy.verb) + '… ' + s.toFixed(1) + ' s';
  }, 100);
}

function stopTimer() {
  clearInterval(W.timer);
  $('stop').disabled = true;
  $('timer').textContent = '';
}

// ---- the verdict line ----
function setVerdict(status, text) {
  const v = $('verdict');
  v.dataset.status = status;
  v.textContent = text;
}

function words(status, a) {
  switch (status) {
    case 'unique': return 'unique';
    case 'multiple': return 'several solutions — they differ in ' + a.differing_cells.length + ' cells (shaded)';
    case 'none': return (a.conflicting_givens.length
      ? 'no solution — these givens conflict: ' + a.conflicting_givens.join(' ')
      : 'no solution (the rules have none even without givens)');
    default: return status;
  }
}

// ---- drawing the board ----
function render() {
  if (!S.draft) return;
  const overlay = { ...S.overlay };
  if (S.cursor) overlay.cursor = S.cursor;
  if (S.selected.length) overlay.selected = S.selected;
  const v = api('view', { draft: S.draft, overlay });
  if (!v.ok) { $('board-error').textContent = v.error; return; }
  $('board').innerHTML = v.svg;
  $('board-error').textContent = v.error ? 'not a puzzle yet: ' + v.error : '';
  $('description').textContent = v.description ? S.draft.kind + ' ' + v.description : '';
  $('undo').disabled = S.undo.length === 0;
  $('redo').disabled = S.redo.length === 0;
  renderPalette();
}

function showPictures(pics, texts, index) {
  S.pics = pics || [];
  S.picTexts = texts || [];
  S.picIndex = Math.max(0, Math.min(index || 0, S.pics.length - 1));
  showPicture();
}

function showPicture() {
  const n = S.pics.length;
  $('stepper').hidden = n < 2;
  $('picture').innerHTML = n ? S.pics[S.picIndex] : '';
  $('step-no').textContent = n > 1 ? (S.picIndex + 1) + ' / ' + n : '';
  if (S.picTexts.length) $('answer-text').textContent = S.picTexts[S.picIndex] || '';
}

// ---- changing the draft ----
function commit(draft, keepMarks) {
  if (S.draft) S.undo.push(JSON.stringify(S.draft));
  if (S.undo.length > 500) S.undo.shift();
  S.redo = [];
  setDraft(draft, keepMarks);
}

function setDraft(draft, keepMarks) {
  S.draft = draft;
  if (!keepMarks) S.overlay = {};
  S.selected = [];
  if (S.cursor && (S.cursor[0] >= draft.height || S.cursor[1] >= draft.width)) S.cursor = null;
  render();
  scheduleCheck();
}

function edit(e) {
  const a = api('edit', { draft: S.draft, edit: e });
  if (!a.ok) { $('notice').textContent = a.error; return false; }
  $('notice').textContent = '';
  commit(a.draft);
  return true;
}

function undo() {
  if (!S.undo.length) return;
  S.redo.push(JSON.stringify(S.draft));
  setDraft(JSON.parse(S.undo.pop()));
}

function redo() {
  if (!S.redo.length) return;
  S.undo.push(JSON.stringify(S.draft));
  setDraft(JSON.parse(S.redo.pop()));
}

// ---- the live verdict ----
let checkTimer = null;
function scheduleCheck() {
  clearTimeout(checkTimer);
  cancel();
  const d = S.draft;
  const view = api('view', { draft: d });
  if (view.ok && view.error) {
    setVerdict('error', 'not a puzzle yet');
    $('solution').textContent = '';
    return;
  }
  setVerdict('working', 'checking…');
  checkTimer = setTimeout(() => (playing() ? liveSafe() : liveCheck()), DEBOUNCE_MS);
}

async function liveCheck() {
  const d = S.draft;
  setVerdict('working', 'checking…');
  let a;
  const src = S.source || {};
  const req = { draft: d, file: src.name || 'board', index: Number($('which').value) || 1 };
  try {
    // The verdict first, at once: naming a minimal set of conflicting givens can take seconds
    // more, and a setter editing wants "no solution" the moment it is true.
    const v = await run('verdict', { draft: d, givens: false });
    if (d !== S.draft) return;
    if (v.ok && v.status === 'none') setVerdict('working', 'no solution — naming the givens that conflict…');
    a = await run('check', req);
  } catch (e) { if (e instanceof Cancelled) return; throw e; }
  if (d !== S.draft) return;
  S.verdict = a;
  if (!a.ok) { setVerdict('error', a.error); $('solution').textContent = ''; return; }
  setVerdict(a.status, words(a.status, a));
  $('timer').textContent = '(' + a.ms.toFixed(1) + ' ms)';
  $('solution').textContent = a.text || '';
  // The record `gridsat check --json` prints, with the worker's clock.
  $('record').textContent = a.record.replace(/"time_ms":[0-9.eE+-]+/, '"time_ms":' + Math.round(a.ms * 1000) / 1000);
  S.overlay = {};
  if (a.status === 'multiple') S.overlay.differ = a.marks;
  if (a.status === 'none') S.overlay.conflict = a.marks;
  render();
  if ($('solution-box').open) showSolution();
}

function showSolution() {
  const a = S.verdict;
  if (!a || !a.ok) return;
  const texts = a.status === 'multiple'
    ? ['one solution (the cells where two differ are shaded)', 'another solution']
    : ['the solution'];
  showPictures(a.pictures, a.status === 'none' ? ['no solution'] : texts);
}

// ---- Shisen-sho as a game ----
function playing() {
  return S.draft && S.draft.kind === 'shisen' && $('play').checked;
}

async function liveSafe() {
  const d = S.draft;
  setVerdict('working', 'can it still be cleared?…');
  let a;
  try { a = await run('safe', { draft: d }); } catch (e) { if (e instanceof Cancelled) return; throw e; }
  if (d !== S.draft) return;
  if (!a.ok) { setVerdict('error', a.error); return; }
  const says = {
    cleared: 'cleared — well played',
    stuck: 'stuck: no order of moves clears this position any more',
    clearable: 'can still be cleared (' + a.moves_left + ' moves)',
  };
  setVerdict(a.status, says[a.status]);
  S.safe = a;
}

function pickTile(cell) {
  const i = cell[0] * S.draft.width + cell[1];
  if (!S.draft.cells[i]) { S.selected = []; render(); return; }
  if (S.selected.length === 1 && S.selected[0][0] === cell[0] && S.selected[0][1] === cell[1]) {
    S.selected = []; render(); return;
  }
  if (S.selected.length === 0) { S.selected = [cell]; render(); return; }
  const a = api('pair', { draft: S.draft, a: S.selected[0], b: cell });
  if (!a.ok) {
    S.selected = [cell];
    render();
    $('notice').textContent = a.error;
    return;
  }
  $('notice').textContent = 'removed ' + a.move;
  commit(a.draft);
  S.overlay = { path: a.path };
  render();
}

// ---- the board: clicks, drags, keys ----
function hitOf(ev) {
  const svg = $('board').querySelector('svg');
  if (!svg) return null;
  const pt = svg.createSVGPoint();
  pt.x = ev.clientX;
  pt.y = ev.clientY;
  const p = pt.matrixTransform(svg.getScreenCTM().inverse());
  const h = api('hit', { draft: S.draft, x: p.x, y: p.y });
  return h.ok ? h.hit : null;
}

function onPointerDown(ev) {
  const h = hitOf(ev);
  $('board').focus();
  if (!h) return;
  const cell = [h.row, h.col];
  if (playing()) { pickTile(cell); return; }
  S.cursor = cell;
  if (S.palette !== null) {
    edit({ op: 'set', row: h.row, col: h.col, value: S.palette });
  } else {
    render();
  }
  if (S.draft.kind === 'tectonic') {
    S.drag = { from: cell, moved: false, before: JSON.stringify(S.draft) };
    $('board').setPointerCapture(ev.pointerId);
  }
}

function onPointerMove(ev) {
  if (!S.drag) return;
  const h = hitOf(ev);
  if (!h) return;
  const [r, c] = S.drag.from;
  if (h.row === r && h.col === c) return;
  if (Math.abs(h.row - r) + Math.abs(h.col - c) !== 1) { S.drag.from = [h.row, h.col]; return; }
  const a = api('edit', { draft: S.draft, edit: { op: 'join', from_row: r, from_col: c, row: h.row, col: h.col } });
  if (!a.ok) return;
  S.draft = a.draft;
  S.drag.moved = true;
  S.drag.from = [h.row, h.col];
  S.cursor = [h.row, h.col];
  render();
}

function onPointerUp() {
  const d = S.drag;
  S.drag = null;
  if (d && d.moved) {
    // The whole drag is one step to undo.
    S.undo.push(d.before);
    S.redo = [];
    setDraft(S.draft);
  }
}

function onKey(ev) {
  if (!S.draft) return;
  const k = ev.key;
  if ((ev.ctrlKey || ev.metaKey) && (k === 'z' || k === 'Z')) { ev.preventDefault(); ev.shiftKey ? redo() : undo(); return; }
  if ((ev.ctrlKey || ev.metaKey) && (k === 'y' || k === 'Y')) { ev.preventDefault(); redo(); return; }
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  if (moves[k]) {
    ev.preventDefault();
    const [r, c] = S.cursor || [0, 0];
    S.cursor = [
      Math.max(0, Math.min(S.draft.height - 1, r + moves[k][0])),
      Math.max(0, Math.min(S.draft.width - 1, c + moves[k][1])),
    ];
    render();
    return;
  }
  if (!S.cursor || playing()) return;
  const [row, col] = S.cursor;
  if (k === 'Backspace' || k === 'Delete' || k === '.' || k === ' ') {
    ev.preventDefault();
    edit({ op: 'set', row, col, value: '' });
    return;
  }
  if (S.draft.kind === 'tectonic' && (k === 's' || k === 'S')) {
    edit({ op: 'split', row, col });
    return;
  }
  if (k.length !== 1 || /\s|#/.test(k)) return;
  ev.preventDefault();
  // Several keys typed quickly in one cell make one token (16 in a 16x16 Sudoku, 12 as a
  // Numberlink label); gridsat says whether the longer one fits, else the last key alone.
  const here = row + ',' + col;
  const now = performance.now();
  let value = k;
  if (S.typed.cell === here && now - S.typed.time < 1000) value = S.typed.text + k;
  const kind = S.draft.kind;
  if (kind === 'shisen' && /^[a-z]$/.test(k) && value === k) value = k.toUpperCase();
  let ok = edit({ op: 'set', row, col, value });
  if (!ok && value !== k) { value = k; ok = edit({ op: 'set', row, col, value }); }
  S.typed = { cell: here, text: ok ? value : '', time: now };
}

// ---- the palette (for touch screens; the keyboard does the same) ----
function paletteTokens() {
  const d = S.draft;
  const used = [...new Set(d.cells.filter((t) => t))];
  switch (d.kind) {
    case 'sudoku': return Array.from({ length: d.width }, (_, i) => String(i + 1));
    case 'takuzu': return ['0', '1'];
    case 'tectonic': return ['1', '2', '3', '4', '5', '6', '7'];
    case 'numberlink': {
      const nums = used.map(Number).filter((n) => n > 0);
      const top = Math.max(0, ...nums);
      return [...used.sort((a, b) => (Number(a) || 0) - (Number(b) || 0)), ...(nums.length === used.length ? [String(top + 1)] : [])];
    }
    case 'shisen': {
      const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'.split('').filter((l) => !used.includes(l));
      return [...used.sort(), ...letters.slice(0, 1)];
    }
    default: return [];
  }
}

function renderPalette() {
  const p = $('palette');
  p.innerHTML = '';
  if (playing()) return;
  const add = (label, token) => {
    const b = document.createElement('button');
    b.textContent = label;
    b.dataset.token = token;
    if (S.palette === token) b.classList.add('on');
    b.onclick = () => {
      if (S.cursor && S.palette !== token) edit({ op: 'set', row: S.cursor[0], col: S.cursor[1], value: token });
      S.palette = S.palette === token ? null : token;
      renderPalette();
    };
    p.appendChild(b);
  };
  for (const t of paletteTokens()) add(t, t);
  add('erase', '');
}

// ---- the controls ----
function flagsFromControls(kind) {
  const f = {};
  if (kind === 'sudoku' && $('box').value.trim()) f.box = $('box').value.trim();
  if (kind === 'takuzu') {
    if ($('no-distinct-lines').checked) f['no-distinct-lines'] = '1';
    if ($('odd-lines').value) f['odd-lines'] = $('odd-lines').value;
    if ($('regions').value.trim()) f.regions = $('regions').value.trim();
  }
  if (kind === 'numberlink') f.rules = $('rules').value;
  if (kind === 'shisen') {
    for (const k of ['gravity', 'chinese', 'no-outline']) if ($(k).checked) f[k] = '1';
  }
  return f;
}

function controlsFromDraft(d) {
  $('kind').value = d.kind;
  document.body.className = 'kind-' + d.kind;
  $('width').value = d.width;
  $('height').value = d.height;
  const f = d.flags || {};
  $('box').value = f.box || '';
  $('no-distinct-lines').checked = !!f['no-distinct-lines'];
  $('odd-lines').value = f['odd-lines'] || '';
  $('regions').value = f.regions || '';
  $('rules').value = f.rules || 'flow';
  for (const k of ['gravity', 'chinese', 'no-outline']) $(k).checked = !!f[k];
  if (d.kind !== 'shisen') $('play').checked = false;
}

function newBoard() {
  const kind = $('kind').value;
  const a = api('new', { kind, width: Number($('width').value), height: Number($('height').value), flags: flagsFromControls(kind) });
  if (!a.ok) { $('board-error').textContent = a.error; return; }
  S.cursor = null;
  S.source = null;
  $('which-box').hidden = true;
  $('which').value = 1;
  commit(a.draft);
  controlsFromDraft(a.draft);
}

function rulesChanged() {
  if (!S.draft || $('kind').value !== S.draft.kind) return;
  commit({ ...S.draft, flags: flagsFromControls(S.draft.kind) });
}

function openText(text, name, kind, flags, index) {
  const a = api('open', { text, name: name || '', kind: kind || null, flags: flags || {}, index: index || 1 });
  if (!a.ok) {
    $('board-error').textContent = a.error;
    setVerdict('error', 'could not read it');
    return false;
  }
  S.cursor = null;
  controlsFromDraft(a.draft);
  commit(a.draft);
  // A file of several puzzles: which one is open, and a way to the others.
  S.source = { text, name, kind, flags };
  $('which-box').hidden = a.count < 2;
  $('which').max = a.count;
  $('which').value = a.index;
  $('which-count').textContent = a.count;
  $('answer-text').textContent = '';
  showPictures([]);
  return true;
}

// ---- asking gridsat ----
async function ask(verb, request) {
  try {
    return await run(verb, request);
  } catch (e) {
    if (e instanceof Cancelled) return null;
    throw e;
  }
}

async function onHint() {
  if (playing()) {
    const a = S.safe && S.safe.status === 'clearable' ? S.safe : await ask('safe', { draft: S.draft });
    if (!a || !a.ok) return;
    if (a.status !== 'clearable') { $('answer-text').textContent = a.status; return; }
    S.selected = a.cells;
    S.overlay = { path: a.path };
    render();
    $('answer-text').textContent = 'a safe move: ' + a.move + ' (the board can still be cleared after it)';
    return;
  }
  const d = S.draft;
  const a = await ask('hint', { draft: d, fallback: true });
  if (!a) return;
  if (!a.ok) { $('answer-text').textContent = a.error; return; }
  scheduleCheckStatusOnly(d);
  if (a.status !== 'hint') { $('answer-text').textContent = a.message || a.status; showPictures([]); return; }
  showPictures(a.pictures, a.lines);
}

async function onExplain() {
  const d = S.draft;
  const a = await ask('explain', { draft: d, fallback: true });
  if (!a) return;
  scheduleCheckStatusOnly(d);
  if (!a.ok) { $('answer-text').textContent = a.error; return; }
  if (!a.pictures.length) { $('answer-text').textContent = a.message || a.status; showPictures([]); return; }
  showPictures(a.pictures, a.lines, 0);
}

async function onGrade() {
  const d = S.draft;
  const a = await ask('grade', { draft: d });
  if (!a) return;
  scheduleCheckStatusOnly(d);
  if (!a.ok) { $('answer-text').textContent = a.error; return; }
  $('answer-text').textContent = (a.status === 'graded' ? 'grade: ' : '') + a.message;
}

async function onCandidates() {
  const d = S.draft;
  const a = await ask('candidates', { draft: d });
  if (!a) return;
  scheduleCheckStatusOnly(d);
  if (!a.ok) { $('answer-text').textContent = a.error; return; }
  if (!a.counts) { $('answer-text').textContent = 'no solution: no candidates'; return; }
  S.overlay = { ...S.overlay, counts: a.counts };
  render();
  $('answer-text').textContent = 'forced cells (' + a.forced_cells.length + '): ' + (a.forced_cells.join(' ') || 'none')
    + '. The small number in each open cell counts the values some solution puts there.';
}

async function onSolutions() {
  const d = S.draft;
  const a = await ask('solutions', { draft: d });
  if (!a) return;
  scheduleCheckStatusOnly(d);
  if (!a.ok) { $('answer-text').textContent = a.error; return; }
  const head = a.complete ? a.count + ' solutions' : 'at least ' + a.count + ' solutions';
  showPictures(a.pictures, a.pictures.map((_, i) => head + ': number ' + (i + 1) + ' (shaded: where it differs from the first)'));
}

// After a verb other than check ran, the verdict line still says what it said.
function scheduleCheckStatusOnly(d) {
  if (d === S.draft && $('verdict').dataset.status === 'working') scheduleCheck();
}

async function onGenerate() {
  const kind = $('kind').value;
  const req = {
    kind,
    size: Number($('width').value),
    width: kind === 'sudoku' ? null : Number($('width').value),
    height: kind === 'sudoku' ? null : Number($('height').value),
    difficulty: $('difficulty').value || null,
    symmetry: kind === 'sudoku' ? $('symmetry').value : null,
    seed: Number($('seed').value) || 0,
    flags: flagsFromControls(kind),
  };
  setVerdict('working', 'generating…');
  const a = await ask('generate', req);
  if (!a) return;
  if (!a.ok) { setVerdict('error', 'could not generate'); $('answer-text').textContent = a.error; return; }
  S.cursor = null;
  S.source = null;
  $('which-box').hidden = true;
  $('which').value = 1;
  controlsFromDraft(a.draft);
  commit(a.draft);
  $('answer-text').textContent = a.text.split('\n').filter((l) => l.startsWith('#')).join(' ');
  $('seed').value = String((Number($('seed').value) || 0) + 1);
}

// ---- share and export ----
function download(name, data, type) {
  const url = URL.createObjectURL(new Blob([data], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function showExport(text) {
  const o = $('export-out');
  o.hidden = false;
  o.value = text;
  o.select();
}

function exported(format) {
  const a = api('export', { draft: S.draft, format });
  if (!a.ok) { $('board-error').textContent = a.error; return null; }
  return a.text;
}

function onShare() {
  const frag = exported('share');
  if (frag === null) return;
  history.replaceState(null, '', '#' + frag);
  showExport(location.href);
}

function onPng() {
  const svg = exported('svg');
  if (svg === null) return;
  const img = new Image();
  img.onload = () => {
    const scale = 2;
    const c = document.createElement('canvas');
    c.width = img.width * scale;
    c.height = img.height * scale;
    const g = c.getContext('2d');
    g.scale(scale, scale);
    g.drawImage(img, 0, 0);
    c.toBlob((b) => download('puzzle.png', b, 'image/png'));
  };
  img.src = 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(svg);
}

async function onProof() {
  const d = S.draft;
  const a = await ask('proof', { draft: d });
  if (!a) return;
  scheduleCheckStatusOnly(d);
  if (!a.ok) { $('answer-text').textContent = a.error; return; }
  if (!a.cnf) { $('answer-text').textContent = a.message; return; }
  download('puzzle.cnf', a.cnf, 'text/plain');
  download('puzzle.drat', new Uint8Array(a.drat), 'application/octet-stream');
  $('answer-text').textContent = 'proof of “' + a.status + '”: puzzle.cnf and puzzle.drat (check with: drat-trim puzzle.cnf puzzle.drat, or rate -d)';
}

// ---- opening what the URL's fragment names (the testing contract) ----
function openFragment() {
  const h = location.hash.slice(1);
  if (!h) return false;
  if (/^text=/.test(h) || /&kind=/.test(h)) {
    const params = new URLSearchParams(h.replace(/\+/g, '%2B'));
    const text = params.get('text') || '';
    const kind = params.get('kind');
    const flags = {};
    for (const [k, v] of params) if (k !== 'text' && k !== 'kind') flags[k] = v;
    return openText(text, '', kind, flags);
  }
  return openText(decodeURIComponent(h), '', null, {});
}

// ---- start ----
async function start() {
  const t0 = performance.now();
  // Everything the page needs is fetched now; workers are made from these later, offline.
  const [bytes, glue, workerSrc] = await Promise.all([
    fetch('gridsat_bg.wasm').then((r) => r.arrayBuffer()),
    fetch('gridsat.js').then((r) => r.text()),
    fetch('worker.js').then((r) => r.text()),
  ]);
  W.module = await WebAssembly.compile(bytes);
  await wasm_bindgen({ module_or_path: W.module });
  wasm_bindgen.install_panic_hook();
  W.url = URL.createObjectURL(new Blob([glue, '\n', workerSrc], { type: 'text/javascript' }));
  freshWorker();

  $('board').addEventListener('pointerdown', onPointerDown);
  $('board').addEventListener('pointermove', onPointerMove);
  $('board').addEventListener('pointerup', onPointerUp);
  $('board').addEventListener('keydown', onKey);
  $('undo').onclick = undo;
  $('redo').onclick = redo;
  $('clear').onclick = () => edit({ op: 'clear' });
  $('split').onclick = () => S.cursor && edit({ op: 'split', row: S.cursor[0], col: S.cursor[1] });
  $('new').onclick = newBoard;
  $('kind').onchange = () => {
    document.body.className = 'kind-' + $('kind').value;
    const sizes = { sudoku: [9, 9], takuzu: [8, 8], tectonic: [6, 6], numberlink: [7, 7], shisen: [8, 4] };
    const [w, h] = sizes[$('kind').value];
    $('width').value = w;
    $('height').value = h;
    newBoard();
  };
  for (const id of ['box', 'no-distinct-lines', 'odd-lines', 'regions', 'rules', 'gravity', 'chinese', 'no-outline']) {
    $(id).onchange = rulesChanged;
  }
  $('play').onchange = () => { S.selected = []; S.overlay = {}; render(); scheduleCheck(); };
  $('open').onclick = () => openText($('paste').value, '', null, {});
  $('which').onchange = () => {
    const src = S.source;
    if (src) openText(src.text, src.name, src.kind, src.flags, Number($('which').value));
  };
  $('file').onchange = async () => {
    const f = $('file').files[0];
    if (f) openText(await f.text(), f.name, null, {});
  };
  document.addEventListener('dragover', (e) => { e.preventDefault(); document.body.classList.add('dragging'); });
  document.addEventListener('dragleave', () => document.body.classList.remove('dragging'));
  document.addEventListener('drop', async (e) => {
    e.preventDefault();
    document.body.classList.remove('dragging');
    const f = e.dataTransfer.files[0];
    if (f) openText(await f.text(), f.name, null, {});
    else if (e.dataTransfer.getData('text')) openText(e.dataTransfer.getData('text'), '', null, {});
  });
  $('stop').onclick = () => {
    if (cancel()) setVerdict('stopped', 'stopped');
  };
  $('solve').onclick = () => { $('solution-box').open = true; showSolution(); };
  $('hint').onclick = onHint;
  $('explain').onclick = onExplain;
  $('grade').onclick = onGrade;
  $('candidates').onclick = onCandidates;
  $('more').onclick = onSolutions;
  $('prev').onclick = () => { if (S.picIndex > 0) { S.picIndex--; showPicture(); } };
  $('next').onclick = () => { if (S.picIndex + 1 < S.pics.length) { S.picIndex++; showPicture(); } };
  $('generate').onclick = onGenerate;
  $('share').onclick = onShare;
  $('export-url').onclick = () => { const t = exported('url'); if (t !== null) showExport(t.trim()); };
  $('export-text').onclick = () => { const t = exported('text'); if (t !== null) { showExport(t); download('puzzle.txt', t, 'text/plain'); } };
  $('export-svg').onclick = () => { const t = exported('svg'); if (t !== null) download('puzzle.svg', t, 'image/svg+xml'); };
  $('export-png').onclick = onPng;
  $('proof').onclick = onProof;
  window.addEventListener('hashchange', openFragment);

  if (!openFragment()) {
    document.body.className = 'kind-sudoku';
    newBoard();
  }
  // Time to interactive: from the navigation's start (performance.now's origin), and how much
  // of it this script took (fetching and compiling the module, drawing the first board).
  const ms = performance.now();
  $('ready-time').textContent = 'Ready ' + Math.round(ms) + ' ms after opening (' + Math.round(ms - t0) + ' ms of it starting gridsat).';
  window.gridsatReady = ms;
}

start().catch((e) => {
  setVerdict('error', 'gridsat could not start: ' + e);
});
