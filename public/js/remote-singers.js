// Settings → singers and microphones: name, duet part, difficulty (the seat's own or the
// room's), mic delay (with the measured figures in words), calibration and "hear myself".
const $ = (id) => document.getElementById(id);

// Measured figures change all the time; they are updated in place (showMicFigures), so a
// reading never rebuilds the controls under the host's fingers.
const measuredFields = ({ inputLatencyMs, effectiveMicDelayMs, micDelaySource, ...seat }) => seat;

export function showSingers(connection, act, toast) {
  const singers = connection.state?.singers || [];
  const container = $('singers');
  const roomLevel = connection.state?.difficulty || 'medium';
  const key = JSON.stringify([singers.map(measuredFields), connection.song?.parts.length || 0, roomLevel]);
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
    label.addEventListener('change', () => act('selectSinger', { singer: singer.singer, part: singer.part, name: label.value }));
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
    part.addEventListener('change', () => act('selectSinger', { singer: singer.singer, part: Number(part.value) }));
    const input = document.createElement('input');
    input.type = 'number'; input.min = 0; input.max = 1000; input.step = 5;
    // 0 means "not set here": the field stays empty and shows the delay in use (showMicFigures).
    input.value = singer.micDelayMs || '';
    input.id = `mic-delay-${singer.singer}`;
    input.setAttribute('aria-label', `${singer.name} microphone delay in milliseconds`);
    input.addEventListener('change', () => act('micDelay', { singer: singer.singer, ms: Number(input.value) }));
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
      if (act('calibrate', { singer: singer.singer }) != null) {
        toast(`Calibrating ${singer.name}'s microphone: test clicks for a few seconds`);
      }
    });
    row.append(label, part, difficultyChoice(singer, roomLevel, act), input, unit, calibrate);
    // Only singers with a microphone the server can monitor carry `monitor`.
    if (typeof singer.monitor === 'boolean') row.append(monitorSwitch(singer, act));
    const figures = document.createElement('div');
    figures.className = 'mic-figures';
    figures.id = `mic-figures-${singer.singer}`;
    figures.title = 'Output: how late the speakers play. Mic: how late this microphone is heard. '
      + 'Mic delay: what scoring allows for (room setting, calibration, or the server\'s default).';
    row.append(figures);
    const notes = seatNotes(singer);
    if (notes) row.append(notes);
    container.append(row);
  }
}

// The seat's difficulty: "Room (medium)" follows the room's setting, the others are its own.
function difficultyChoice(singer, roomLevel, act) {
  const select = document.createElement('select');
  select.id = `difficulty-${singer.singer}`;
  select.className = 'singer-difficulty';
  select.setAttribute('aria-label', `difficulty for ${singer.name}`);
  for (const [value, text] of [['room', `Room (${roomLevel})`], ['easy', 'Easy'], ['medium', 'Medium'], ['hard', 'Hard']]) {
    const option = document.createElement('option');
    option.value = value;
    option.textContent = text;
    select.append(option);
  }
  select.value = singer.difficulty || 'room';
  select.addEventListener('change', () => act('singerDifficulty', { singer: singer.singer, level: select.value }));
  return select;
}

// A phone seat says so, with its network status and a timing that moved since its calibration.
function seatNotes(singer) {
  if (singer.source !== 'phone') return null;
  const line = document.createElement('div');
  line.className = 'seat-notes';
  line.id = `seat-notes-${singer.singer}`;
  const parts = [`Phone · network ${singer.phoneStatus || 'unknown'}`];
  line.textContent = parts.join(' · ');
  return line;
}

// "Hear myself": the pressed state is the server's; a click asks for the opposite.
function monitorSwitch(singer, act) {
  const button = document.createElement('button');
  button.id = `monitor-${singer.singer}`;
  button.className = singer.monitorWaiting ? 'toggle waiting' : 'toggle';
  button.textContent = singer.monitorWaiting ? 'Hear myself · waiting for the mic' : 'Hear myself';
  button.title = singer.monitorWaiting
    ? 'the microphone or the speakers went away; you will hear yourself again when they are back'
    : 'play this microphone through the speakers';
  button.setAttribute('aria-pressed', String(singer.monitor));
  button.setAttribute('aria-label', `${singer.name}: hear myself${singer.monitorWaiting ? ' (waiting for the microphone)' : ''}`);
  button.addEventListener('click', () => act('monitor', { singer: singer.singer, on: !singer.monitor }));
  return button;
}

const micDelayOrigins = { room: 'room setting', calibrated: 'calibrated', default: 'default — calibrate' };

// "Output 31 ms · Mic 4 ms · Mic delay 140 ms (default — calibrate)" (explained in the card's
// hint); figures the server does not send are left out, and the line is hidden when there are none.
export function showMicFigures(state) {
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
    const calibrate = $(`calibrate-${singer.singer}`);
    if (calibrate) {
      calibrate.hidden = singer.effectiveMicDelayMs == null;
      calibrate.disabled = state.calibratingSinger != null || document.body.classList.contains('offline');
      calibrate.textContent = state.calibratingSinger === singer.singer ? 'Calibrating…' : 'Calibrate';
    }
  }
}
