// The venue: every live room of the shared store (free or busy, what plays, a join link) and
// the venue-wide boards. Reads /venue.json, which the room rewrites every few seconds.
const $ = (id) => document.getElementById(id);
const POLL_MS = 5000;

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

// Join URLs come from other rooms through the database: only plain web links become links.
function safeLink(url) {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
  } catch { return null; }
}

function fill(list, items, empty, render) {
  list.replaceChildren();
  if (!items.length) { list.append(el('li', 'muted', empty)); return; }
  items.forEach((item, index) => list.append(render(item, index)));
}

function row(rank, main, detail, points) {
  const li = el('li');
  li.append(el('span', 'rank', `${rank}.`));
  const text = el('span', 'text');
  text.append(el('strong', '', main), el('small', '', detail));
  li.append(text, el('span', 'points', String(points)));
  return li;
}

function showRooms(rooms) {
  fill($('rooms'), rooms, 'No room has checked in during the last 30 s', (room) => {
    const li = el('li', 'room');
    const head = el('div', 'room-head');
    head.append(el('span', 'room-name', room.name), el('span', `pill ${room.busy ? 'busy' : 'free'}`, room.busy ? 'Busy' : 'Free'));
    li.append(head, el('div', 'playing', room.nowPlaying ? `♪ ${room.nowPlaying}` : 'Nothing playing'));
    const href = safeLink(room.joinURL);
    if (href) {
      const join = el('a', 'join', 'Join');
      join.href = href;
      join.setAttribute('aria-label', `Join ${room.name}`);
      li.append(join);
    }
    return li;
  });
}

const where = (entry) => [entry.songTitle, entry.room && `in ${entry.room}`].filter(Boolean).join(' · ');

function show(venue) {
  $('served-by').textContent = `${venue.rooms.length} room${venue.rooms.length === 1 ? '' : 's'} live · this page from ${venue.servedBy}`;
  showRooms(venue.rooms);
  fill($('this-week'), venue.thisWeek, 'No complete runs this week', (e, i) => row(i + 1, e.singer, where(e), e.score));
  fill($('singers'), venue.singers, 'No singers yet', (s, i) =>
    row(i + 1, s.singer, `best: ${s.bestSong} · ${s.runs} run${s.runs === 1 ? '' : 's'}${s.rooms.length ? ` · ${s.rooms.join(', ')}` : ''}`, s.best));
  fill($('songs'), venue.songs, 'No songs sung yet', (e, i) => row(i + 1, e.songTitle, `${e.singer}${e.room ? ` in ${e.room}` : ''}`, e.score));
  fill($('best'), venue.best, 'No complete runs yet', (e, i) => row(i + 1, e.singer, where(e), e.score));
}

function setStatus(text, kind) {
  const status = $('status');
  status.textContent = text;
  status.className = `status ${kind || ''}`.trim();
}

async function refresh() {
  try {
    const response = await fetch('/venue.json', { cache: 'no-store' });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const venue = await response.json();
    show(venue);
    if (venue.storeReachable) setStatus('live');
    else setStatus('venue database unreachable — last known', 'loading');
  } catch {
    setStatus('server unreachable', 'offline');
  }
}

refresh();
setInterval(refresh, POLL_MS);
window.karaokeVenue = { refresh }; // for tests
