// Results: this song's per-line scores as they come in, totals, and the saved leaderboard.
import { RoomConnection, bindStatus } from './connection.js';
import { SINGER_COLOURS } from './notes.js';

const $ = (id) => document.getElementById(id);
const connection = new RoomConnection({ role: 'display' });
window.karaoke = connection; // for the browser console and tests
const totals = new Map();

function singerName(index) {
  return connection.state?.singers.find((s) => s.singer === index)?.name || `Singer ${index + 1}`;
}

function lineText(score) {
  return connection.song?.parts[score.part]?.lines[score.line]?.text || '';
}

function showSong() {
  $('title').textContent = connection.song ? `Results — ${connection.song.title}` : 'Results';
  $('artist').textContent = connection.song?.artist || '';
  totals.clear();
  showLines();
  showTotals();
}

function showLines() {
  const body = $('lines');
  body.replaceChildren();
  for (const score of connection.results) {
    const row = document.createElement('tr');
    row.className = `rating-${score.rating}`;
    const percent = score.maxScore > 0 ? Math.round((score.score / score.maxScore) * 100) : 0;
    for (const text of [score.line + 1, lineText(score), singerName(score.singer), `${Math.round(score.score)} (${percent}%)`, score.rating]) {
      const cell = document.createElement('td');
      cell.textContent = text;
      row.append(cell);
    }
    row.children[2].style.color = SINGER_COLOURS[score.singer % SINGER_COLOURS.length];
    body.append(row);
  }
  if (!connection.results.length) {
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
    badge.querySelector('.points').textContent = Math.round(total.score).toLocaleString();
    container.append(badge);
  }
  if (!totals.size) {
    const p = document.createElement('p');
    p.className = 'muted';
    p.textContent = 'No scores yet';
    container.append(p);
  }
}

function showResults(results) {
  for (const total of results.totals) totals.set(total.singer, total);
  showTotals();
  const list = $('leaderboard');
  list.replaceChildren();
  for (const entry of results.leaderboard) {
    const item = document.createElement('li');
    item.innerHTML = '<div class="text"><strong></strong><small></small></div><span class="points"></span>';
    item.querySelector('strong').textContent = entry.singer;
    item.querySelector('small').textContent = `${entry.songId} · ${entry.date.slice(0, 10)}`;
    item.querySelector('.points').textContent = Math.round(entry.score).toLocaleString();
    list.append(item);
  }
  if (!results.leaderboard.length) {
    const item = document.createElement('li');
    item.className = 'muted';
    item.textContent = 'No saved results yet';
    list.append(item);
  }
}

connection
  .on('hello', () => { showSong(); connection.send('results'); })
  .on('song', showSong)
  .on('lineScore', showLines)
  .on('total', (total) => { totals.set(total.singer, total); showTotals(); })
  .on('results', showResults);
bindStatus(connection, $('status'));
connection.connect();
