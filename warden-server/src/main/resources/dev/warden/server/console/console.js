// Warden console: a page over the JSON endpoints under /console/api/. Every value from the
// server is put in the page as text (never as HTML): node names and data are anyone's input.
'use strict';

const state = {
  path: '/', prefix: '', after: null, next: null, node: null, format: 'text',
  pendingOk: null, chartTimer: null, samples: [], lastStats: null, watchAfter: null, watchNext: null, sessionAfter: null, sessionNext: null,
};

// ---- helpers -------------------------------------------------------------------------------

const $ = (id) => document.getElementById(id);

function el(tag, props, ...children) {
  const node = document.createElement(tag);
  Object.entries(props || {}).forEach(([k, v]) => {
    if (k === 'class') node.className = v; else if (k === 'text') node.textContent = v; else node.setAttribute(k, v);
  });
  children.forEach((c) => node.append(c));
  return node;
}

function svgEl(tag, attrs) {
  const node = document.createElementNS('http://www.w3.org/2000/svg', tag);
  Object.entries(attrs || {}).forEach(([k, v]) => node.setAttribute(k, v));
  return node;
}

class ApiError extends Error {
  constructor(status, code, message) { super(message); this.status = status; this.code = code; }
}

async function api(method, endpoint, params) {
  const form = new URLSearchParams();
  Object.entries(params || {}).forEach(([k, v]) => { if (v !== null && v !== undefined) form.set(k, String(v)); });
  let url = 'api/' + endpoint;
  const options = { method, credentials: 'same-origin', headers: {} };
  if (method === 'GET') {
    const query = form.toString();
    if (query) url += '?' + query;
  } else {
    options.body = form.toString();
    options.headers['Content-Type'] = 'application/x-www-form-urlencoded';
    options.headers['X-Warden-Console'] = '1';
  }
  const response = await fetch(url, options);
  let body;
  try { body = await response.json(); } catch (e) { body = { error: 'BAD_RESPONSE', message: 'HTTP ' + response.status }; }
  if (response.status === 401 && endpoint !== 'login') {
    showLogin();
  }
  if (!response.ok) throw new ApiError(response.status, body.error, body.message || ('HTTP ' + response.status));
  return body;
}

function bytesOf(base64) {
  const binary = atob(base64 || '');
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function base64Of(text) {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

function hexDump(bytes) {
  const lines = [];
  for (let offset = 0; offset < bytes.length; offset += 16) {
    const row = bytes.subarray(offset, offset + 16);
    const hex = Array.from(row, (b) => b.toString(16).padStart(2, '0')).join(' ');
    const ascii = Array.from(row, (b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.')).join('');
    lines.push(offset.toString(16).padStart(8, '0') + '  ' + hex.padEnd(48) + ' ' + ascii);
  }
  return lines.join('\n') || '(no data)';
}

function isUtf8(bytes) {
  try { new TextDecoder('utf-8', { fatal: true }).decode(bytes); return true; } catch (e) { return false; }
}

function childPath(parent, name) { return parent === '/' ? '/' + name : parent + '/' + name; }
function parentOf(path) { const i = path.lastIndexOf('/'); return i <= 0 ? '/' : path.substring(0, i); }
function show(id, visible) { $(id).hidden = !visible; }
function message(text) { $('node-message').textContent = text || ''; show('node-message', !!text); }
function okMessage(text) { $('node-ok').textContent = text || ''; show('node-ok', !!text); }
function time(ms) { return ms ? new Date(ms).toISOString().replace('T', ' ').replace('Z', ' UTC') : '0'; }

// ---- login and routing ---------------------------------------------------------------------

function showLogin() {
  stopCharts();
  document.querySelectorAll('.view').forEach((v) => { v.hidden = true; });
  show('nav', false); show('who', false); show('view-login', true);
  offerCertificateLogin();
}

/** Over HTTPS with a client certificate that gives an x509 identity, the login page offers it. */
async function offerCertificateLogin() {
  show('certificate-login', false);
  try {
    const tls = await api('GET', 'tls');
    if (tls.certificate && tls.certificate.x509) {
      $('certificate-id').textContent = tls.certificate.x509;
      show('certificate-login', true);
    }
  } catch (e) {
    // no certificate login on offer; the password form still works
  }
}

async function start() {
  try {
    const me = await api('GET', 'whoami');
    loggedIn(me);
  } catch (e) {
    showLogin();
  }
}

function loggedIn(me) {
  $('who-name').textContent = me.user + (me.super ? ' (super)' : '');
  show('who', true); show('nav', true); show('view-login', false);
  route();
}

function route() {
  if (!$('view-login').hidden) return;
  const hash = location.hash || '#/tree';
  const [view, query] = hash.substring(2).split('?');
  const params = new URLSearchParams(query || '');
  stopCharts();
  document.querySelectorAll('.view').forEach((v) => { v.hidden = true; });
  document.querySelectorAll('#nav a').forEach((a) => a.classList.toggle('active', a.dataset.view === view));
  switch (view) {
    case 'sessions': show('view-sessions', true); loadSessions(true); break;
    case 'watches': show('view-watches', true); loadWatches(true); break;
    case 'ensemble': show('view-ensemble', true); loadEnsemble(); break;
    case 'charts': show('view-charts', true); startCharts(); break;
    default: show('view-tree', true); openPath(params.get('path') || '/');
  }
}

// ---- tree ----------------------------------------------------------------------------------

function openPath(path) {
  if (path !== state.path) {
    state.prefix = '';
    $('child-filter').value = '';
    okMessage(state.pendingOk || '');
    state.pendingOk = null;
  }
  state.path = path;
  state.after = null;
  renderCrumbs(path);
  message('');
  loadChildren();
  loadNode();
}

function go(path) { location.hash = '#/tree?path=' + encodeURIComponent(path); }

function renderCrumbs(path) {
  const crumbs = $('crumbs');
  crumbs.replaceChildren();
  const link = (label, target) => { const a = el('a', { href: '#/tree?path=' + encodeURIComponent(target), text: label }); return a; };
  crumbs.append(link('/', '/'));
  let sofar = '';
  path.split('/').filter((p) => p).forEach((part, i, all) => {
    sofar += '/' + part;
    crumbs.append(link(part, sofar));
    if (i < all.length - 1) crumbs.append(' / ');
  });
}

async function loadChildren() {
  const list = $('children-list');
  try {
    const page = await api('GET', 'children', { path: state.path, after: state.after, prefix: state.prefix, limit: 100 });
    list.replaceChildren();
    page.children.forEach((c) => {
      const item = el('li', { 'data-name': c.name });
      item.append(el('a', { href: '#/tree?path=' + encodeURIComponent(childPath(state.path, c.name)), text: c.name }));
      if (c.num_children > 0) item.append(' ', el('span', { class: 'count', text: '(' + c.num_children + ')' }));
      if (c.ephemeral) item.append(' ', el('span', { class: 'count', text: 'ephemeral' }));
      list.append(item);
    });
    state.next = page.next;
    const shown = page.children.length;
    const filtered = state.prefix ? ', ' + page.matching + ' starting with "' + state.prefix + '"' : '';
    $('children-count').textContent = page.total + ' children' + filtered + (shown ? ', showing ' + shown
      + (state.after ? ' after "' + state.after + '"' : '') : '');
    $('children-more').disabled = !page.next;
    $('children-first').disabled = !state.after;
  } catch (e) {
    list.replaceChildren();
    $('children-count').textContent = e.message;
  }
}

async function loadNode() {
  const path = state.path;
  $('node-path').textContent = path;
  show('edit-box', false); show('delete-box', false); show('create-box', false);
  try {
    const node = await api('GET', 'node', { path });
    if (path !== state.path) return;
    state.node = node;
    renderNode();
  } catch (e) {
    state.node = null;
    message(e.message);
    $('node-data').textContent = '';
    $('node-stat').replaceChildren();
    $('node-acl').tBodies[0].replaceChildren();
    ['edit-button', 'create-button', 'delete-button'].forEach((id) => show(id, false));
  }
}

function renderNode() {
  const node = state.node;
  renderData();
  const stat = $('node-stat');
  stat.replaceChildren();
  Object.entries(node.stat || {}).forEach(([k, v]) => {
    stat.append(el('tr', {}, el('td', { text: k }), el('td', { text: (k === 'ctime' || k === 'mtime') ? v + '  (' + time(v) + ')' : String(v) })));
  });
  const acl = $('node-acl').tBodies[0];
  acl.replaceChildren();
  (node.acl || []).forEach((a) => acl.append(el('tr', {}, el('td', { text: a.scheme }), el('td', { text: a.id }), el('td', { text: a.perms }))));
  const can = node.can;
  // data that is not UTF-8 would not survive a round trip through the text box: no edit for it
  show('edit-button', can.write && node.data_base64 !== null && isUtf8(bytesOf(node.data_base64)));
  show('create-button', can.create);
  show('delete-button', can.delete && node.path !== '/');
  show('node-readonly', !can.write && !can.create && !can.delete);
}

function renderData() {
  const node = state.node;
  document.querySelectorAll('#data-tabs button').forEach((b) => b.classList.toggle('active', b.dataset.format === state.format));
  if (!node) return;
  if (node.data_base64 === null) { $('node-data').textContent = node.read_refused; return; }
  const bytes = bytesOf(node.data_base64);
  const text = new TextDecoder('utf-8').decode(bytes);
  let shown;
  if (state.format === 'hex') shown = hexDump(bytes);
  else if (state.format === 'json') {
    try { shown = JSON.stringify(JSON.parse(text), null, 2); } catch (e) { shown = 'not JSON: ' + e.message; }
  } else shown = bytes.length ? text : '(no data)';
  $('node-data').textContent = shown;
}

async function save() {
  const node = state.node;
  const version = node.stat.version;
  try {
    const saved = await api('POST', 'set', { path: node.path, data_base64: base64Of($('edit-text').value), version });
    okMessage('Saved ' + node.path + ': now at version ' + saved.stat.version);
    message('');
    loadNode();
  } catch (e) {
    okMessage('');
    message((e.code === 'BADVERSION' ? 'Refused: ' : '') + e.message);
    if (e.code === 'BADVERSION') {
      // the message stays; the node below shows what it holds now
      const keep = $('node-message').textContent;
      await loadNode();
      message(keep);
    }
  }
}

async function removeNode() {
  const node = state.node;
  try {
    await api('POST', 'delete', { path: node.path, version: node.stat.version });
    state.pendingOk = 'Deleted ' + node.path;
    go(parentOf(node.path));
  } catch (e) {
    show('delete-box', false);
    message((e.code === 'BADVERSION' ? 'Refused: ' : '') + e.message);
  }
}

async function createChild(event) {
  event.preventDefault();
  const path = childPath(state.path, $('create-name').value);
  try {
    const created = await api('POST', 'create', {
      path, data_base64: base64Of($('create-data').value),
      sequential: $('create-sequential').checked, acl: $('create-acl').value,
    });
    show('create-box', false);
    message('');
    okMessage('Created ' + created.path);
    loadChildren();
    loadNode();
  } catch (e) {
    message(e.message);
  }
}

// ---- sessions, watches, ensemble ----------------------------------------------------------

function pathsCell(count, paths) {
  const more = count > paths.length ? ' …(' + (count - paths.length) + ' more)' : '';
  return el('td', { class: 'paths', text: count + (count ? ': ' + paths.join(', ') + more : '') });
}

async function loadSessions(reset) {
  if (reset !== false) state.sessionAfter = null;
  const body = $('sessions-table').tBodies[0];
  try {
    const answer = await api('GET', 'sessions', { after: state.sessionAfter, limit: 500 });
    body.replaceChildren();
    answer.sessions.forEach((s) => body.append(el('tr', { 'data-session': s.session_id },
      el('td', { text: s.session_id }),
      el('td', { text: s.client_address || '(connected to another member)' }),
      el('td', { text: s.timeout_ms + ' ms' }),
      pathsCell(s.ephemeral_count, s.ephemerals),
      pathsCell(s.watch_count, s.watches))));
    state.sessionNext = answer.next;
    $('sessions-more').disabled = !answer.next;
    $('sessions-count').textContent = answer.total + ' sessions' + (answer.total > answer.sessions.length
      ? ', showing ' + answer.sessions.length + (state.sessionAfter ? ' after ' + state.sessionAfter : '') : '');
  } catch (e) {
    $('sessions-count').textContent = e.message;
  }
}

async function loadWatches(reset) {
  if (reset) state.watchAfter = null;
  const body = $('watches-table').tBodies[0];
  try {
    const answer = await api('GET', 'watches', { prefix: $('watch-prefix').value, after: state.watchAfter, limit: 200 });
    body.replaceChildren();
    answer.watches.forEach((w) => body.append(el('tr', { 'data-path': w.path }, el('td', { text: w.path }), el('td', { text: w.sessions.join(', ') }))));
    state.watchNext = answer.next;
    $('watches-more').disabled = !answer.next;
    $('watches-count').textContent = answer.total + ' watched paths, ' + answer.matching + ' matching';
  } catch (e) {
    $('watches-count').textContent = e.message;
  }
}

/** A duration since a wall-clock time, in the largest whole unit: "42 s", "5 min", "3 h", "2 d". */
function ago(ms) {
  const seconds = Math.max(0, Math.round((Date.now() - ms) / 1000));
  if (seconds < 120) return seconds + ' s';
  if (seconds < 7200) return Math.floor(seconds / 60) + ' min';
  if (seconds < 172800) return Math.floor(seconds / 3600) + ' h';
  return Math.floor(seconds / 86400) + ' d';
}

async function loadEnsemble() {
  const body = $('ensemble-table').tBodies[0];
  try {
    const answer = await api('GET', 'ensemble');
    body.replaceChildren();
    answer.members.forEach((m) => body.append(el('tr', { 'data-member': m.id },
      el('td', { text: m.id + (m.self ? ' (this server)' : '') }), el('td', { text: m.address }),
      el('td', { text: m.role || '?' }), el('td', { text: m.zxid || '?' }),
      el('td', { text: m.epoch === null ? '?' : String(m.epoch) + (m.epoch_from === 'zxid' ? ' (from zxid)' : ''),
        'data-epoch-from': m.epoch_from || '' }),
      el('td', { text: m.lag === null ? '?' : String(m.lag) }),
      el('td', { text: m.fsync_avg_ms === null ? '?' : Number(m.fsync_avg_ms).toFixed(2) + ' / ' + m.fsync_max_ms,
        title: m.fsync_error || '' }),
      el('td', { text: [m.voting ? '' : 'observer', m.error || '', m.fsync_error ? 'fsync: ' + m.fsync_error : '']
        .filter((s) => s).join('; ') }))));
    $('ensemble-summary').textContent = 'This server: ' + answer.mode + (answer.leader_id !== null ? ', leader ' + answer.leader_id : '')
      + (answer.zab_state ? ', ' + answer.zab_state : '')
      + (answer.epoch !== null ? ', epoch ' + answer.epoch + ', elected ' + new Date(answer.elected_at_ms).toLocaleString()
        + ' (' + ago(answer.elected_at_ms) + ' ago)' : '')
      + '; fsync avg ' + Number(answer.fsync_avg_ms || 0).toFixed(2) + ' ms, max '
      + answer.fsync_max_ms + ' ms. Lag is in zxids behind the most advanced member.';
  } catch (e) {
    $('ensemble-summary').textContent = e.message;
  }
}

// ---- charts --------------------------------------------------------------------------------

const SAMPLES = 60;

function startCharts() {
  state.samples = [];
  state.lastStats = null;
  pollStats();
  state.chartTimer = setInterval(pollStats, 1000);
}

function stopCharts() {
  if (state.chartTimer) clearInterval(state.chartTimer);
  state.chartTimer = null;
}

async function pollStats() {
  let s;
  try { s = await api('GET', 'stats'); } catch (e) { $('charts-now').textContent = e.message; return; }
  const last = state.lastStats;
  state.lastStats = s;
  if (!last) return;
  const seconds = Math.max(0.001, (s.time_ms - last.time_ms) / 1000);
  const answered = s.requests - last.requests;
  state.samples.push({
    throughput: answered / seconds,
    avg: answered > 0 ? (s.latency_total_ms - last.latency_total_ms) / answered : 0,
    readP50: s.read_p50_ms, readP99: s.read_p99_ms, writeP50: s.write_p50_ms, writeP95: s.write_p95_ms, writeP99: s.write_p99_ms,
    outstanding: s.outstanding,
  });
  if (state.samples.length > SAMPLES) state.samples.shift();
  draw('chart-throughput', [['throughput', '#2456c7', 'requests/s']]);
  draw('chart-latency', [['avg', '#2456c7', 'avg'], ['readP50', '#12b76a', 'read p50'], ['readP99', '#027a48', 'read p99'],
    ['writeP50', '#f79009', 'write p50'], ['writeP95', '#dc6803', 'write p95'], ['writeP99', '#b42318', 'write p99']]);
  draw('chart-outstanding', [['outstanding', '#7a5af8', 'outstanding']]);
  $('charts-now').textContent = 'last zxid ' + s.last_zxid + ', ' + s.node_count + ' znodes, ' + s.connections
    + ' connections, ' + s.watch_count + ' watches; ' + (answered / seconds).toFixed(1) + ' requests/s';
}

function draw(id, series) {
  const svg = $(id);
  svg.replaceChildren();
  const width = 400, height = 160, left = 36, bottom = 16, top = 18;
  const max = Math.max(1, ...state.samples.flatMap((s) => series.map(([key]) => s[key])));
  svg.append(svgEl('line', { class: 'axis', x1: left, y1: height - bottom, x2: width, y2: height - bottom }));
  svg.append(svgEl('line', { class: 'axis', x1: left, y1: top, x2: left, y2: height - bottom }));
  const label = (x, y, text, color) => { const t = svgEl('text', { class: 'label', x, y }); if (color) t.setAttribute('fill', color); t.textContent = text; svg.append(t); };
  label(2, top + 4, String(max >= 100 ? Math.round(max) : Math.round(max * 10) / 10));
  label(2, height - bottom, '0');
  label(left, height - 2, SAMPLES + ' s');
  series.forEach(([key, color, name], i) => {
    const points = state.samples.map((s, j) => {
      const x = left + (width - left) * (j + SAMPLES - state.samples.length) / (SAMPLES - 1);
      const y = height - bottom - (height - bottom - top) * (s[key] / max);
      return x.toFixed(1) + ',' + y.toFixed(1);
    });
    svg.append(svgEl('polyline', { class: 'line', stroke: color, points: points.join(' ') }));
    label(left + 6 + i * 60, 11, name, color);
  });
}

// ---- wiring --------------------------------------------------------------------------------

document.addEventListener('DOMContentLoaded', () => {
  $('login-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    show('login-error', false);
    try {
      const me = await api('POST', 'login', { user: $('login-user').value, password: $('login-password').value });
      $('login-password').value = '';
      loggedIn(me);
    } catch (e) {
      $('login-error').textContent = e.message;
      show('login-error', true);
    }
  });
  $('certificate-submit').addEventListener('click', async () => {
    show('login-error', false);
    try {
      loggedIn(await api('POST', 'login', { method: 'x509' }));
    } catch (e) {
      $('login-error').textContent = e.message;
      show('login-error', true);
    }
  });
  $('logout').addEventListener('click', async () => { try { await api('POST', 'logout'); } finally { showLogin(); } });
  window.addEventListener('hashchange', route);
  let filterTimer = null;
  $('child-filter').addEventListener('input', () => {
    clearTimeout(filterTimer);
    filterTimer = setTimeout(() => { state.prefix = $('child-filter').value; state.after = null; loadChildren(); }, 250);
  });
  $('goto-form').addEventListener('submit', (event) => { event.preventDefault(); go($('goto-path').value || '/'); });
  $('children-more').addEventListener('click', () => { if (state.next) { state.after = state.next; loadChildren(); } });
  $('children-first').addEventListener('click', () => { state.after = null; loadChildren(); });
  document.querySelectorAll('#data-tabs button').forEach((b) => b.addEventListener('click', () => { state.format = b.dataset.format; renderData(); }));
  $('edit-button').addEventListener('click', () => {
    $('edit-text').value = new TextDecoder('utf-8').decode(bytesOf(state.node.data_base64));
    $('save-button').textContent = 'Save (over version ' + state.node.stat.version + ')';
    show('edit-box', true); okMessage('');
  });
  $('edit-cancel').addEventListener('click', () => show('edit-box', false));
  $('save-button').addEventListener('click', save);
  $('reload-button').addEventListener('click', () => { message(''); okMessage(''); loadChildren(); loadNode(); });
  $('delete-button').addEventListener('click', () => {
    $('delete-question').textContent = 'Delete ' + state.node.path + ' (version ' + state.node.stat.version + ')? This cannot be undone.';
    show('delete-box', true);
  });
  $('delete-cancel').addEventListener('click', () => show('delete-box', false));
  $('delete-confirm').addEventListener('click', removeNode);
  $('create-button').addEventListener('click', () => { show('create-box', true); $('create-name').focus(); });
  $('create-cancel').addEventListener('click', () => show('create-box', false));
  $('create-box').addEventListener('submit', createChild);
  $('sessions-refresh').addEventListener('click', () => loadSessions(true));
  $('sessions-more').addEventListener('click', () => { state.sessionAfter = state.sessionNext; loadSessions(false); });
  $('watches-refresh').addEventListener('click', () => loadWatches(true));
  $('watches-more').addEventListener('click', () => { state.watchAfter = state.watchNext; loadWatches(false); });
  $('watch-prefix').addEventListener('change', () => loadWatches(true));
  $('ensemble-refresh').addEventListener('click', loadEnsemble);
  start();
});
