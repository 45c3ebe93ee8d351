// Results: this song's per-line scores as they come in and its totals, the song's leaderboard,
// and the stored runs of every song, one entry per run, full runs apart from practice ones.
// From a song's end until the next song starts playing, "this song" is the song just sung (its
// final results), not the next one already loaded.
import { RoomConnection, bindStatus, formatKey } from './connection.js';
import { SINGER_COLOURS } from './notes.js';

const $ = (id) => document.getElementById(id);
const connection = new RoomConnection({ role: 'display' });
window.karaoke = connection; // for the browser console and tests
const totals = new Map();
// The song just sung and its end-of-song results, shown until a song starts playing.
let finished = null;
const RATING_WORDS = { perfect: 'Perfect', great: 'Great', good: 'Good', ok: 'OK', poor: 'Poor', none: 'not judged' };

function singerName(index) {
  return connection.state?.singers.find((s) => s.singer === index)?.name || `Singer ${index + 1}`;
}

const shownSong = () => (finished ? finished.song : connection.song);
const shownLines = () => (finished ? finished.results.lines : connection.results);

function lineText(score) {
  return shownSong()?.parts[score.part]?.lines[score.line]?.text || '';
}

function songTitle(songId, fallback) {
  // The library is no longer sent in `hello`: titles come with the rows, else the song shown.
  return fallback || (connection.song?.id === songId ? connection.song.title : null) || songId;
}

function showSong() {
  const song = shownSong();
  $('title').textContent = song ? `Results — ${song.title}` : 'Results';
  const next = finished && connection.song && connection.song.id !== song?.id ? ` · next: ${connection.song.title}` : '';
  $('artist').textContent = (song?.artist || '') + next;
  totals.clear();
  if (finished) for (const total of finished.results.totals) totals.set(total.singer, total);
  showLines();
  showTotals();
}

// A song's end-of-song results keep the page on that song.
function keepFinished(results) {
  if (!results.ended) return;
  finished = { song: connection.songById(results.songId) || { id: results.songId, title: results.songId, parts: [] }, results };
  showSong();
}

// Playing again (the next song, or this one once more) brings the page back to the live song.
function leaveFinished() {
  if (finished && connection.state?.transport === 'playing') {
    finished = null;
    showSong();
  }
}

function showLines() {
  const body = $('lines');
  body.replaceChildren();
  // One row per singer and line: a line sung again (after a seek back) shows its latest score.
  const latest = new Map();
  for (const score of shownLines()) latest.set(`${score.singer}/${score.part}/${score.line}`, score);
  const rows = [...latest.values()].sort((a, b) => a.line - b.line || a.singer - b.singer);
  for (const score of rows) {
    const row = document.createElement('tr');
    row.className = `rating-${score.rating}`;
    const judged = score.maxScore > 0 && score.rating !== 'none';
    const percent = judged ? Math.round((score.score / score.maxScore) * 100) : 0;
    const cells = [score.line + 1, lineText(score), singerName(score.singer),
      judged ? `${Math.round(score.score)} (${percent} %)` : '—', RATING_WORDS[score.rating] || score.rating];
    cells.forEach((text, index) => {
      const cell = document.createElement('td');
      cell.textContent = text;
      if (index === 0 || index === 3) cell.className = 'num';
      row.append(cell);
    });
    row.children[2].style.color = SINGER_COLOURS[score.singer % SINGER_COLOURS.length];
    body.append(row);
  }
  if (!rows.length) {
    const row = document.createElement('tr');
    const cell = document.createElement('td');
    cell.colSpan = 5;
    cell.className = 'muted';
    cell.textContent = 'Line scores appear here while the song is sung.';
    row.append(cell);
    body.append(row);
  }
}

function showTotals() {
  const container = $('totals');
  container.replaceChildren();
  for (const [singer, total] of [...totals].sort((a, b) => b[1].score - a[1].score)) {
    const badge = document.createElement('div');
    badge.className = 'score big';
    badge.style.setProperty('--colour', SINGER_COLOURS[singer % SINGER_COLOURS.length]);
    badge.innerHTML = '<span class="name"></span><span class="points"></span>';
    badge.querySelector('.name').textContent = total.name + (total.final ? ' · final' : '');
    badge.querySelector('.points').textContent = Math.round(total.score).toLocaleString('en-US');
    container.append(badge);
  }
  if (!totals.size) {
    const p = document.createElement('p');
    p.className = 'muted';
    p.textContent = 'No scores yet';
    container.append(p);
  }
}

const when = (iso) => {
  const date = new Date(iso);
  // To the second: two runs a minute apart (a retry) are told apart.
  return `${date.toLocaleDateString(undefined, { day: 'numeric', month: 'short' })} ${date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' })}`;
};

function runItem(run) {
  const item = document.createElement('li');
  item.className = `run status-${run.status}`;
  item.innerHTML = '<div class="text"><strong></strong><span class="who"></span><small></small></div><span class="points"></span>';
  item.querySelector('strong').textContent = songTitle(run.songId, run.songTitle);
  item.querySelector('.who').textContent = `${run.singer} · ${when(run.startedAt)}`;
  const settings = [run.mode === 'practice' ? 'practice mode' : 'UltraStar', run.difficulty,
    `key ${formatKey(run.key)}`, `tempo ${Math.round(run.tempo * 100)} %`];
  if (run.status === 'interrupted') settings.push('a microphone was lost');
  if (run.status === 'in-progress') settings.push('not sung to the end');
  item.querySelector('small').textContent = settings.join(' · ');
  item.querySelector('.points').textContent = Math.round(run.total).toLocaleString('en-US');
  return item;
}

function showRuns(runs) {
  const full = runs.filter((r) => r.status !== 'in-progress' && r.mode !== 'practice');
  const practice = runs.filter((r) => !full.includes(r));
  for (const [id, list, empty] of [['full-runs', full, 'No finished runs yet'], ['practice-runs', practice, 'None']]) {
    const element = $(id);
    element.replaceChildren(...list.map(runItem));
    if (!list.length) {
      const item = document.createElement('li');
      item.className = 'muted';
      item.textContent = empty;
      element.append(item);
    }
  }
}

function showResults(results) {
  keepFinished(results);
  // While the song just sung is shown, another song's answer only brings the runs up to date.
  if (finished && results.songId !== finished.results.songId) {
    if (results.runs) showRuns(results.runs);
    return;
  }
  for (const total of results.totals) totals.set(total.singer, total);
  showTotals();
  const list = $('leaderboard');
  list.replaceChildren();
  for (const entry of results.leaderboard) {
    const item = document.createElement('li');
    item.innerHTML = '<div class="text"><strong></strong><small></small></div><span class="points"></span>';
    item.querySelector('strong').textContent = entry.singer;
    item.querySelector('small').textContent = `${songTitle(entry.songId, entry.songTitle)} · ${when(entry.date)}`;
    item.querySelector('.points').textContent = Math.round(entry.score).toLocaleString('en-US');
    list.append(item);
  }
  if (!results.leaderboard.length) {
    const item = document.createElement('li');
    item.className = results.storedUnreadable ? 'muted unreadable' : 'muted';
    // An unreadable database is not an empty one: say which it is.
    item.textContent = results.storedUnreadable || 'No saved results yet';
    list.append(item);
  }
  if (results.runs) showRuns(results.runs);
  if (results.storedUnreadable) {
    for (const id of ['full-runs', 'practice-runs']) {
      const item = document.createElement('li');
      item.className = 'muted unreadable';
      item.textContent = results.storedUnreadable;
      $(id).replaceChildren(item);
    }
  }
}

connection
  .on('hello', () => { showSong(); connection.send('results'); })
  .on('song', showSong)
  .on('state', leaveFinished)
  .on('lineScore', () => { if (!finished) showLines(); })
  .on('total', (total) => { if (!finished) { totals.set(total.singer, total); showTotals(); } })
  .on('results', showResults);
bindStatus(connection, $('status'));
connection.connect();
