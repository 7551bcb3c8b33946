// kproxy ui: the page over the read-only JSON API (docs/ui.md). Everything from the journal is
// put on the page as text (textContent), never as markup.
'use strict';

const state = { from: null, to: null, first: null, last: null, mode: '', moment: null, lanes: [], tab: 'diff', marks: [] };
const $ = id => document.getElementById(id);
const COLORS = { 'failed-sync': '#de350b', pin: '#6554c0', unpin: '#6554c0', relist: '#00b8d9', config: '#97a0af',
  'service-changed': '#ff991f', 'service-deleted': '#974f0c', gap: 'rgba(193,199,208,0.35)', damaged: 'rgba(191,38,0,0.25)' };
let chart = null;
let laneCharts = [];

async function api(path, params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params || {})) {
    if (v !== null && v !== undefined && v !== '') q.set(k, v);
  }
  const res = await fetch('/api/' + path + (q.toString() ? '?' + q : ''));
  const body = await res.json();
  if (!res.ok) throw new Error(body.error || res.statusText);
  return body;
}

function iso(ms) { return new Date(ms).toISOString(); }
function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

// ---- links that encode what is shown ----
function readHash() {
  const h = new URLSearchParams(location.hash.slice(1));
  return { from: h.get('from'), to: h.get('to'), at: h.get('at'), record: h.get('record'),
    services: (h.get('services') || '').split(',').filter(s => s), mode: h.get('mode') || '' };
}
function writeHash() {
  const h = new URLSearchParams();
  if (state.from !== null && (state.from !== state.first || state.to !== state.last + 1)) { h.set('from', iso(state.from)); h.set('to', iso(state.to)); }
  if (state.moment && state.moment.record !== undefined) h.set('record', state.moment.record);
  if (state.moment && state.moment.at !== undefined) h.set('at', state.moment.at);
  if (state.lanes.length) h.set('services', state.lanes.join(','));
  if (state.mode) h.set('mode', state.mode);
  history.replaceState(null, '', '#' + h.toString());
  $('link').value = location.href;
}

// ---- the timeline ----
function marksPlugin() {
  return {
    hooks: {
      draw: [u => {
        const ctx = u.ctx;
        const top = u.bbox.top;
        const height = u.bbox.height;
        ctx.save();
        for (const m of state.marks) {
          const x0 = u.valToPos(m.start / 1000, 'x', true);
          const x1 = u.valToPos(m.end / 1000, 'x', true);
          ctx.fillStyle = COLORS[m.kind] || '#000';
          if (m.end > m.start) {
            ctx.fillRect(x0, top, Math.max(2, x1 - x0), height);
          } else {
            ctx.fillRect(x0 - 1, top, 2 * devicePixelRatio, height);
          }
        }
        ctx.restore();
      }],
      // a drag selects a range: the server aggregates it afresh (finer buckets, its own marks)
      setSelect: [u => {
        if (u.select.width < 3) return;
        const min = Math.round(u.posToVal(u.select.left, 'x') * 1000);
        const max = Math.round(u.posToVal(u.select.left + u.select.width, 'x') * 1000);
        u.setSelect({ left: 0, top: 0, width: 0, height: 0 }, false);
        if (max > min) loadRange(min, max);
      }]
    }
  };
}

function timelineData(t) {
  return [t.t.map(ms => ms / 1000), t.observations, t.relists, t.partialSyncs, t.fullSyncs, t.failedSyncs, t.pins, t.longestSyncMs];
}

function buildChart(t) {
  const width = Math.max(600, $('timeline').clientWidth || 1000);
  const bars = uPlot.paths.bars({ size: [0.9, 40] });
  const opts = {
    width, height: 260,
    cursor: { drag: { x: true, y: false, setScale: false }, sync: { key: 'kproxy' } },
    scales: { x: { time: true, range: () => [state.from / 1000, state.to / 1000] }, n: { distr: 4, range: (u, min, max) => [0, Math.max(1, max)] }, ms: { auto: true } },
    axes: [{}, { scale: 'n', label: 'records per bucket', values: (u, splits) => splits.map(v => v == null || v < 0 ? null : String(v)) }, { scale: 'ms', side: 1, label: 'longest sync (ms)', grid: { show: false } }],
    series: [
      { value: (u, v) => v == null ? '' : iso(v * 1000) },
      { label: 'observations', scale: 'n', stroke: '#4c9aff', fill: 'rgba(76,154,255,0.25)', paths: bars },
      { label: 'relists', scale: 'n', stroke: '#00b8d9', paths: bars },
      { label: 'partial syncs', scale: 'n', stroke: '#36b37e', paths: bars },
      { label: 'full syncs', scale: 'n', stroke: '#006644', paths: bars },
      { label: 'failed syncs', scale: 'n', stroke: '#de350b', fill: 'rgba(222,53,11,0.4)', paths: bars },
      { label: 'pins', scale: 'n', stroke: '#6554c0', paths: bars },
      { label: 'longest sync (ms)', scale: 'ms', stroke: '#ff5630', width: 1, points: { show: false } }
    ],
    plugins: [marksPlugin()]
  };
  chart = new uPlot(opts, timelineData(t), $('timeline'));
  let down = null;
  chart.over.addEventListener('mousedown', e => { down = e.clientX; });
  chart.over.addEventListener('click', e => {
    if (down !== null && Math.abs(e.clientX - down) > 3) return; // a drag to zoom, not a click
    const t = chart.posToVal(chart.cursor.left, 'x');
    if (t != null && !isNaN(t)) loadMoment({ at: iso(Math.round(t * 1000)) });
  });
}

async function loadRange(from, to) {
  state.from = from;
  state.to = to;
  const buckets = Math.max(50, Math.min(600, Math.floor(($('timeline').clientWidth || 1000) / 3)));
  const [t, m] = await Promise.all([api('timeline', { from, to, buckets }), api('marks', { from, to, limit: 400 })]);
  state.marks = m.marks;
  if (!chart) {
    buildChart(t);
  } else {
    chart.setData(timelineData(t));
  }
  showMarks(m);
  for (const s of state.lanes) refreshLane(s);
  writeHash();
}

function showMarks(m) {
  const list = $('marks');
  list.replaceChildren();
  for (const mark of m.marks) {
    const li = el('li');
    const b = el('button', 'mark k ' + mark.kind);
    b.type = 'button';
    b.dataset.kind = mark.kind;
    b.dataset.offset = mark.offset;
    b.dataset.service = mark.service;
    b.textContent = iso(mark.start).replace('T', ' ').replace('Z', '') + '  ' + (mark.offset >= 0 ? '#' + mark.offset + '  ' : '') + mark.label;
    b.addEventListener('click', () => {
      document.querySelectorAll('#marks button.selected').forEach(x => x.classList.remove('selected'));
      b.classList.add('selected');
      if (mark.kind === 'gap' || mark.kind === 'damaged') loadMoment({ at: iso(mark.start) });
      else loadMoment({ record: mark.offset });
      if (mark.service) addLane(mark.service);
    });
    li.appendChild(b);
    list.appendChild(li);
  }
  $('marks-note').textContent = m.marks.length + ' in view' + (m.dropped ? ', ' + m.dropped + ' more (zoom in to see them)' : '');
}

// ---- a moment: the ruleset programmed then and the diff to the sync before ----
function showDiff(text) {
  const pre = $('diff');
  pre.replaceChildren();
  let inCauses = false;
  for (const line of text.split('\n')) {
    let cls = '';
    if (line.startsWith('== ')) { cls = 'svc'; inCauses = false; }
    else if (line === 'caused by:' || line.startsWith('undone by the rollback')) { cls = 'cause-head'; inCauses = true; }
    else if (line.startsWith('caused by: ')) { cls = 'cause-head'; }
    else if (inCauses && line.startsWith('  #')) cls = 'cause';
    else if (line.startsWith('+ ')) cls = 'add';
    else if (line.startsWith('- ')) cls = 'del';
    const span = el('span', cls, line + '\n');
    if (cls === 'svc') span.dataset.service = line.slice(3);
    pre.appendChild(span);
  }
  pre.dataset.state = 'loaded';
}

let moments = 0;
async function loadMoment(target) {
  const mine = ++moments;
  state.moment = target;
  writeHash();
  $('moment').hidden = false;
  $('diff').dataset.state = 'loading';
  $('moment-summary').textContent = 'rebuilding the ruleset of that moment and its diff…';
  $('diff').replaceChildren();
  $('moment-title').textContent = target.record !== undefined ? 'the sync that programmed record #' + target.record : 'at ' + target.at;
  try {
    const m = await api('moment', Object.assign({ mode: state.mode }, target));
    if (mine !== moments) return; // the operator clicked another moment meanwhile
    $('moment-summary').textContent = m.summary;
    const pin = $('moment-pin');
    pin.hidden = !m.pin;
    pin.textContent = m.pin ? 'pinned: ' + m.pin.label + (m.rollback ? ' (this sync rolled the dataplane back)' : '') : '';
    showDiff(m.diff);
    $('diff').dataset.rollback = m.rollback;
    if (state.tab === 'ruleset') loadRuleset();
  } catch (e) {
    if (mine !== moments) return;
    $('moment-summary').textContent = e.message;
    $('diff').replaceChildren();
    $('diff').dataset.state = 'error';
  }
}

async function loadRuleset() {
  if (!state.moment) return;
  try {
    const r = await api('ruleset', Object.assign({ mode: state.mode, explain: $('explain').checked, grep: $('grep').value, limit: 5000 }, state.moment));
    $('ruleset-note').textContent = r.summary + ' — ' + r.lines + ' lines' + (r.lines > r.text.length ? ', the first ' + r.text.length + ' shown' : '');
    $('ruleset').textContent = r.text.join('\n');
  } catch (e) {
    $('ruleset-note').textContent = e.message;
    $('ruleset').textContent = '';
  }
}

// ---- swimlanes and audits ----
let searches = 0;
async function search() {
  const mine = ++searches;
  const r = await api('services', { q: $('search').value, limit: 30 });
  if (mine !== searches) return; // a later search (the user kept typing) answers instead
  const list = $('services');
  list.replaceChildren();
  for (const s of r.services) {
    const b = el('button', 'service', s.service + ' (' + s.records + ' records, ' + s.ready + ' ready)');
    b.type = 'button';
    b.dataset.service = s.service;
    b.addEventListener('click', () => addLane(s.service));
    const li = el('li');
    li.appendChild(b);
    list.appendChild(li);
  }
}

function addLane(service) {
  if (state.lanes.includes(service)) return;
  state.lanes.unshift(service);
  const box = el('div', 'lane');
  box.dataset.service = service;
  const head = el('div', 'lane-head');
  head.appendChild(el('strong', '', service));
  const audit = el('button', '', 'audit');
  audit.type = 'button';
  audit.addEventListener('click', () => loadAudit(service));
  const remove = el('button', '', 'remove');
  remove.type = 'button';
  remove.addEventListener('click', () => {
    state.lanes = state.lanes.filter(s => s !== service);
    laneCharts = laneCharts.filter(c => c.kproxyService !== service);
    box.remove();
    writeHash();
  });
  head.append(audit, remove);
  const plot = el('div', 'lane-plot');
  box.append(head, plot);
  $('lanes').prepend(box);
  refreshLane(service);
  writeHash();
}

async function refreshLane(service) {
  const box = document.querySelector('.lane[data-service="' + CSS.escape(service) + '"]');
  if (!box) return;
  const plot = box.querySelector('.lane-plot');
  let l;
  try {
    l = await api('lane', { service, from: state.from, to: state.to, points: 600 });
  } catch (e) {
    plot.textContent = e.message;
    return;
  }
  // a step series: extend the last value to the end of the view
  const t = l.t.map(ms => ms / 1000);
  const data = [t.concat([state.to / 1000]), l.ready.concat(l.ready.slice(-1)), l.serving.concat(l.serving.slice(-1)),
    l.terminating.concat(l.terminating.slice(-1))];
  const existing = laneCharts.find(c => c.kproxyService === service);
  if (existing) {
    existing.setData(data);
    return;
  }
  const steps = uPlot.paths.stepped({ align: 1 });
  const c = new uPlot({
    width: Math.max(600, $('lanes').clientWidth || 1000), height: 170,
    cursor: { sync: { key: 'kproxy' }, drag: { x: false, y: false } },
    scales: { x: { time: true, range: () => [state.from / 1000, state.to / 1000] }, y: { range: (u, min, max) => [0, Math.max(1, max + 1)] } },
    axes: [{}, { label: 'endpoints' }],
    series: [{ value: (u, v) => v == null ? '' : iso(v * 1000) },
      { label: 'ready', stroke: '#36b37e', fill: 'rgba(54,179,126,0.12)', paths: steps, width: 2, points: { show: false } },
      { label: 'serving', stroke: '#4c9aff', paths: steps, dash: [6, 4], points: { show: false } },
      { label: 'terminating', stroke: '#ff991f', paths: steps, width: 2, points: { show: false } }]
  }, data, plot);
  c.kproxyService = service;
  c.over.addEventListener('click', () => {
    const x = c.posToVal(c.cursor.left, 'x');
    if (x != null && !isNaN(x)) loadMoment({ at: iso(Math.round(x * 1000)) });
  });
  laneCharts.push(c);
}

async function loadAudit(service) {
  $('audit-view').hidden = false;
  $('audit-title').textContent = service;
  $('audit').textContent = 'loading…';
  try {
    $('audit').textContent = (await api('audit', { service })).text;
  } catch (e) {
    $('audit').textContent = e.message;
  }
}

// ---- start ----
async function summary() {
  const s = await api('summary');
  state.first = s.first;
  state.last = s.last;
  $('journal').textContent = s.first === undefined ? 'the journal holds no readable record'
    : iso(s.first) + ' .. ' + iso(s.last) + ' — ' + s.records.toLocaleString() + ' records, ' + s.services + ' Services'
      + (s.lostRecords ? ', ' + s.lostRecords + ' lost' : '') + (s.indexing ? ' (indexing…)' : '');
  const w = s.warnings.slice();
  if (s.lostRecords) w.push(s.lostRecords + ' records are lost to damage: their ranges are marked on the timeline; answers that need them are refused');
  $('warnings').hidden = w.length === 0;
  $('warnings').textContent = w.join('\n');
  if ($('mode').options.length === 1) {
    for (const m of s.modes) $('mode').appendChild(new Option(m, m));
  }
  return s;
}

async function start() {
  const h = readHash();
  let s = await summary();
  for (let i = 0; s.indexing && i < 600; i++) {
    await new Promise(r => setTimeout(r, 500));
    s = await summary();
  }
  if (s.first === undefined) return;
  state.mode = h.mode;
  $('mode').value = h.mode;
  const from = h.from ? Date.parse(h.from) : s.first;
  const to = h.to ? Date.parse(h.to) : s.last + 1;
  await loadRange(from, to);
  h.services.forEach(addLane);
  if (h.record !== null) loadMoment({ record: h.record });
  else if (h.at !== null) loadMoment({ at: h.at });
  await search();
  document.body.dataset.ready = 'true';
}

$('whole').addEventListener('click', () => loadRange(state.first, state.last + 1));
$('copy-link').addEventListener('click', () => { $('link').hidden = !$('link').hidden; $('link').select(); });
$('mode').addEventListener('change', () => { state.mode = $('mode').value; writeHash(); if (state.moment) loadMoment(state.moment); });
$('search').addEventListener('input', () => { clearTimeout(search.t); search.t = setTimeout(search, 150); });
$('grep').addEventListener('change', loadRuleset);
$('explain').addEventListener('change', loadRuleset);
document.querySelectorAll('.tabs button').forEach(b => b.addEventListener('click', () => {
  state.tab = b.dataset.tab;
  document.querySelectorAll('.tabs button').forEach(x => x.classList.toggle('on', x === b));
  $('diff').hidden = state.tab !== 'diff';
  $('ruleset-view').hidden = state.tab !== 'ruleset';
  if (state.tab === 'ruleset') loadRuleset();
}));
start().catch(e => { $('warnings').hidden = false; $('warnings').textContent = 'cannot load the journal: ' + e.message; });
