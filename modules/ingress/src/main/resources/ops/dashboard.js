// The ops dashboard (docs/operations.md). Polls GET /ops/api/live every 2 s and keeps the last 10
// minutes in memory: the answers are cumulative (counters, histograms' cumulative bucket counts), so
// rates and percentiles come from the difference of two answers, as Prometheus's rate() and
// histogram_quantile() do. The delivery figures are polled every 30 s; the case library on demand.
'use strict';

const POLL_MS = 2000;
const KEEP_MS = 10 * 60 * 1000;
const WINDOW_MS = 10_000; // percentiles over the last 10 s
const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf'];

const samples = [];
const charts = {};
let casesCause = null;
let casesNext = 0;

const $ = (selector) => document.querySelector(selector);
const figure = (name) => document.querySelector(`[data-figure="${name}"]`);
const fmt = (value, digits = 0) => (value === null || value === undefined || Number.isNaN(value) ? '–'
  : Number(value).toLocaleString('en', { maximumFractionDigits: digits }));

async function getJson(url) {
  const response = await fetch(url, { headers: { Accept: 'application/json' }, credentials: 'same-origin' });
  if (response.status === 401 || response.status === 403) {
    window.location.assign('/ops/'); // the sign-in page says why
    throw new Error(`HTTP ${response.status}`);
  }
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.json();
}

// The q-quantile of the observations between two cumulative histograms (linear within a bucket).
function quantile(q, now, before) {
  if (!now) return null;
  const counts = now.cumulative.map((c, i) => c - (before ? before.cumulative[i] : 0));
  const total = now.count - (before ? before.count : 0);
  if (total <= 0) return null;
  const rank = q * total;
  let lower = 0;
  let below = 0;
  for (let i = 0; i < counts.length; i += 1) {
    if (counts[i] >= rank) {
      const inBucket = counts[i] - below;
      return inBucket <= 0 ? now.bounds[i] : lower + (now.bounds[i] - lower) * ((rank - below) / inBucket);
    }
    lower = now.bounds[i];
    below = counts[i];
  }
  return now.bounds[now.bounds.length - 1]; // beyond the last bucket: at least its bound
}

function sampleAgo(ms) {
  const latest = samples[samples.length - 1];
  for (let i = samples.length - 2; i >= 0; i -= 1) {
    if (latest.time - samples[i].time >= ms) return samples[i];
  }
  return samples.length > 1 ? samples[0] : null;
}

function perSecond(now, before, pick) {
  if (!before) return null;
  const seconds = (now.time - before.time) / 1000;
  return seconds > 0 ? Math.max(0, (pick(now) - pick(before)) / seconds) : null;
}

function chart(id, series, options = {}) {
  const element = document.getElementById(id);
  const opts = {
    width: Math.max(300, element.clientWidth || 500),
    height: 200,
    scales: { x: { time: true }, ...(options.scales || {}) },
    series: [{}, ...series.map((s, i) => ({ stroke: COLORS[i % COLORS.length], width: 1.5, spanGaps: true, ...s }))],
    axes: options.axes || [{}, { size: 60 }],
  };
  const data = [[], ...series.map(() => [])];
  charts[id] = { plot: new uPlot(opts, data, element), data, element };
  return charts[id];
}

function push(id, time, values) {
  const c = charts[id];
  c.data[0].push(time / 1000);
  values.forEach((v, i) => c.data[i + 1].push(v === undefined ? null : v));
  while (c.data[0].length && (time / 1000 - c.data[0][0]) * 1000 > KEEP_MS) c.data.forEach((column) => column.shift());
  c.plot.setData(c.data);
}

// Charts whose series are only known once data arrives (partitions, lanes): made at the first answer.
function ensureChart(id, labels, options) {
  if (!charts[id]) chart(id, labels.map((label) => ({ label })), options);
  return charts[id];
}

function pagingChart(histogram) {
  const labels = histogram.bounds.map((b) => (Number.isFinite(b) ? `≤${b}` : 'more'));
  const counts = histogram.cumulative.map((c, i) => c - (i > 0 ? histogram.cumulative[i - 1] : 0));
  counts.push(histogram.count - (histogram.cumulative[histogram.cumulative.length - 1] || 0));
  labels.push(`>${histogram.bounds[histogram.bounds.length - 1]}`);
  const xs = counts.map((_, i) => i);
  if (!charts['chart-paging']) {
    const element = document.getElementById('chart-paging');
    const plot = new uPlot({
      width: Math.max(300, element.clientWidth || 500), height: 200,
      scales: { x: { time: false, range: [-0.5, counts.length - 0.5] } },
      series: [{}, { label: 'catch-ups', stroke: COLORS[0], fill: `${COLORS[0]}66`, paths: uPlot.paths.bars({ size: [0.6, 60] }) }],
      axes: [{ splits: () => xs, values: () => labels }, { size: 60 }],
    }, [xs, counts], element);
    charts['chart-paging'] = { plot, element };
  } else {
    charts['chart-paging'].plot.setData([xs, counts]);
  }
  const withinTwo = histogram.count ? (histogram.cumulative[1] / histogram.count) * 100 : null;
  return withinTwo;
}

function rows(tbody, items, cells, empty) {
  tbody.replaceChildren();
  if (!items.length) {
    const tr = tbody.insertRow();
    const td = tr.insertCell();
    td.colSpan = 20;
    td.className = 'empty';
    td.textContent = empty;
    return;
  }
  items.forEach((item) => {
    const tr = tbody.insertRow();
    cells(item).forEach((value) => { tr.insertCell().textContent = value === null || value === undefined ? '' : String(value); });
  });
}

const time = (millis) => (millis ? new Date(millis).toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z') : '');

function render(now) {
  const previous = samples.length > 1 ? samples[samples.length - 2] : null;
  const windowStart = sampleAgo(WINDOW_MS);
  const sent = (s) => s.sends.ok + s.sends.accepted;
  const sendRate = perSecond(now, previous, sent);
  const send50 = quantile(0.5, now.sendToSeqMs, windowStart && windowStart.sendToSeqMs);
  const send99 = quantile(0.99, now.sendToSeqMs, windowStart && windowStart.sendToSeqMs);
  const push50 = quantile(0.5, now.push.latencyMs, windowStart && windowStart.push.latencyMs);
  const push99 = quantile(0.99, now.push.latencyMs, windowStart && windowStart.push.latencyMs);

  figure('sends-per-second').textContent = fmt(sendRate, 1);
  figure('send-latency').textContent = `${fmt(send50, 1)} / ${fmt(send99, 1)}`;
  figure('push-connections').textContent = fmt(now.push.connections);
  figure('push-latency').textContent = `${fmt(push50, 1)} / ${fmt(push99, 1)}`;
  push('chart-sends', now.time, [sendRate, perSecond(now, previous, (s) => s.sends.ok),
    perSecond(now, previous, (s) => s.sends.accepted), perSecond(now, previous, (s) => s.sends.refused + s.sends.failed)]);
  push('chart-send-latency', now.time, [send50, send99]);
  push('chart-push-connections', now.time, [now.push.connections]);
  push('chart-push-latency', now.time, [push50, push99]);

  if (now.projector) {
    const parts = now.projector.partitions;
    ensureChart('chart-projector-lag', parts.map((p) => `partition ${p.partition}`));
    push('chart-projector-lag', now.time, parts.map((p) => p.lag));
    figure('projector-lag').textContent = fmt(now.projector.lag);
  }
  if (now.sequencer) {
    const group = now.sequencer;
    push('chart-sequencer', now.time, [group.lag, group.members]);
    const cell = figure('sequencer');
    cell.textContent = `${fmt(group.members)} / ${fmt(group.lag)}`;
    cell.classList.toggle('bad', group.members === 0);
  }

  const lanes = now.fetch.lanes;
  ensureChart('chart-lanes', lanes.flatMap((l) => [`${l.lane} running`, `${l.lane} waiting`, `${l.lane} refused/s`]));
  push('chart-lanes', now.time, lanes.flatMap((l, i) => [l.inFlight, l.waiting,
    perSecond(now, previous, (s) => (s.fetch.lanes[i] ? s.fetch.lanes[i].rejected : 0))]));
  if (now.fetch.syncPages) {
    const withinTwo = pagingChart(now.fetch.syncPages);
    charts['chart-paging'].element.title = withinTwo === null ? '' : `${fmt(withinTwo, 1)} % of catch-ups within two pages`;
  }

  const limits = now.limits;
  const names = Object.keys(limits.refused);
  ensureChart('chart-limits', names.map((name) => `${name}/s`));
  push('chart-limits', now.time, names.map((name) => perSecond(now, previous, (s) => s.limits.refused[name] || 0)));
  const limitsCell = figure('limits');
  limitsCell.textContent = `${limits.shared ? 'Redis' : 'this instance'} / ${fmt(Object.values(limits.refused).reduce((a, b) => a + b, 0))}`;
  limitsCell.classList.toggle('bad', !limits.shared);
  limitsCell.title = limits.shared ? '' : 'Redis does not answer: each instance limits on its own';

  const anomalies = now.seqAnomalies;
  const seen = anomalies.seen || {};
  const anomalyCell = figure('seq-anomalies');
  anomalyCell.textContent = `${fmt(seen.gap || 0)} / ${fmt(seen.repeat || 0)}`;
  anomalyCell.classList.toggle('bad', (seen.gap || 0) + (seen.repeat || 0) > 0 || (anomalies.recorded || 0) > 0);
  $('#anomalies-summary').textContent = anomalies.recorded === null || anomalies.recorded === undefined ? ''
    : `${fmt(anomalies.recorded)} gaps recorded in seq_anomalies (the latest below); seen by this instance since it started: `
      + `${fmt(seen.gap || 0)} gaps, ${fmt(seen.repeat || 0)} repeats.`;
  rows($('#anomalies tbody'), anomalies.latest || [], (a) => [time(a.observedAtMillis), a.convId, a.expectedSeq, a.actualSeq, a.msgId],
    'none recorded');

  const letters = now.deadLetters;
  if (letters) {
    const cell = figure('dead-letters');
    cell.textContent = fmt(letters.total) + (letters.caughtUp ? '' : ' (reading…)');
    rows($('#dead-letters tbody'), Object.entries(letters.byReason), ([reason, count]) => [reason, count], 'none');
    rows($('#dead-letters-latest tbody'), letters.latest, (d) => [time(d.timestamp), d.reason, d.source, d.key], 'none');
  }
  const status = $('#status');
  status.textContent = `updated ${time(now.time)}` + (now.monitorProblem ? ` · ${now.monitorProblem}` : '');
  status.classList.toggle('problem', Boolean(now.monitorProblem));
}

async function poll() {
  try {
    const now = await getJson('/ops/api/live');
    samples.push(now);
    while (samples.length && now.time - samples[0].time > KEEP_MS) samples.shift();
    render(now);
  } catch (error) {
    const status = $('#status');
    status.textContent = `cannot reach the server: ${error.message}`;
    status.classList.add('problem');
  }
}

async function pollDelivery() {
  try {
    const figures = await getJson('/ops/api/delivery?days=7');
    const pct = (rate) => (rate === null || rate === undefined ? '–' : `${fmt(rate * 100, 2)} %`);
    rows($('#delivery tbody'), figures.days, (d) => [d.from, d.sends, d.delivered, pct(d.deliveryRate), pct(d.onTimeRate),
      d.latencyMs.p50, d.latencyMs.p90, d.latencyMs.p99,
      Object.entries(d.cases).map(([cause, n]) => `${cause} ${n}`).join(', ')], 'no days');
    const causes = $('#causes');
    if (!causes.childElementCount) {
      ['all', 'render_failed', 'clock_skew', 'slow_send', 'slow_delivery'].forEach((cause) => {
        const button = document.createElement('button');
        button.type = 'button';
        button.textContent = cause;
        button.dataset.cause = cause;
        button.addEventListener('click', () => loadCases(cause === 'all' ? null : cause, true));
        causes.append(button);
      });
      loadCases(null, true);
    }
  } catch (error) {
    // the live poll reports the server's state
  }
}

async function loadCases(cause, fresh) {
  if (fresh) {
    casesCause = cause;
    casesNext = 0;
    $('#cases tbody').replaceChildren();
    document.querySelectorAll('#causes button').forEach((b) => b.setAttribute('aria-pressed',
      String(b.dataset.cause === (cause || 'all'))));
  }
  const query = new URLSearchParams({ limit: '50', offset: String(casesNext) });
  if (casesCause) query.set('cause', casesCause);
  const page = await getJson(`/ops/api/delivery/cases?${query}`);
  const tbody = $('#cases tbody');
  if (fresh && !page.cases.length) rows(tbody, [], () => [], 'no cases');
  page.cases.forEach((c) => {
    const tr = tbody.insertRow();
    [time(c.createTime), c.cause, c.convId, c.seq, `${c.userId} / ${c.deviceId}`, c.latencyMillis, c.detail]
      .forEach((value) => { tr.insertCell().textContent = value === null || value === undefined ? '' : String(value); });
  });
  casesNext = page.next;
  $('#more-cases').hidden = page.next === null || page.next === undefined;
}

function start() {
  chart('chart-sends', [{ label: 'sends/s' }, { label: '200/s' }, { label: '202/s' }, { label: 'refused/s' }]);
  chart('chart-send-latency', [{ label: 'p50 ms' }, { label: 'p99 ms' }]);
  chart('chart-push-connections', [{ label: 'connections' }]);
  chart('chart-push-latency', [{ label: 'p50 ms' }, { label: 'p99 ms' }]);
  chart('chart-sequencer', [{ label: 'commands behind' }, { label: 'members', scale: 'members' }], {
    scales: { members: { range: (u, min, max) => [0, Math.max(2, max + 1)] } },
    axes: [{}, { size: 60 }, { side: 1, scale: 'members', grid: { show: false } }],
  });
  $('#more-cases').addEventListener('click', () => loadCases(casesCause, false));
  $('#sign-out').addEventListener('click', async () => {
    await fetch('/ops/session', { method: 'DELETE', credentials: 'same-origin' });
    window.location.assign('/ops/');
  });
  window.addEventListener('resize', () => Object.values(charts).forEach((c) => {
    c.plot.setSize({ width: Math.max(300, c.element.clientWidth), height: 200 });
  }));
  poll();
  pollDelivery();
  setInterval(poll, POLL_MS);
  setInterval(pollDelivery, 30_000);
}

document.addEventListener('DOMContentLoaded', start);
