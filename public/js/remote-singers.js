// Settings → singers and microphones: name, duet part, difficulty (the seat's own or the
// room's), mic delay (with the measured figures in words), calibration and "hear myself".
const $ = (id) => document.getElementById(id);

// One row per seat, built once and then updated in place: a new state (a reading, a seat that
// changed, another part list) never replaces the controls under the host's fingers, and a field
// being edited keeps what is typed in it. Measured figures are filled in by showMicFigures.
export function showSingers(connection, act, toast) {
  const singers = connection.state?.singers || [];
  const container = $('singers');
  const roomLevel = connection.state?.difficulty || 'medium';
  const parts = connection.song?.parts || [];
  const seats = new Set(singers.map((singer) => String(singer.singer)));
  for (const row of [...container.children]) if (!seats.has(row.dataset.seat)) row.remove();
  singers.forEach((singer, index) => {
    let row = [...container.children].find((element) => element.dataset.seat === String(singer.singer));
    if (!row) row = seatRow(singer.singer, act, toast);
    if (container.children[index] !== row) container.insertBefore(row, container.children[index] || null);
    updateSeatRow(row, singer, parts, roomLevel, act);
  });
}

// The controls of seat `seat`; their handlers read the seat's latest state from `row.seat`.
function seatRow(seat, act, toast) {
  const row = document.createElement('div');
  row.className = 'control';
  row.dataset.seat = String(seat);
  const label = document.createElement('input');
  label.className = 'label singer-name';
  label.maxLength = 40;
  label.addEventListener('change', () => act('selectSinger', { singer: seat, part: row.seat.part, name: label.value }));
  const part = document.createElement('select');
  part.className = 'singer-part';
  part.addEventListener('change', () => act('selectSinger', { singer: seat, part: Number(part.value) }));
  const difficulty = document.createElement('select');
  difficulty.id = `difficulty-${seat}`;
  difficulty.className = 'singer-difficulty';
  for (const value of ['room', 'easy', 'medium', 'hard']) {
    const option = document.createElement('option');
    option.value = value;
    option.textContent = value[0].toUpperCase() + value.slice(1);
    difficulty.append(option);
  }
  difficulty.addEventListener('change', () => act('singerDifficulty', { singer: seat, level: difficulty.value }));
  const input = document.createElement('input');
  input.type = 'number'; input.min = 0; input.max = 1000; input.step = 5;
  input.id = `mic-delay-${seat}`;
  input.addEventListener('change', () => act('micDelay', { singer: seat, ms: Number(input.value) }));
  const unit = document.createElement('span');
  unit.className = 'value small';
  unit.textContent = 'ms';
  const calibrate = document.createElement('button');
  calibrate.id = `calibrate-${seat}`;
  calibrate.className = 'secondary';
  calibrate.textContent = 'Calibrate';
  calibrate.title = 'play test clicks and time their arrival at this microphone';
  calibrate.addEventListener('click', () => {
    if (act('calibrate', { singer: seat }) != null) {
      toast(`Calibrating ${row.seat.name}'s microphone: test clicks for a few seconds`);
    }
  });
  const figures = document.createElement('div');
  figures.className = 'mic-figures';
  figures.id = `mic-figures-${seat}`;
  figures.title = 'Output: how late the speakers play. Mic: how late this microphone is heard. '
    + 'Mic delay: what scoring allows for (room setting, calibration, or the server\'s default).';
  row.append(label, part, difficulty, input, unit, calibrate, figures);
  return row;
}

function updateSeatRow(row, singer, parts, roomLevel, act) {
  row.seat = singer;
  const seat = singer.singer;
  const label = row.querySelector('.singer-name');
  const part = row.querySelector('.singer-part');
  const difficulty = row.querySelector('.singer-difficulty');
  const input = row.querySelector(`#mic-delay-${seat}`);
  const editing = (element) => document.activeElement === element;
  if (!editing(label)) label.value = singer.name;
  label.setAttribute('aria-label', `name of singer ${seat + 1}`);
  // The part list: the song's parts in a duet, else one "Solo" (nothing to choose).
  const names = parts.length > 1 ? parts.map((p) => p.name) : ['Solo'];
  if (part.dataset.names !== JSON.stringify(names)) {
    part.dataset.names = JSON.stringify(names);
    part.replaceChildren(...names.map((name, index) => Object.assign(document.createElement('option'), { value: index, textContent: name })));
  }
  if (!editing(part)) part.value = Math.min(singer.part, Math.max(0, parts.length - 1));
  part.disabled = parts.length < 2;
  part.setAttribute('aria-label', `part sung by ${singer.name}`);
  // The seat's difficulty: "Room (medium)" follows the room's setting, the others are its own.
  difficulty.options[0].textContent = `Room (${roomLevel})`;
  if (!editing(difficulty)) difficulty.value = singer.difficulty || 'room';
  difficulty.setAttribute('aria-label', `difficulty for ${singer.name}`);
  // 0 means "not set here": the field stays empty and shows the delay in use (showMicFigures).
  if (!editing(input)) input.value = singer.micDelayMs || '';
  input.setAttribute('aria-label', `${singer.name} microphone delay in milliseconds`);
  row.querySelector(`#calibrate-${seat}`).setAttribute('aria-label', `${singer.name}: calibrate microphone delay`);
  // Only singers with a microphone the server can monitor carry `monitor`.
  const figures = row.querySelector('.mic-figures');
  replaceOrRemove(row, `#monitor-${seat}`, typeof singer.monitor === 'boolean' ? monitorSwitch(singer, act) : null, figures);
  replaceOrRemove(row, `#seat-notes-${seat}`, seatNotes(singer), null);
}

// Puts `element` where the row's element matching `selector` is (or before `before`), or takes
// that one away when there is none; an element that would look the same is left alone.
function replaceOrRemove(row, selector, element, before) {
  const old = row.querySelector(selector);
  if (!element) { old?.remove(); return; }
  if (old?.outerHTML === element.outerHTML) return;
  if (old) old.replaceWith(element);
  else row.insertBefore(element, before);
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
      let origin = micDelayOrigins[singer.micDelaySource] || singer.micDelaySource;
      // A phone whose timing moved since its calibration: the room follows the move until it re-calibrates.
      if (singer.micDelayMovedMs != null) origin += `, ${singer.micDelayMovedMs > 0 ? '+' : ''}${ms(singer.micDelayMovedMs)} moved since`;
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
