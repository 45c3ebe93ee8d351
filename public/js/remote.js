// Phone remote. Sections behind a bottom tab bar: Now (lyrics, the transport at the bottom
// where a thumb reaches), Songs (server-side search, pages), Queue (fair turns, who sings
// when), Settings (key, speed, scoring, singers; the host PIN). Guests start on Songs and are
// asked their name once (kept in the browser). Without a connection every control is disabled
// under a banner, and a command that cannot be sent says so.
import { RoomConnection, pageParams, formatTime, formatKey, bindStatus, bindLoading, fingerprintStart } from './connection.js';
import { RemoteLyrics } from './remote-lyrics.js';
import { SongsTab } from './remote-library.js';
import { showQueue, formatWait } from './remote-queue.js';
import { showSingers, showMicFigures } from './remote-singers.js';

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
const singerName = () => localStorage.getItem('karaoke.name') || '';
const connection = new RoomConnection({
  role: savedPin || hostToken ? 'host' : 'guest', pin: savedPin, token: hostToken, name: singerName() || null,
});
// The PIN leaves the address bar once read (it stays out of the history and shared links).
if (params.get('pin')) history.replaceState(null, '', location.pathname);
window.karaoke = connection; // for the browser console and tests
const isHost = () => connection.role === 'host';
let seeking = false;
let rangeStart = null; // first line of "Loop lines…", waiting for the last
let shownTab = null;
let libraryVersion = null;
let intermissionEnds = null; // the room's wait before the next song ends (this page's clock, s)
let pinProblem = false;

// Over plain http the room takes no PIN (anyone on the wifi could read it): the host controls
// open on the https page, which this offers instead of the PIN field's usual answer.
function offerSecureRemote(url) {
  sessionStorage.removeItem('karaoke.pin');
  const box = $('unlock-error');
  box.textContent = 'Host controls open only on the secure page (your PIN is never sent over plain http). ';
  const certificate = connection.certificate;
  if (certificate?.selfSigned) {
    // Said before the browser's warning, so the guest knows it is expected and what to check.
    box.append('Your browser will warn that the connection is not private: this room made its own certificate. '
      + `It is this room if the certificate's SHA-256 fingerprint starts with ${fingerprintStart(certificate)} `
      + '(also on the TV). ');
  }
  if (url) {
    const link = document.createElement('a');
    link.href = url;
    link.textContent = 'Open the secure remote';
    box.append(link);
  }
  pinProblem = true;
  showTab('settings');
}

function toast(text) {
  const element = $('toast');
  element.textContent = text;
  element.classList.add('show');
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => element.classList.remove('show'), 3200);
}

// Every command goes through here: without a connection nothing is sent, and the user is told.
function act(type, args = {}) {
  const id = connection.connected ? connection.send(type, args) : null;
  if (id == null) toast('Not sent: the connection to the room is lost. Try again when it is back.');
  return id;
}

const lyrics = new RemoteLyrics($('lyrics'), $('play-here'), $('play-here-time'), {
  onSeekLine: (index) => {
    // "Loop lines…": the first tapped line starts the loop, the second ends it.
    if (rangeStart === -1) {
      rangeStart = index;
      lyrics.elements[index]?.classList.add('range-start');
      showLoop(connection.state || {});
      return;
    }
    if (rangeStart != null) return finishLineRange(index);
    if (!isHost()) { toast('Only the host moves the song; ask them, or unlock in Settings.'); return; }
    act('seekLine', { part: lyrics.part, line: index });
  },
});
const songs = new SongsTab(connection, { act, isHost, singerName });

// Tabs
function showTab(name) {
  shownTab = name;
  for (const tab of document.querySelectorAll('.tab')) tab.hidden = tab.dataset.tab !== name;
  for (const button of document.querySelectorAll('.tabbar button')) {
    if (button.dataset.tab === name) button.setAttribute('aria-current', 'page'); else button.removeAttribute('aria-current');
  }
  if (name === 'now' && lyrics.focus >= 0) lyrics.centre(lyrics.focus, false);
}
for (const button of document.querySelectorAll('.tabbar button')) {
  button.addEventListener('click', () => showTab(button.dataset.tab));
}

function showRole() {
  // A reconnect is first answered as a display, before the server has our own hello: that is
  // not a change of role, and must not take a host out of the tab they were using.
  if (connection.role === 'display' && connection.wanted.role !== 'display' && showRole.last) return;
  $('role').textContent = connection.role;
  document.body.classList.toggle('is-host', isHost());
  $('unlock').hidden = isHost();
  // First the section for the role: the host's transport, a guest's songs; after unlocking, Now.
  // A PIN problem keeps Settings (where the PIN form and its message are) in front.
  if (shownTab == null || showRole.last !== connection.role) showTab(pinProblem ? 'settings' : isHost() ? 'now' : 'songs');
  pinProblem = false;
  showRole.last = connection.role;
}

function askNameOnce() {
  $('name-input').value = singerName();
  // Only a guest (not the first "display" hello, not a host on the way in) is asked.
  if (singerName() || connection.role !== 'guest' || connection.wanted.role !== 'guest'
      || localStorage.getItem('karaoke.nameAsked')) return;
  localStorage.setItem('karaoke.nameAsked', '1');
  $('name-dialog').showModal();
}
function setName(name) {
  localStorage.setItem('karaoke.name', name);
  $('name-input').value = name;
  connection.hello(connection.role, null, name || null, connection.wanted.token);
}
$('name-form').addEventListener('submit', () => setName($('name-first').value.trim()));
$('name-input').addEventListener('change', () => setName($('name-input').value.trim()));

// With nothing loaded, the Now tab says what ▶ starts: the first queued song (the room loads it
// on play), not "No song".
function upNext() {
  const first = connection.song ? null : connection.state?.queue?.[0];
  if (!first) return null;
  const who = first.requestedBy ? ` · ${first.requestedBy} sings` : '';
  return { title: `Next: ${first.title}`, artist: `${first.artist}${who}`,
           hint: isHost() ? `▶ starts “${first.title}”` : `“${first.title}” is next` };
}

let shownUpNext = null;
function showSong() {
  const song = connection.song;
  const next = upNext();
  shownUpNext = next && JSON.stringify(next);
  $('title').textContent = song ? song.title : next ? next.title : 'No song';
  $('artist').textContent = song ? song.artist : next ? next.artist : '';
  lyrics.emptyText = next ? next.hint : 'No song loaded';
  lyrics.setSong(song, 0);
  cancelLineRange();
}

// The queue or the role changed while nothing is loaded: the "next" text follows.
function refreshUpNext() {
  if (connection.song) return;
  const next = upNext();
  if ((next && JSON.stringify(next)) !== shownUpNext) showSong();
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
  showLoop(state);
  $('practice-badge').hidden = !state.practice;
  $('difficulty').value = state.difficulty;
  if (state.pauseBetweenSongs != null) $('pause-between').value = String(state.pauseBetweenSongs);
  if (state.displayScale != null) $('display-scale').value = String(state.displayScale);
  if (state.lyricCompanions) $('lyric-companions').value = state.lyricCompanions;
  if (state.vocalReduction != null) $('vocal-reduction').value = state.vocalReduction ? 'on' : 'off';
  // Why the switch does nothing: a room without sound (--no-audio), or a song without a recorded vocal.
  const vocalNote = $('vocal-reduction-note');
  vocalNote.textContent = state.audio === false
    ? 'this room plays no sound (started with --no-audio): nothing to reduce'
    : "this song's music has no vocal to reduce (instrumental or MIDI)";
  vocalNote.hidden = !(state.vocalReduction && state.songId && state.vocalReductionActive === false);
  intermissionEnds = state.intermission ? performance.now() / 1000 + state.intermission.endsIn : null;
  showIntermission();
  if (state.singerName) $('artist').textContent = `${connection.song?.artist || ''} · ${state.singerName} sings`;
  showSingers(connection, act, toast);
  showMicFigures(state);
  showQueue(state.queue, { act, isHost, singerName });
  songs.showIndexing(state.libraryIndexing ?? null);
  if (libraryVersion !== state.libraryVersion) {
    // A changed library on disk (or the first state): ask for the page again.
    const first = libraryVersion === null;
    libraryVersion = state.libraryVersion;
    if (!first) songs.request();
  }
}

// The loop on the seek bar (every view shows it as a band) and in words.
function showLoop(state) {
  const loop = state.loop;
  const band = $('loop-band');
  band.hidden = !loop || !state.duration;
  if (loop && state.duration) {
    band.style.setProperty('--from', `${(loop.start / state.duration) * 100}%`);
    band.style.setProperty('--width', `${((loop.end - loop.start) / state.duration) * 100}%`);
  }
  $('loop-value').textContent = rangeStart === -1 ? 'tap the first line' : rangeStart != null ? 'now tap the last line'
    : loop ? `looping ${formatTime(loop.start)}–${formatTime(loop.end)}` : 'no loop';
  $('loop-clear').hidden = !loop;
}

// A loop over whole lines: at least 0.5 s (the server's minimum), within the song.
function loopLines(first, last) {
  const lines = lyrics.lines;
  if (!lines.length) return;
  const [a, b] = first <= last ? [first, last] : [last, first];
  const start = Math.max(0, lines[a].start - 0.2);
  const duration = connection.state?.duration || lines[b].end + 1;
  const end = Math.min(duration, Math.max(lines[b].end + 0.3, start + 0.5));
  act('loop', { start, end });
}
function finishLineRange(index) {
  const first = rangeStart;
  cancelLineRange();
  loopLines(first, index);
}
function cancelLineRange() {
  rangeStart = null;
  for (const line of document.querySelectorAll('#lyrics .range-start')) line.classList.remove('range-start');
  $('loop-lines').setAttribute('aria-pressed', 'false');
  if (connection.state) showLoop(connection.state);
}
$('loop-line').addEventListener('click', () => {
  const index = lyrics.focus;
  if (index < 0) { toast('No line to loop yet'); return; }
  loopLines(index, index);
});
$('loop-lines').addEventListener('click', () => {
  if (rangeStart != null) { cancelLineRange(); return; }
  rangeStart = -1; // the next tapped line is the first
  $('loop-lines').setAttribute('aria-pressed', 'true');
  toast('Tap the first line, then the last line of the loop');
  showLoop(connection.state || {});
});
$('loop-clear').addEventListener('click', () => act('loop', { start: null }));

connection
  .on('hello', (message) => {
    if (message.hostToken) {
      localStorage.setItem('karaoke.hostToken', JSON.stringify({
        token: message.hostToken, expires: Date.now() + (message.hostTokenExpiresIn || 3600) * 1000,
      }));
      sessionStorage.removeItem('karaoke.pin');
    }
    showRole(); showSong(); showState(); askNameOnce();
    songs.request();
  })
  .on('song', showSong)
  .on('state', () => { showState(); refreshUpNext(); })
  .on('queue', (message) => { showQueue(message.queue, { act, isHost, singerName }); refreshUpNext(); })
  .on('queued', (message) => {
    songs.confirmed(message.item.songId);
    const who = message.item.requestedBy ? ` for ${message.item.requestedBy}` : '';
    const when = formatWait(message.item.startsIn, message.position === 1);
    toast(message.folded
      ? `“${message.item.title}” is already in your requests (number ${message.position}${when ? `, ${when}` : ''})`
      : `Queued “${message.item.title}”${who}: number ${message.position}${when ? `, ${when}` : ''}`);
  })
  .on('secure', ({ url }) => offerSecureRemote(url))
  .on('error', (error) => {
    if (error.code === 'secureConnectionRequired') {
      offerSecureRemote((error.message.match(/https:\/\/\S+/) || [])[0]);
      connection.hello('guest', null, singerName() || null, null);
    } else if (['badPin', 'pinLocked', 'badToken', 'signedOut'].includes(error.code)) {
      sessionStorage.removeItem('karaoke.pin');
      if (error.code === 'badToken' || error.code === 'signedOut') localStorage.removeItem('karaoke.hostToken');
      $('unlock-error').textContent = error.code === 'badPin' ? 'Wrong PIN'
        : error.code === 'pinLocked' ? error.message
        : error.code === 'signedOut' ? 'Another host signed this device out: enter the PIN to control the room again'
        : 'Session expired: enter the PIN';
      pinProblem = true;
      showTab('settings');
      connection.hello('guest', null, singerName() || null, null);
    } else if (STORE_FAULTS[error.code] !== undefined) {
      showStoreFault(error);
    } else {
      if (error.command === 'queueAdd') songs.failed();
      toast(error.message);
    }
  })
  // Offline: a banner, and every control disabled so no tap looks as if it worked.
  .on('status', (status) => {
    document.body.classList.toggle('offline', !status.online);
    $('offline-banner').hidden = status.online;
    for (const control of document.querySelectorAll('.tabs-body button, .tabs-body input, .tabs-body select')) {
      if (!status.online) {
        if (!control.disabled) { control.disabled = true; control.dataset.offline = '1'; }
      } else if (control.dataset.offline) {
        control.disabled = false;
        delete control.dataset.offline;
      }
    }
  });
// Score store faults (host only): a banner that stays while scores are not being saved.
// Failures stay until their recovery; the other reports are toasts.
const STORE_FAULTS = {
  'store-write-failed': 'write', 'store-spool-failed': 'spool',
  'store-write-recovered': null, 'store-spool-recovered': null,
  'store-write-dropped': null, 'store-write-spooled': null,
};
const storeFaults = new Map();
function showStoreFault(error) {
  const kind = STORE_FAULTS[error.code];
  if (kind) storeFaults.set(kind, error.message);
  else {
    if (error.code === 'store-write-recovered') storeFaults.delete('write');
    if (error.code === 'store-spool-recovered') storeFaults.delete('spool');
    toast(error.message);
  }
  renderStoreBanner();
}
function renderStoreBanner() {
  const banner = $('store-banner');
  banner.textContent = [...storeFaults.values()].map((message) => `Scores are not being saved: ${message}`).join(' ');
  banner.hidden = storeFaults.size === 0;
}
// Every hello starts over: the server tells a new host the faults still going on right after it.
connection.on('hello', () => { storeFaults.clear(); renderStoreBanner(); });
bindStatus(connection, $('status'));
bindLoading(connection, $('loading'));

$('unlock').addEventListener('submit', (event) => {
  event.preventDefault();
  const pin = $('pin-input').value.trim();
  $('unlock-error').textContent = '';
  if (connection.secretsNeedTLS) { offerSecureRemote(connection.secureRemote); return; }
  sessionStorage.setItem('karaoke.pin', pin);
  connection.hello('host', pin, singerName() || null, null);
});
$('leave-host').addEventListener('click', () => {
  localStorage.removeItem('karaoke.hostToken');
  sessionStorage.removeItem('karaoke.pin');
  connection.hello('guest', null, singerName() || null, null);
});
$('queue-clear').addEventListener('click', () => act('queueClear'));
$('sign-out-others').addEventListener('click', () => act('signOutOtherHosts'));
connection.on('hostsSignedOut', ({ count }) => toast(count
  ? `Signed out ${count} other host device${count === 1 ? '' : 's'}: they are guests now`
  : 'No other device had the host controls'));
$('play').addEventListener('click', () => {
  const state = connection.state;
  const going = connection.playing || !!(state?.loading && state.playWhenLoaded);
  act(going ? 'pause' : 'play');
});
// Stop goes back to 0:00: it needs a long press (0.8 s), so a slip of the thumb cannot do it.
{
  const stop = $('stop');
  let timer = null;
  const cancel = () => { clearTimeout(timer); timer = null; stop.classList.remove('holding'); };
  stop.addEventListener('pointerdown', () => {
    stop.classList.add('holding');
    timer = setTimeout(() => { cancel(); act('stop'); toast('Stopped: back to the start'); }, 800);
  });
  for (const type of ['pointerup', 'pointerleave', 'pointercancel']) stop.addEventListener(type, cancel);
  stop.addEventListener('click', (event) => {
    // A keyboard or switch "click" (no pointer, detail 0) cannot be held: it asks instead.
    if (event.detail === 0) {
      if (window.confirm('Stop and go back to the start?')) act('stop');
      return;
    }
    if (timer === null) { $('stop-hint').hidden = false; setTimeout(() => { $('stop-hint').hidden = true; }, 2500); }
  });
  stop.addEventListener('contextmenu', (event) => event.preventDefault());
}
$('next').addEventListener('click', () => act('next'));
$('previous').addEventListener('click', () => act('previous'));
$('key-down').addEventListener('click', () => act('key', { semitones: Math.max(-12, (connection.state?.key || 0) - 1) }));
$('key-up').addEventListener('click', () => act('key', { semitones: Math.min(12, (connection.state?.key || 0) + 1) }));
$('key-reset').addEventListener('click', () => act('key', { semitones: 0 }));
const stepTempo = (delta) => {
  const ratio = Math.round(((connection.state?.tempo || 1) + delta) * 100) / 100;
  act('tempo', { ratio: Math.min(1.5, Math.max(0.5, ratio)) });
};
$('tempo-down').addEventListener('click', () => stepTempo(-0.05));
$('tempo-up').addEventListener('click', () => stepTempo(0.05));
$('tempo-reset').addEventListener('click', () => act('tempo', { ratio: 1 }));
$('difficulty').addEventListener('change', () => act('difficulty', { level: $('difficulty').value }));
$('pause-between').addEventListener('change', () => act('pauseBetweenSongs', { seconds: Number($('pause-between').value) }));
$('display-scale').addEventListener('change', () => act('displayScale', { percent: Number($('display-scale').value) }));
$('lyric-companions').addEventListener('change', () => act('lyricCompanions', { show: $('lyric-companions').value }));
$('vocal-reduction').addEventListener('change', () => act('vocalReduction', { on: $('vocal-reduction').value === 'on' }));

// The room's wait before the next queued song: counted down here; ▶ starts it at once (host).
function showIntermission() {
  const box = $('intermission');
  box.hidden = intermissionEnds === null;
  if (intermissionEnds === null) return;
  const left = Math.max(0, Math.ceil(intermissionEnds - performance.now() / 1000));
  const heldBy = connection.state?.intermission?.heldBy;
  box.textContent = heldBy
    ? `Next song ${left > 0 ? `in ${left} s` : 'waits'}: ${heldBy}`
    : `Next song in ${left} s${isHost() ? ' — ▶ starts it now' : ''}`;
}
setInterval(showIntermission, 250);
$('seek').addEventListener('input', () => { seeking = true; $('elapsed').textContent = formatTime(Number($('seek').value)); });
$('seek').addEventListener('change', () => { act('seek', { position: Number($('seek').value) }); seeking = false; });

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
