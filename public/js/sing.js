// Singer view: centred scrolling lyrics, note lane with live pitch, ratings, score, progress.
import { RoomConnection, pageParams, formatTime, formatKey, bindStatus, bindLoading } from './connection.js';
import { LyricsView } from './lyrics.js';
import { NoteLane, SINGER_COLOURS } from './notes.js';
import { ScoreScreen } from './scorescreen.js';
import { BackgroundVideo } from './background-video.js';
import { BackgroundImage } from './background-image.js';
import { CDGView } from './cdg-view.js';

const $ = (id) => document.getElementById(id);
const params = pageParams();
const part = Number(params.get('part') || 0);
const connection = new RoomConnection({ role: params.get('role') || 'display', pin: params.get('pin') });
window.karaoke = connection; // for the browser console and tests
const lyrics = new LyricsView($('lyrics'));
// A duet shows both parts' lyrics, part 1 above part 2, unless the page is opened for one part (`?part=`).
const partTwo = new LyricsView($('lyrics2'));
const lane = new NoteLane($('notes'));
const totals = new Map();
const scoreScreen = new ScoreScreen($('score-screen'));

function showSong() {
  const song = connection.song;
  $('title').textContent = song ? song.title : 'Waiting for a song…';
  $('artist').textContent = song ? song.artist : '';
  document.body.classList.toggle('no-notes', !song || !song.hasNotes);
  const duet = isDuet(song);
  lyrics.setSong(song, duet ? 0 : part);
  partTwo.setSong(duet ? song : null, 1);
  $('part-2-box').hidden = !duet;
  $('part-label-0').hidden = !duet;
  document.body.classList.toggle('duet', duet);
  showPartLabels();
  lane.clearTrails();
  totals.clear();
  renderScores();
  // A new song starts the verdicts' places afresh (its singers may be others).
  $('popups').replaceChildren();
  $('popups').style.removeProperty('--slots');
}

function isDuet(song) { return !!song && song.parts.length > 1 && !params.has('part'); }

// "Ann & Bo · Morning Voice": who sings each part, from the seats, then the part's name.
function showPartLabels() {
  const song = connection.song;
  if (!isDuet(song)) return;
  const seats = connection.state?.singers || [];
  for (const index of [0, 1]) {
    const names = seats.filter((s) => s.part === index).map((s) => s.name);
    const name = song.parts[index]?.name || `Part ${index + 1}`;
    const text = names.length ? `${names.join(' & ')} · ${name}` : name;
    const label = $(`part-label-${index}`);
    if (label.textContent !== text) label.textContent = text;
  }
}

function renderScores() {
  const container = $('scores');
  container.replaceChildren();
  for (const [singer, total] of [...totals].sort((a, b) => a[0] - b[0])) {
    const badge = document.createElement('div');
    badge.className = 'score';
    badge.style.setProperty('--colour', SINGER_COLOURS[singer % SINGER_COLOURS.length]);
    badge.innerHTML = '<span class="name"></span><span class="points"></span>';
    badge.querySelector('.name').textContent = total.name;
    badge.querySelector('.points').textContent = Math.round(total.score).toLocaleString();
    container.append(badge);
  }
}

function showState() {
  const state = connection.state;
  if (!state) return;
  $('duration').textContent = formatTime(state.duration);
  $('key').textContent = `key ${formatKey(state.key)}`;
  $('tempo').textContent = `${Math.round(state.tempo * 100)}%`;
  document.body.dataset.transport = state.transport;
  for (const view of [lyrics, partTwo]) view.setCompanions(LyricsView.companionsFor(params, state));
  showPartLabels();
  const band = $('loop-band');
  band.hidden = !state.loop || !state.duration;
  if (state.loop && state.duration) {
    band.style.left = `${(state.loop.start / state.duration) * 100}%`;
    band.style.width = `${((state.loop.end - state.loop.start) / state.duration) * 100}%`;
  }
}

function popup(score) {
  // A page opened for one part of a duet rates that part only.
  if (params.has('part') && score.part !== part && connection.song?.parts.length > 1) return;
  // A line with nothing to judge (freestyle) gets no verdict.
  if (score.rating === 'none' || !(score.maxScore > 0)) return;
  const element = document.createElement('div');
  element.className = `popup rating-${score.rating}`;
  element.style.setProperty('--colour', SINGER_COLOURS[score.singer % SINGER_COLOURS.length]);
  const slots = $('popups');
  const slot = popupSlot(slots, score.singer);
  // Several singers: each verdict in its own place, under the name its total carries.
  if (slots.children.length > 1 || totals.size > 1 || (connection.state?.singers?.length || 0) > 1) {
    const name = document.createElement('small');
    name.textContent = totals.get(score.singer)?.name
      || connection.state?.singers?.find((s) => s.singer === score.singer)?.name || `Singer ${score.singer + 1}`;
    element.append(name);
  }
  element.append(score.rating.charAt(0).toUpperCase() + score.rating.slice(1) + '!');
  slot.append(element);
  setTimeout(() => element.remove(), 1800);
}

// One place per singer across the lane, kept for the song (in singer order), so two singers'
// verdicts at the same moment stand side by side instead of on top of each other.
function popupSlot(slots, singer) {
  let slot = [...slots.children].find((child) => Number(child.dataset.singer) === singer);
  if (!slot) {
    slot = document.createElement('div');
    slot.className = 'popup-slot';
    slot.dataset.singer = String(singer);
    const after = [...slots.children].find((child) => Number(child.dataset.singer) > singer);
    slots.insertBefore(slot, after || null);
    slots.style.setProperty('--slots', String(slots.children.length));
  }
  return slot;
}

connection
  .on('hello', () => { showSong(); showState(); })
  .on('song', showSong)
  .on('state', showState)
  .on('pitch', (frame) => lane.addPitch(frame))
  .on('lineScore', popup)
  .on('total', (total) => { totals.set(total.singer, total); renderScores(); })
  .on('results', (results) => { scoreScreen.show(results, connection.songById(results.songId), connection.state?.singers); })
  .on('device', (event) => {
    const banner = $('device');
    banner.textContent = event.message;
    banner.hidden = false;
    clearTimeout(banner.timer);
    if (event.status === 'back') banner.timer = setTimeout(() => { banner.hidden = true; }, 4000);
  });
bindStatus(connection, $('status'));
bindLoading(connection, $('loading'));

const shown = { elapsed: '', width: '' };
function frame() {
  const t = connection.position();
  scoreScreen.update(connection);
  lyrics.update(t);
  if (isDuet(connection.song)) partTwo.update(t);
  const song = connection.song;
  const key = connection.state?.key || 0;
  const focused = (index) => {
    const lines = song?.parts[index]?.lines || [];
    return lines.length ? lines[LyricsView.focusIndex(lines, t)] : null;
  };
  if (song && song.parts.length > 1 && !params.has('part')) {
    // A duet: one lane per part, each with the trails of the singers seated on it.
    // A singer without a seat sings the part of their number, as the live session scores them.
    const seats = connection.state?.singers || [];
    const partOf = (singer) => seats.find((s) => s.singer === singer)?.part ?? Math.min(singer, song.parts.length - 1);
    lane.drawLanes(song.parts.map((_, index) => ({ line: focused(index), singers: (singer) => partOf(singer) === index })), t, key);
  } else {
    lane.draw(focused(lyrics.part), t, key);
  }
  const duration = connection.state?.duration || 0;
  // Touch the DOM only when what it shows changes (each write costs a style pass).
  const elapsed = formatTime(t);
  if (elapsed !== shown.elapsed) $('elapsed').textContent = shown.elapsed = elapsed;
  const width = duration ? `${Math.min(100, (t / duration) * 100).toFixed(1)}%` : '0%';
  if (width !== shown.width) $('progress-fill').style.width = shown.width = width;
  requestAnimationFrame(frame);
}

window.backgroundVideo = new BackgroundVideo(connection).start();
window.backgroundImage = new BackgroundImage(connection).start();
window.cdgView = new CDGView(connection, { parent: document.querySelector('.stage') }).start();
connection.connect();
requestAnimationFrame(frame);
