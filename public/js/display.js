// Display (TV/projector), the party frame. Between songs: the join screen (QR code and address
// of the remote, what comes next, a countdown to the first line once the host starts it).
// During a song: big lyrics, both parts of a duet, singer names and live scores in a corner.
// After it: the score screen. Read-only: it never sends a command.
import { RoomConnection, pageParams, bindStatus, bindLoading, fingerprintStart } from './connection.js';
import { LyricsView } from './lyrics.js';
import { SINGER_COLOURS } from './notes.js';
import { ScoreScreen } from './scorescreen.js';
import { BackgroundVideo } from './background-video.js';
import { BackgroundImage } from './background-image.js';
import { CDGView } from './cdg-view.js';

const $ = (id) => document.getElementById(id);
const params = pageParams();
const connection = new RoomConnection({ role: 'display' });
window.karaoke = connection; // for the browser console and tests
const views = [new LyricsView($('lyrics')), new LyricsView($('lyrics2'))];
const scoreScreen = new ScoreScreen($('score-screen'));
const totals = new Map();
// Large print (50–250 %): the host's "TV text size" (state.displayScale) for every display, or
// this display's own `#scale=150`. A sync offset for a TV whose picture lags: `#offset=120` (ms;
// per display, as each TV lags its own way; the fragment, as lws drops query strings on redirects).
const ownScale = params.has('scale') ? Math.min(250, Math.max(50, Number(params.get('scale')) || 100)) : null;
const offset = (Number(params.get('offset')) || 0) / 1000;
function applyScale(percent) {
  const scale = ownScale ?? Math.min(250, Math.max(50, Number(percent) || 100));
  document.documentElement.style.setProperty('--print-scale', String(scale / 100));
}
applyScale(null);

// A room with its own (self-signed) certificate: phones warn once that the connection is not
// private. The join screen says so before anyone scans, and what to compare: the first groups of
// the SHA-256 fingerprint their browser shows under the certificate's details.
function showCertificate() {
  const box = $('join-certificate');
  const certificate = connection.certificate;
  box.hidden = !certificate?.selfSigned;
  if (box.hidden) return;
  const start = fingerprintStart(certificate);
  box.replaceChildren(
    'Your phone may warn that the connection is not private: this room made its own certificate. '
      + 'It is this room if the certificate\'s SHA-256 fingerprint starts with ',
    Object.assign(document.createElement('span'), { className: 'fingerprint', textContent: start }),
    ' — then continue to the site.');
}

fetch('/join.txt').then((r) => (r.ok ? r.text() : '')).then((text) => {
  $('join-url').textContent = text.trim() || `${location.origin}/remote`;
}).catch(() => { $('join-url').textContent = `${location.origin}/remote`; });

function isDuet(song) { return !!song && song.parts.length > 1; }

function partLabel(index) {
  const song = connection.song;
  const names = (connection.state?.singers || []).filter((s) => s.part === index).map((s) => s.name);
  const part = song?.parts[index]?.name || `Part ${index + 1}`;
  return names.length ? `${names.join(' & ')} · ${part}` : part;
}

function showSong() {
  const song = connection.song;
  $('title').textContent = song ? song.title : 'Karaoke';
  $('artist').textContent = song ? song.artist : 'waiting for a song';
  const duet = isDuet(song);
  const single = Math.min(Number(params.get('part') || 0), song ? song.parts.length - 1 : 0);
  views[0].setSong(song, duet ? 0 : single);
  views[1].setSong(duet ? song : null, 1);
  $('part-2-box').hidden = !duet;
  $('part-label-0').hidden = !duet;
  document.body.classList.toggle('duet', duet);
  totals.clear();
  showLabels();
  showScores();
  $('now-title').textContent = connection.song?.title || '';
  $('now-artist').textContent = connection.song?.artist || '';
}

function showLabels() {
  if (!isDuet(connection.song)) return;
  $('part-label-0').textContent = partLabel(0);
  $('part-label-1').textContent = partLabel(1);
}

function showScores() {
  const corner = $('score-corner');
  corner.replaceChildren();
  for (const [singer, total] of [...totals].sort((a, b) => a[0] - b[0])) {
    const badge = document.createElement('div');
    badge.className = 'score';
    badge.style.setProperty('--colour', SINGER_COLOURS[singer % SINGER_COLOURS.length]);
    badge.innerHTML = '<span class="name"></span><span class="points"></span>';
    badge.querySelector('.name').textContent = total.name;
    badge.querySelector('.points').textContent = Math.round(total.score).toLocaleString('en-US');
    corner.append(badge);
  }
}

function showUpNext() {
  const box = $('up-next');
  box.replaceChildren();
  const song = connection.song, state = connection.state;
  // A loaded song the room has not started is what comes next: the heading names it.
  const loadedNext = !!(song && state && state.transport !== 'playing' && state.position < 0.5);
  $('heading-label').hidden = !loadedNext;
  const items = state?.queue || [];
  if (!items.length) {
    const p = document.createElement('p');
    p.className = 'up-next-empty';
    p.textContent = loadedNext ? 'Queue a song to sing after this one.' : 'Nothing queued yet — be the first!';
    box.append(p);
    return;
  }
  const heading = document.createElement('h2');
  heading.textContent = loadedNext ? 'After that' : 'Up next';
  box.append(heading);
  const list = document.createElement('ol');
  for (const item of items.slice(0, 4)) {
    const entry = document.createElement('li');
    entry.innerHTML = '<span class="song"></span><span class="by"></span>';
    entry.querySelector('.song').textContent = item.title;
    entry.querySelector('.by').textContent = item.requestedBy ? ` — requested by ${item.requestedBy}` : item.artist ? ` — ${item.artist}` : '';
    list.append(entry);
  }
  box.append(list);
}

connection
  .on('hello', () => { showSong(); showUpNext(); showCertificate(); })
  .on('song', () => { showSong(); showUpNext(); })
  .on('state', (state) => {
    // The server's wait before the next song: its end on this page's clock.
    intermissionEnds = state.intermission ? performance.now() / 1000 + state.intermission.endsIn : null;
    intermissionHeldBy = state.intermission?.heldBy ?? null;
    applyScale(state.displayScale);
    for (const view of views) view.setCompanions(LyricsView.companionsFor(params, state));
    showLabels(); showUpNext();
  })
  .on('queue', showUpNext)
  .on('total', (total) => { totals.set(total.singer, total); showScores(); })
  .on('results', (results) => { scoreScreen.show(results, connection.songById(results.songId), connection.state?.singers); });
bindStatus(connection, $('status'));
bindLoading(connection, $('loading'));

// Between songs: nothing loaded, or the loaded song not started (or over) and not playing.
function betweenSongs(t) {
  const song = connection.song, state = connection.state;
  if (!song || !state) return true;
  if (state.transport === 'playing' || state.loading) return false;
  return t < 0.5 || (state.duration > 0 && t >= state.duration - 0.5);
}

function firstLineStart(song) {
  return song ? Math.min(...song.parts.map((p) => p.lines[0]?.start ?? Infinity)) : Infinity;
}

let lastCountdown = null;
let intermissionEnds = null;
let intermissionHeldBy = null; // why the next song waits past its countdown (a calibration)
function frame() {
  const t = connection.position() - offset;
  scoreScreen.update(connection);
  const between = betweenSongs(t) && !scoreScreen.visible;
  $('join-screen').hidden = !between;
  document.body.classList.toggle('between-songs', between);
  for (const view of views) view.update(t);
  const state = connection.state;
  const song = connection.song;
  const first = firstLineStart(song);
  // The title shows until the first line is near (and never over the lyrics afterwards).
  const faded = !between && !!song && !state?.loading && t > first - 2;
  $('heading').classList.toggle('faded', faded);
  // Once the big heading has gone, the sofa bar names the song (never both at once).
  $('now-playing').classList.toggle('shown', faded);
  // Once the host starts a song, the seconds to its first line.
  // Between songs, the room's pause before it starts the next one; then the seconds to its first line.
  const left = intermissionEnds === null ? 0 : Math.max(0, Math.ceil(intermissionEnds - performance.now() / 1000));
  const waiting = intermissionEnds !== null && connection.online !== false
    ? (intermissionHeldBy ? `Next song ${left > 0 ? `in ${left} s` : 'waits'}:\n${intermissionHeldBy}` : `Next song in ${left} s`)
    : null;
  const countdown = waiting ?? (connection.playing && t < first ? `Singing starts in ${Math.ceil(first - t)} s` : null);
  if (countdown !== lastCountdown) {
    lastCountdown = countdown;
    $('countdown').hidden = countdown === null;
    $('countdown').textContent = countdown ?? '';
    $('countdown').classList.toggle('between', waiting !== null);
    $('countdown').classList.toggle('held', waiting !== null && !!intermissionHeldBy);
  }
  $('progress-fill').style.width = state?.duration ? `${Math.min(100, (t / state.duration) * 100)}%` : '0%';
  requestAnimationFrame(frame);
}

// The picture lags like the lyrics do (the offset setting).
window.backgroundVideo = new BackgroundVideo(connection, { offset: -offset }).start();
window.backgroundImage = new BackgroundImage(connection).start();
window.cdgView = new CDGView(connection, { offset: -offset }).start();
connection.connect();
requestAnimationFrame(frame);
