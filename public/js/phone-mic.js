// "Sing with this phone": the singer page as a room microphone. Asks for the mic with echo
// cancellation, noise suppression and auto gain OFF (they bend pitch), captures 24 kHz mono in
// an AudioWorklet and streams binary frames over the page's own WebSocket
// (window.karaoke.ws, the RoomConnection sing.js made). Clock sync pings map the phone's audio
// clock to the server's; the seat survives a reconnect (resume token); Wake Lock keeps the
// screen on while singing; the mic stops when the song ends. Protocol: docs/phone-mics.md.
import { Resampler, Framer, TARGET_RATE as RATE } from './phone-mic-resampler.js';

const HEADER = 16;

const panel = document.getElementById('phone-mic-panel');
const params = new URLSearchParams(location.hash.replace(/^#/, '').replace(/^mic&?/, ''));
const autoStart = /^#mic(&|$)/.test(location.hash);
// `capture=track`: Chromium's MediaStreamTrackProcessor with capture-time stamps instead of the
// AudioWorklet (see readTrack; opt-in, docs/phone-mics.md).
const captureMode = params.get('capture') === 'track' ? 'track' : 'worklet';
// `testDelayMs=N` delays the captured audio by N ms before it is stamped: a phone N ms slower
// than this one, for measuring calibration (docs/phone-mics.md). Never set by the page itself.
const testDelay = Math.min(Math.max(Number(params.get('testDelayMs')) || 0, 0), 1000) / 1000;

panel.innerHTML = `
  <div class="phone-mic" role="group" aria-label="phone microphone">
    <input id="phone-mic-name" class="phone-mic-name" maxlength="40" placeholder="Your name" autocomplete="nickname">
    <select id="phone-mic-difficulty" class="phone-mic-difficulty" aria-label="your difficulty">
      <option value="">Room's level</option><option value="easy">Easy</option><option value="medium">Medium</option><option value="hard">Hard</option>
    </select>
    <button id="use-phone-mic" type="button">Sing with this phone</button>
    <button id="calibrate-phone-mic" type="button" hidden>Calibrate</button>
    <button id="stop-phone-mic" type="button" hidden>Stop</button>
    <span id="phone-mic-status" class="phone-mic-status" role="status"></span>
    <span id="phone-mic-delay" class="phone-mic-delay"></span>
  </div>`;
const nameInput = panel.querySelector('#phone-mic-name');
const startButton = panel.querySelector('#use-phone-mic');
const calibrateButton = panel.querySelector('#calibrate-phone-mic');
const stopButton = panel.querySelector('#stop-phone-mic');
const statusText = panel.querySelector('#phone-mic-status');
const delayText = panel.querySelector('#phone-mic-delay');
// The name given here before, else the one given on the remote ("Who's singing?"): the seat,
// the score and the leaderboard carry it.
nameInput.value = params.get('name') || localStorage.getItem('phoneMicName') || localStorage.getItem('karaoke.name') || '';
// The seat's own difficulty (`#mic&difficulty=hard`, or the last one chosen); empty = the room's.
const difficultyChoice = panel.querySelector('#phone-mic-difficulty');
const levels = ['easy', 'medium', 'hard'];
const askedLevel = params.get('difficulty') ?? localStorage.getItem('phoneMicDifficulty') ?? '';
difficultyChoice.value = levels.includes(askedLevel) ? askedLevel : '';

const mic = {
  stream: null, context: null, node: null, seat: null, token: null, wakeLock: null,
  pings: [], pingTimer: null, offset: null, pingOffset: null, pingRtt: null, sentFrames: 0, sentBytes: 0, droppedFrames: 0, wasPlaying: false,
  recalibrating: false, held: null, heldUntil: 0,
};
window.phoneMic = mic; // for the browser console and tests

function connection() { return window.karaoke; }

function show(text, kind = '') {
  statusText.textContent = text;
  statusText.dataset.kind = kind;
}

// Frames carry the audio context's own sample index, contiguous by construction: the server
// hears exactly the samples captured, with no gap or overlap made up by the page. (Stamping on
// performance time and re-anchoring at 5 ms slips inserted or cut audio ~4 times a second on a
// busy browser: the backing moved against the room's reference and a silent phone scored the
// backing.) Time is mapped separately: the offset sent to the server is (server − performance
// time, from the pings) + (performance − context time), the latter the median of the last 0.5 s
// of getOutputTimestamp readings (every 100 ms), and it is sent again only when it moves by more than
// OFFSET_STEP (12 ms, below).
const clock = { readings: [], perfMinusContext: null, sinceMedian: 0 };

function readContextClock() {
  const ts = mic.context.getOutputTimestamp ? mic.context.getOutputTimestamp() : null;
  const reading = ts && ts.performanceTime > 0 ? ts.performanceTime / 1000 - ts.contextTime
    : performance.now() / 1000 - mic.context.currentTime;
  if (!Number.isFinite(reading)) return;
  clock.readings.push(reading);
  if (clock.readings.length > 50) clock.readings.shift();
  // A median every 100 ms (and at once for the first reading): jitter of a few ms on a busy
  // page does not move it; a context that stalls (it does, for hundreds of ms, on a starved
  // browser) moves it within a quarter of a second.
  if (clock.perfMinusContext !== null && ++clock.sinceMedian < 10) return;
  clock.sinceMedian = 0;
  const sorted = [...clock.readings].sort((a, b) => a - b);
  clock.perfMinusContext = sorted[sorted.length >> 1];
  sendOffset();
}

// Server time = context time + offset, sent when both halves are known and it moved by more
// than 12 ms. Every offset sent moves the phone's audio against the room's on the server; the
// audio itself moves in whole capture chunks (23 ms at 44.1 kHz, when Chromium drops one), while
// the context-clock reading wobbles by 2.5-8.4 ms (21 moves in a song with one real drop,
// test_phone_stream.py at load 6.3): a 2 ms threshold moved the alignment for nothing.
const OFFSET_STEP = 0.012;
function sendOffset() {
  if (mic.pingOffset == null || clock.perfMinusContext === null || mic.seat === null) return;
  const offset = mic.pingOffset + clock.perfMinusContext;
  if (mic.offset !== null && Math.abs(offset - mic.offset) <= OFFSET_STEP) return;
  mic.offset = offset;
  connection().send('phoneClockOffset', { offset, rtt: mic.pingRtt });
}

function steadyNow() { return performance.now() / 1000; }

async function start() {
  const conn = connection();
  if (!conn || mic.stream) return;
  const name = nameInput.value.trim();
  if (name) localStorage.setItem('phoneMicName', name);
  localStorage.setItem('phoneMicDifficulty', difficultyChoice.value);
  startButton.disabled = true;
  show('asking for the microphone…');
  try {
    mic.stream = await navigator.mediaDevices.getUserMedia({
      audio: { echoCancellation: false, noiseSuppression: false, autoGainControl: false, channelCount: 1 },
    });
    // The worklet by default; `capture=track` (Chromium) stamps capture time instead: truer
    // timing, but measured worse live so far (docs/phone-mics.md, "What a phone really sends").
    if (captureMode === 'track' && typeof MediaStreamTrackProcessor === 'function') readTrack(mic.stream.getAudioTracks()[0]);
    else await captureWithWorklet();
  } catch (error) {
    show(`microphone not available: ${error.message || error}`, 'error');
    stop(false);
    return;
  }
  requestSeat();
  keepAwake();
  startButton.hidden = true;
  stopButton.hidden = false;
  startButton.disabled = false;
}

// `capture=track` (Chromium): the track's own audio chunks, each stamped with its capture time (on the page's
// performance clock). Measured on a loaded 2-core box, Chromium's AudioContext fell up to
// 9.7 s behind real time in a 90 s song and its capture dropped whole 1024-sample chunks to
// catch up, which a context-clock index cannot see: each drop moved the phone's audio 23 ms
// against the room's (docs/phone-mics.md). Capture timestamps show a drop as a jump of the
// index, which the server fills with silence, so the audio after it stays in time.
async function readTrack(track) {
  mic.mode = 'track';
  clock.perfMinusContext = 0; // the stamps are performance time already
  mic.delay = { delayTime: { value: testDelay } }; // the measurement aid, as an index shift
  const reader = new MediaStreamTrackProcessor({ track }).readable.getReader();
  mic.reader = reader;
  const framer = new Framer((message) => sendFrame(message));
  let resampler = null;
  let count = 0; // input samples read so far
  let anchor = 0; // index of input sample 0: the stamps' median lead over the count
  const leads = [];
  for (;;) {
    let chunk;
    try { chunk = await reader.read(); } catch { break; }
    const data = chunk.value;
    if (chunk.done || !data) break;
    const rate = data.sampleRate;
    const samples = new Float32Array(data.numberOfFrames);
    data.copyTo(samples, { planeIndex: 0, format: 'f32-planar' });
    const stamped = Math.round((data.timestamp / 1e6 + mic.delay.delayTime.value) * rate);
    data.close();
    if (!resampler || resampler.inputRate !== rate) {
      resampler = new Resampler(rate);
      count = 0;
      anchor = stamped;
      leads.length = 0;
      framer.reset();
    }
    // Chunk stamps jitter by tens of ms on a busy phone (measured: -90 to +850 samples at
    // 24 kHz), so the index is the sample count, moved only when the median lead of the last
    // second's stamps over it moves by more than 10 ms: a dropped chunk (23 ms at 44.1 kHz),
    // a stall, a changed test delay.
    leads.push(stamped - count);
    if (leads.length > Math.ceil(rate / samples.length)) leads.shift();
    const median = [...leads].sort((x, y) => x - y)[leads.length >> 1];
    if (Math.abs(median - anchor) > rate * 0.01) {
      anchor = median;
      resampler.restart();
      framer.reset();
    }
    resampler.process(samples, anchor + count, (value, index) => framer.push(value, index));
    count += samples.length;
  }
}

// Elsewhere: an AudioContext and the capture worklet. A 24 kHz context lets the browser's own
// resampler do the work. Firefox makes one but will not connect a 48 kHz microphone to it;
// then (or where 24 kHz is refused) the context runs at the device's rate and the worklet resamples.
async function captureWithWorklet() {
  mic.mode = 'worklet';
  let source = null;
  try {
    mic.context = new AudioContext({ sampleRate: RATE, latencyHint: 'playback' });
    source = mic.context.createMediaStreamSource(mic.stream);
  } catch {
    mic.context?.close();
    mic.context = new AudioContext({ latencyHint: 'playback' });
    source = mic.context.createMediaStreamSource(mic.stream);
  }
  await mic.context.audioWorklet.addModule('/js/phone-mic-worklet.js');
  mic.node = new AudioWorkletNode(mic.context, 'phone-mic-capture', { numberOfOutputs: 1 });
  const silent = mic.context.createGain();
  silent.gain.value = 0;
  // Zero unless `testDelayMs` is set: a measurement aid (window.phoneMic.delay can be changed live).
  mic.delay = mic.context.createDelay(1);
  mic.delay.delayTime.value = testDelay;
  source.connect(mic.delay).connect(mic.node).connect(silent).connect(mic.context.destination);
  mic.node.port.onmessage = (event) => sendFrame(event.data);
  if (mic.context.state !== 'running') await mic.context.resume();
}

function requestSeat() {
  mic.askedName = nameInput.value.trim();
  const args = { name: mic.askedName || undefined };
  if (params.get('part')) args.part = Number(params.get('part'));
  if (difficultyChoice.value) args.difficulty = difficultyChoice.value;
  if (mic.token) args.resume = mic.token;
  connection().send('phoneMic', args);
  show(mic.token ? 'reconnecting…' : 'taking a seat…');
}

function sendFrame({ index, pcm }) {
  const ws = connection().ws;
  if (mic.mode === 'worklet') readContextClock();
  if (mic.seat === null || !ws || ws.readyState !== WebSocket.OPEN) return;
  // A stalled network: drop rather than queue (the server marks the gap; old audio is useless).
  // (Queuing up to 2 s instead broke the phone's calibration in test_phone_mic.py: 3 of 10
  // clicks heard; not understood yet.)
  if (ws.bufferedAmount > 32 * 1024) { mic.droppedFrames++; return; }
  const frame = new Uint8Array(HEADER + pcm.byteLength);
  const view = new DataView(frame.buffer);
  frame[0] = 0x4b; frame[1] = 0x4d; frame[2] = 1; frame[3] = mic.seat;
  view.setBigUint64(4, BigInt(index), true);
  view.setUint32(12, RATE, true);
  frame.set(new Uint8Array(pcm), HEADER);
  ws.send(frame.buffer);
  mic.sentFrames++;
  mic.sentBytes += frame.byteLength;
}

// NTP-style: t0 (the page's steady clock, seconds) → server receive time t1 → back at t3.
// The offset of the ping with the shortest round trip among the last 12 wins; pings over twice
// the best round trip (+10 ms) are outliers. Every 250 ms for the first 3 s, then every 2 s
// while seated (the two clocks drift apart by parts per million).
function ping() {
  if (!mic.stream || mic.seat === null) return;
  connection().send('phoneClock', { t0: steadyNow() });
}

function clockReply(message) {
  if (!mic.stream) return;
  const t3 = steadyNow();
  const rtt = t3 - message.t0;
  if (!(rtt >= 0) || rtt > 5) return;
  mic.pings.push({ offset: message.t1 - (message.t0 + t3) / 2, rtt });
  if (mic.pings.length > 12) mic.pings.shift();
  const best = Math.min(...mic.pings.map((p) => p.rtt));
  const good = mic.pings.filter((p) => p.rtt <= 2 * best + 0.01);
  const chosen = good.reduce((a, b) => (b.rtt < a.rtt ? b : a));
  mic.pingOffset = chosen.offset;
  mic.pingRtt = chosen.rtt;
  sendOffset();
}

function schedulePings() {
  clearTimeout(mic.pingTimer);
  let count = 0;
  const next = () => {
    ping();
    count++;
    mic.pingTimer = setTimeout(next, count < 12 ? 250 : 2000);
  };
  next();
}

async function keepAwake() {
  try {
    if ('wakeLock' in navigator && !mic.wakeLock) {
      mic.wakeLock = await navigator.wakeLock.request('screen');
      mic.wakeLock.addEventListener('release', () => { mic.wakeLock = null; });
    }
  } catch { /* not allowed (no user gesture, battery saver): singing works without it */ }
}

function stop(release = true) {
  clearTimeout(mic.pingTimer);
  clearTimeout(mic.held);
  if (release && mic.seat !== null) connection()?.send('phoneMicRelease');
  mic.reader?.cancel().catch(() => {});
  mic.stream?.getTracks().forEach((t) => t.stop());
  mic.node?.disconnect();
  mic.context?.close();
  mic.wakeLock?.release().catch(() => {});
  Object.assign(clock, { readings: [], perfMinusContext: null, sinceMedian: 0 });
  Object.assign(mic, { stream: null, reader: null, mode: null, context: null, node: null, seat: null, token: null, wakeLock: null, pings: [], offset: null, pingOffset: null, pingRtt: null, held: null, recalibrating: false });
  startButton.hidden = false;
  startButton.disabled = false;
  stopButton.hidden = true;
  calibrateButton.hidden = true;
  panel.classList.remove('singing');
  offerWhenScorable(); // stopped during a song without notes: the bar goes, as for any other phone
}

function seated(message) {
  mic.seat = message.slot;
  mic.token = message.token;
  mic.pings = [];
  mic.offset = null;
  mic.pingOffset = null;
  panel.classList.add('singing');
  calibrateButton.hidden = false;
  const level = message.difficulty ? `, ${message.difficulty}` : '';
  show(singingAs(message.name, ` (singer ${message.singer + 1}${level})`), 'ok');
  schedulePings();
}

// "singing as Ann"; when another seat had the name asked for, the server added a suffix
// ("Ann (2)", docs/phone-mics.md) and the page says why.
function singingAs(name, detail = '') {
  const asked = mic.askedName || '';
  const suffixed = asked && / \(\d+\)$/.test(name) && name.toLowerCase() !== asked.toLowerCase();
  return `${suffixed ? `“${asked}” is already singing here, so you are ` : ''}singing as ${name}${detail}`;
}

function followState(state) {
  if (mic.seat === null) return;
  const me = (state.singers || []).find((s) => s.source === 'phone' && s.name && s.singer === mic.singerIndex);
  const seat = me || (state.singers || []).find((s) => s.source === 'phone' && s.singer === mic.singerIndex);
  if (seat) {
    if (seat.effectiveMicDelayMs != null) {
      const moved = seat.micDelayMovedMs != null
        ? `, ${seat.micDelayMovedMs > 0 ? '+' : ''}${Math.round(seat.micDelayMovedMs)} ms moved since` : '';
      delayText.textContent = `delay ${Math.round(seat.effectiveMicDelayMs)} ms${seat.micDelaySource === 'calibrated' ? ` (calibrated${moved})` : ''}`;
    }
    // `seat.needsCalibration` (the music arrives > 20 ms off where it did after calibrating) is
    // not shown as a prompt: the room re-calibrates the phone by itself after the song
    // (`phoneMicRecalibrating`), and the page keeps its mic on for that (docs/phone-mics.md).
    if (seat.phoneStatus && seat.phoneStatus !== 'ok') show(`network ${seat.phoneStatus}`, seat.phoneStatus);
    else if (!['ok', 'calibrating'].includes(statusText.dataset.kind)) show(singingAs(seat.name), 'ok');
  }
  // The song ended (played to its end, or stopped): the mic stops and the seat is given back;
  // unless the room flagged this seat's timing (`needsCalibration`): it re-calibrates the phone
  // now, so the mic stays on for the clicks (a few seconds; `phoneMicRecalibrating` follows).
  if (mic.wasPlaying && state.transport === 'stopped') {
    if (seat?.needsCalibration) holdForRecalibration();
    else songEnded();
  } else if (mic.held && !mic.recalibrating) {
    // Another phone's clicks go first (one at a time): wait on while this seat is still flagged.
    if (state.transport === 'playing' || !seat?.needsCalibration) songEnded();
    else if (state.calibratingSinger != null) mic.heldUntil = Date.now() + 4000;
  }
  mic.wasPlaying = state.transport === 'playing';
}

function songEnded(note = 'the song ended') {
  stop(true);
  show(`${note}: microphone off`);
}

// Waits for the room's automatic re-calibration; if it has not begun 4 s after the song's end
// (or after another phone's), or not finished within 60 s, the mic stops as usual.
function holdForRecalibration() {
  mic.heldUntil = Date.now() + 4000;
  const check = () => {
    if (Date.now() > mic.heldUntil) songEnded();
    else mic.held = setTimeout(check, 500);
  };
  clearTimeout(mic.held);
  mic.held = setTimeout(check, 500);
}

// A song without notes (lyrics only, MP3+G) has nothing to judge a voice against: the bar is not
// offered then (between songs it is, to sit down before the next one). A phone already singing
// keeps its bar, so it can still stop; once it stops (or loses its seat) the bar goes too.
function offerWhenScorable() {
  const song = connection()?.song;
  panel.hidden = !!song && !song.hasNotes && !mic.stream;
}

function bind(conn) {
  conn.on('phoneMicSeat', (message) => { mic.singerIndex = message.singer; seated(message); });
  conn.on('phoneClock', clockReply);
  conn.on('phoneMicReleased', (message) => { if (mic.stream) { stop(false); show(`seat released: ${message.reason}`); } });
  // The room re-runs the calibration by itself (the phone's timing moved since the last one).
  conn.on('phoneMicRecalibrating', () => {
    mic.recalibrating = true;
    mic.heldUntil = Date.now() + 60000; // the clicks take ~12 s; a reply that never comes frees the mic
    calibrateButton.disabled = true;
    show('Re-calibrating your phone… keep it near the speakers', 'calibrating');
  });
  conn.on('phoneMicCalibrated', (message) => {
    const again = mic.recalibrating;
    mic.recalibrating = false;
    calibrateButton.disabled = false;
    if (message.delayMs != null) {
      delayText.textContent = `delay ${Math.round(message.delayMs)} ms (calibrated)`;
      show(again ? 're-calibrated' : 'calibrated', 'ok');
    } else show(`${again ? 're-' : ''}calibration failed: ${message.error}`, 'error');
    if (mic.held) songEnded(message.delayMs != null ? 're-calibrated' : 're-calibration failed');
  });
  conn.on('error', (message) => {
    if (['audioRefused', 'phoneSeatsFull', 'noSeat'].includes(message.code)) show(message.message, 'error');
  });
  conn.on('state', followState);
  conn.on('song', offerWhenScorable);
  conn.on('hello', offerWhenScorable);
  // A network blip: the new socket takes the same seat back with the token; audio resumes.
  conn.on('status', ({ online }) => {
    if (!mic.stream) return;
    if (online) { mic.seat = null; requestSeat(); } else show('network lost: reconnecting…', 'lost');
  });
}

startButton.addEventListener('click', start);
stopButton.addEventListener('click', () => { stop(true); show('microphone off'); });
calibrateButton.addEventListener('click', () => {
  calibrateButton.disabled = true;
  show('calibrating: keep the phone still near the speakers…', 'calibrating');
  connection().send('phoneMicCalibrate');
});
document.addEventListener('visibilitychange', () => { if (mic.stream && document.visibilityState === 'visible') keepAwake(); });
// A page that closes, reloads or navigates away gives its seat back at once (the server also
// frees it on the socket's "going away" close; only a dropped connection holds it for a while).
window.addEventListener('pagehide', () => { if (mic.seat !== null) stop(true); });

// sing.js makes the connection; modules run in order, but wait in case it is not there yet.
(function attach(tries = 0) {
  const conn = connection();
  if (!conn) { if (tries < 100) setTimeout(() => attach(tries + 1), 50); return; }
  bind(conn);
  if (autoStart) start();
})();
