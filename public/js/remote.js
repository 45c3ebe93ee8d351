// Phone remote: song search and queue for everyone; transport, seek, key, tempo, loop,
// difficulty, mic delay and mic monitoring for the host (after entering the room PIN).
import { RoomConnection, pageParams, formatTime, formatKey, bindStatus, bindLoading } from './connection.js';
import { LyricsView } from './lyrics.js';

const $ = (id) => document.getElementById(id);
const params = pageParams();
// The host's session token (from the server after the right PIN) is kept with its expiry, so a
// reload or a reconnect takes the host role again without the PIN.
function savedToken() {
  try {
    const saved = JSON.parse(localStorage.getItem('karaoke.hostToken') || 'null');
    if (saved && saved.token && saved.expires > Date.now()) return saved.token;
  } catch { /* unreadable: forget it */ }
  localStorage.removeItem('karaoke.hostToken');
  return null;
}
const savedPin = params.get('pin') || sessionStorage.getItem('karaoke.pin');
const hostToken = savedPin ? null : savedToken();
const savedName = localStorage.getItem('karaoke.name') || '';
const connection = new RoomConnection({
  role: savedPin || hostToken ? 'host' : 'guest', pin: savedPin, token: hostToken, name: savedName || null,
});
// The PIN leaves the address bar once read (it stays out of the history and shared links).
if (params.get('pin')) history.replaceState(null, '', location.pathname);
window.karaoke = connection; // for the browser console and tests
const isHost = () => connection.role === 'host';
let seeking = false;
let loopA = null;

const lyrics = new LyricsView($('lyrics'), {
  onTap: (index) => { if (isHost()) connection.send('seekLine', { part: lyrics.part, line: index }); },
});
lyrics.enableScrollToSeek((index) => {
  if (isHost()) connection.send('seekLine', { part: lyrics.part, line: index });
  else lyrics.centre(lyrics.focus);
});
$('name-input').value = savedName;

function toast(text) {
  const element = $('toast');
  element.textContent = text;
  element.classList.add('show');
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => element.classList.remove('show'), 2600);
}

function showRole() {
  $('role').textContent = connection.role;
  document.body.classList.toggle('is-host', isHost());
  $('unlock').hidden = isHost();
}

function showSong() {
  const song = connection.song;
  $('title').textContent = song ? song.title : 'No song';
  $('artist').textContent = song ? song.artist : '';
  lyrics.setSong(song, 0);
}

function showState() {
  const state = connection.state;
  if (!state) return;
  $('duration').textContent = formatTime(state.duration);
  $('seek').max = state.duration || 0;
  $('key-value').textContent = formatKey(state.key);
  $('key-value').dataset.key = state.key;
  $('tempo-value').textContent = `${Math.round(state.tempo * 100)}%`;
  // While the song loads, a pending start (`playWhenLoaded`) shows as pause: pressing it cancels.
  const going = state.transport === 'playing' || (state.loading && state.playWhenLoaded);
  $('play').classList.toggle('playing', going);
  $('play').classList.toggle('pending', !!(state.loading && state.playWhenLoaded));
  $('play').setAttribute('aria-label', going ? 'pause' : 'play');
  $('loop-value').textContent = state.loop ? `${formatTime(state.loop.start)}–${formatTime(state.loop.end)}`
    : loopA != null ? `A ${formatTime(loopA)}…` : 'off';
  $('difficulty').value = state.difficulty;
  showSingers(state.singers);
  showMicFigures(state);
  showQueue(state.queue);
}

// Measured figures change all the time; they are updated in place (showMicFigures), so a
// reading never rebuilds the controls under the host's fingers.
const measuredFields = ({ inputLatencyMs, effectiveMicDelayMs, micDelaySource, ...seat }) => seat;

function showSingers(singers) {
  const container = $('singers');
  const key = JSON.stringify([singers.map(measuredFields), connection.song?.parts.length || 0]);
  if (container.dataset.rendered === key) return;
  container.dataset.rendered = key;
  container.replaceChildren();
  for (const singer of singers) {
    const row = document.createElement('div');
    row.className = 'control';
    const label = document.createElement('input');
    label.className = 'label singer-name';
    label.value = singer.name;
    label.maxLength = 40;
    label.setAttribute('aria-label', `name of singer ${singer.singer + 1}`);
    label.addEventListener('change', () => connection.send('selectSinger', { singer: singer.singer, part: singer.part, name: label.value }));
    const parts = connection.song?.parts || [];
    const part = document.createElement('select');
    part.setAttribute('aria-label', `part sung by ${singer.name}`);
    (parts.length > 1 ? parts : [{ name: 'Solo' }]).forEach((p, index) => {
      const option = document.createElement('option');
      option.value = index;
      option.textContent = p.name;
      part.append(option);
    });
    part.value = Math.min(singer.part, Math.max(0, parts.length - 1));
    part.disabled = parts.length < 2;
    part.addEventListener('change', () => connection.send('selectSinger', { singer: singer.singer, part: Number(part.value) }));
    const input = document.createElement('input');
    input.type = 'number'; input.min = 0; input.max = 1000; input.step = 5;
    // 0 means "not set here": the field stays empty and shows the delay in use (showMicFigures).
    input.value = singer.micDelayMs || '';
    input.id = `mic-delay-${singer.singer}`;
    input.setAttribute('aria-label', `${singer.name} microphone delay in milliseconds`);
    input.addEventListener('change', () => connection.send('micDelay', { singer: singer.singer, ms: Number(input.value) }));
    const unit = document.createElement('span');
    unit.className = 'value small';
    unit.textContent = 'ms';
    const calibrate = document.createElement('button');
    calibrate.id = `calibrate-${singer.singer}`;
    calibrate.className = 'secondary';
    calibrate.textContent = 'Calibrate';
    calibrate.title = 'play test clicks and time their arrival at this microphone';
    calibrate.setAttribute('aria-label', `${singer.name}: calibrate microphone delay`);
    calibrate.addEventListener('click', () => {
      connection.send('calibrate', { singer: singer.singer });
      toast(`Calibrating ${singer.name}'s microphone: test clicks for a few seconds`);
    });
    row.append(label, part, input, unit, calibrate);
    // Only singers with a microphone the server can monitor carry `monitor`.
    if (typeof singer.monitor === 'boolean') row.append(monitorSwitch(singer));
    const figures = document.createElement('div');
    figures.className = 'mic-figures';
    figures.id = `mic-figures-${singer.singer}`;
    figures.title = 'Output: measured output latency. Mic: this microphone\'s measured input latency. '
      + 'Mic delay: what scoring subtracts (room setting, calibration, or the server\'s default).';
    row.append(figures);
    container.append(row);
  }
}

// "Hear myself": the pressed state is the server's; a click asks for the opposite. Two singers
// on one stereo microphone share its monitor, so both switches move together. While the
// microphone (or the speakers) is gone the switch stays on and says so; the server brings the
// sound back by itself when the device returns.
function monitorSwitch(singer) {
  const button = document.createElement('button');
  button.id = `monitor-${singer.singer}`;
  button.className = singer.monitorWaiting ? 'toggle waiting' : 'toggle';
  button.textContent = singer.monitorWaiting ? 'Hear myself · waiting for the mic' : 'Hear myself';
  button.title = singer.monitorWaiting
    ? 'the microphone or the speakers went away; you will hear yourself again when they are back'
    : 'play this microphone through the speakers';
  button.setAttribute('aria-pressed', String(singer.monitor));
  button.setAttribute('aria-label', `${singer.name}: hear myself${singer.monitorWaiting ? ' (waiting for the microphone)' : ''}`);
  button.addEventListener('click', () => connection.send('monitor', { singer: singer.singer, on: !singer.monitor }));
  return button;
}

const micDelayOrigins = { room: 'room setting', calibrated: 'calibrated', default: 'default — calibrate' };

// "Output 31 ms · Mic 4 ms · Mic delay 140 ms (default — calibrate)"; figures the server does
// not send are left out, and the line is hidden when there are none (--no-audio).
function showMicFigures(state) {
  const ms = (value) => `${Math.round(value)} ms`;
  const span = (text, className) => {
    const element = document.createElement('span');
    element.textContent = text;
    if (className) element.className = className;
    return element;
  };
  for (const singer of state.singers) {
    const line = $(`mic-figures-${singer.singer}`);
    if (!line) continue;
    const figures = [];
    if (state.outputLatencyMs != null) figures.push(span(`Output ${ms(state.outputLatencyMs)}`));
    if (singer.inputLatencyMs != null) figures.push(span(`Mic ${ms(singer.inputLatencyMs)}`));
    if (singer.effectiveMicDelayMs != null) {
      const delay = span(`Mic delay ${ms(singer.effectiveMicDelayMs)} `);
      const origin = micDelayOrigins[singer.micDelaySource] || singer.micDelaySource;
      delay.append(span(`(${origin})`, `origin origin-${singer.micDelaySource}`));
      figures.push(delay);
    } else if (figures.length) {
      figures.push(span('no microphone'));
    }
    line.replaceChildren(...figures.flatMap((figure, index) => (index ? [' · ', figure] : [figure])));
    line.hidden = figures.length === 0;
    const input = $(`mic-delay-${singer.singer}`);
    if (input) input.placeholder = String(Math.round(singer.effectiveMicDelayMs ?? 0));
    // Only a singer the server scores from a microphone can be calibrated; one at a time.
    const calibrate = $(`calibrate-${singer.singer}`);
    if (calibrate) {
      calibrate.hidden = singer.effectiveMicDelayMs == null;
      calibrate.disabled = state.calibratingSinger != null;
      calibrate.textContent = state.calibratingSinger === singer.singer ? 'Calibrating…' : 'Calibrate';
    }
  }
}

function showLibrary() {
  const query = $('search').value.trim().toLowerCase();
  const list = $('library');
  list.replaceChildren();
  const songs = connection.library.filter((song) =>
    !query || song.title.toLowerCase().includes(query) || song.artist.toLowerCase().includes(query));
  for (const song of songs.slice(0, 200)) {
    const item = document.createElement('li');
    item.className = song.error ? 'broken' : '';
    const text = document.createElement('div');
    text.className = 'text';
    text.innerHTML = '<strong></strong><small></small>';
    text.querySelector('strong').textContent = song.title;
    text.querySelector('small').textContent = song.error ? song.error : `${song.artist}${song.duet ? ' · duet' : ''}`;
    item.append(text);
    if (!song.error) {
      const queue = document.createElement('button');
      queue.textContent = 'Queue';
      queue.dataset.songId = song.id;
      queue.addEventListener('click', () => connection.send('queueAdd', { songId: song.id, requestedBy: $('name-input').value || undefined }));
      item.append(queue);
      if (isHost()) {
        const play = document.createElement('button');
        play.className = 'primary';
        play.textContent = 'Play';
        play.addEventListener('click', () => connection.send('queueAdd', { songId: song.id, playNow: true }));
        item.append(play);
      }
    }
    list.append(item);
  }
  if (!songs.length) {
    const item = document.createElement('li');
    item.className = 'muted';
    item.textContent = connection.library.length ? 'No match' : 'The library is empty';
    list.append(item);
  }
}

function showQueue(queue) {
  const list = $('queue');
  list.replaceChildren();
  queue.forEach((entry, index) => {
    const item = document.createElement('li');
    const text = document.createElement('div');
    text.className = 'text';
    text.innerHTML = '<strong></strong><small></small>';
    text.querySelector('strong').textContent = `${index + 1}. ${entry.title}`;
    text.querySelector('small').textContent = entry.requestedBy ? `${entry.artist} · for ${entry.requestedBy}` : entry.artist;
    item.append(text);
    if (isHost()) {
      if (index > 0) {
        const up = document.createElement('button');
        up.textContent = '↑';
        up.setAttribute('aria-label', 'move up');
        up.addEventListener('click', () => connection.send('queueMove', { itemId: entry.itemId, to: index - 1 }));
        item.append(up);
      }
      const remove = document.createElement('button');
      remove.className = 'secondary';
      remove.textContent = '✕';
      remove.setAttribute('aria-label', 'remove');
      remove.addEventListener('click', () => connection.send('queueRemove', { itemId: entry.itemId }));
      item.append(remove);
    }
    list.append(item);
  });
  if (!queue.length) {
    const item = document.createElement('li');
    item.className = 'muted';
    item.textContent = 'Nothing queued';
    list.append(item);
  }
}

connection
  .on('hello', (message) => {
    if (message.hostToken) {
      localStorage.setItem('karaoke.hostToken', JSON.stringify({
        token: message.hostToken, expires: Date.now() + (message.hostTokenExpiresIn || 3600) * 1000,
      }));
      sessionStorage.removeItem('karaoke.pin');
    }
    showRole(); showSong(); showState(); showLibrary();
  })
  .on('song', showSong)
  .on('state', showState)
  .on('queue', (message) => showQueue(message.queue))
  .on('library', showLibrary)
  .on('error', (error) => {
    if (error.code === 'badPin' || error.code === 'pinLocked' || error.code === 'badToken') {
      sessionStorage.removeItem('karaoke.pin');
      if (error.code === 'badToken') localStorage.removeItem('karaoke.hostToken');
      $('unlock-error').textContent = error.code === 'badPin' ? 'Wrong PIN'
        : error.code === 'pinLocked' ? error.message : 'Session expired: enter the PIN';
      connection.hello('guest', null, $('name-input').value || null, null);
    } else {
      toast(error.message);
    }
  });
bindStatus(connection, $('status'));
bindLoading(connection, $('loading'));

$('unlock').addEventListener('submit', (event) => {
  event.preventDefault();
  const pin = $('pin-input').value.trim();
  const name = $('name-input').value.trim();
  localStorage.setItem('karaoke.name', name);
  $('unlock-error').textContent = '';
  sessionStorage.setItem('karaoke.pin', pin);
  connection.hello('host', pin, name || null, null);
});
$('guest-submit').addEventListener('click', () => {
  const name = $('name-input').value.trim();
  localStorage.setItem('karaoke.name', name);
  connection.hello('guest', null, name || null, null);
});
$('search').addEventListener('input', showLibrary);
$('queue-clear').addEventListener('click', () => connection.send('queueClear'));
$('play').addEventListener('click', () => {
  const state = connection.state;
  const going = connection.playing || !!(state?.loading && state.playWhenLoaded);
  connection.send(going ? 'pause' : 'play');
});
$('stop').addEventListener('click', () => connection.send('stop'));
$('next').addEventListener('click', () => connection.send('next'));
$('previous').addEventListener('click', () => connection.send('previous'));
$('key-down').addEventListener('click', () => connection.send('key', { semitones: Math.max(-12, (connection.state?.key || 0) - 1) }));
$('key-up').addEventListener('click', () => connection.send('key', { semitones: Math.min(12, (connection.state?.key || 0) + 1) }));
const stepTempo = (delta) => {
  const ratio = Math.round(((connection.state?.tempo || 1) + delta) * 100) / 100;
  connection.send('tempo', { ratio: Math.min(1.5, Math.max(0.5, ratio)) });
};
$('tempo-down').addEventListener('click', () => stepTempo(-0.05));
$('tempo-up').addEventListener('click', () => stepTempo(0.05));
$('loop-a').addEventListener('click', () => { loopA = connection.position(); showState(); });
$('loop-b').addEventListener('click', () => {
  const b = connection.position();
  if (loopA == null || b - loopA < 0.5) { toast('Set A first, then B at least half a second later'); return; }
  connection.send('loop', { start: loopA, end: b });
  loopA = null;
});
$('loop-clear').addEventListener('click', () => { loopA = null; connection.send('loop', { start: null }); });
$('difficulty').addEventListener('change', () => connection.send('difficulty', { level: $('difficulty').value }));
$('seek').addEventListener('input', () => { seeking = true; $('elapsed').textContent = formatTime(Number($('seek').value)); });
$('seek').addEventListener('change', () => { connection.send('seek', { position: Number($('seek').value) }); seeking = false; });

function frame() {
  const t = connection.position();
  lyrics.update(t);
  if (!seeking) {
    $('seek').value = t;
    $('elapsed').textContent = formatTime(t);
  }
  requestAnimationFrame(frame);
}

showRole();
connection.connect();
requestAnimationFrame(frame);
