// One WebSocket to the room: hello/role, automatic reconnect with backoff, and a media
// clock extrapolated from the last `state`/`line` event so views animate smoothly.
//
// Connection state (every page gets it by connecting): while the server is unreachable a
// banner (`#connection-banner`, role=alert) says so, the clock stops at the last known position
// (`position()` no longer extrapolates), `body.offline` is set and every button, input and select
// is disabled; all of it is undone when the room answers again (its `hello` or first `state`).
// Events: `status` ({online, retryIn}) as before; `offline` ({since, retryIn}) and `online` ({})
// when the page changes state. `connection.online` is true while the room is reachable; pages
// that must not be disabled while offline put `data-keep-online` on the element.
export class RoomConnection {
  constructor({ role = 'display', pin = null, name = null, token = null } = {}) {
    this.wanted = { role, pin, name, token };
    this.role = 'display';
    this.song = null;
    // The last few songs shown, by id: a song's end-of-song results arrive after the next song
    // may already be loaded, and are shown with their own song's title and lines.
    this.recentSongs = new Map();
    this.state = null;
    this.library = [];
    this.results = [];
    this.anchor = { position: 0, at: performance.now() };
    this.handlers = new Map();
    this.backoff = 500;
    this.nextId = 1;
    this.connected = false;
    this.online = null; // unknown until the socket first opens or fails
    this.offlineSince = null;
    this.banner = null;
  }

  on(type, handler) {
    if (!this.handlers.has(type)) this.handlers.set(type, []);
    this.handlers.get(type).push(handler);
    return this;
  }

  emit(type, message) {
    for (const handler of this.handlers.get(type) || []) handler(message, this);
  }

  connect() {
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const ws = new WebSocket(`${scheme}://${location.host}/`, 'karaoke');
    this.ws = ws;
    ws.onopen = () => {
      this.connected = true;
      this.backoff = 500;
      if (this.banner) this.banner.textContent = 'Server found again — reconnecting…';
      this.emit('status', { online: true });
      // A host page on plain http first hears whether the room takes its PIN here at all
      // (a room served with TLS does not: anyone on the wifi could read it).
      this.secretsWait = location.protocol === 'http:' && (this.wanted.pin || this.wanted.token) && this.wanted.role === 'host';
      if (!this.secretsWait && (this.wanted.role !== 'display' || this.wanted.name)) this.hello();
    };
    ws.onmessage = (event) => {
      let message;
      try { message = JSON.parse(event.data); } catch { return; }
      this.receive(message);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.connected = false;
      this.goOffline(this.backoff);
      this.emit('status', { online: false, retryIn: this.backoff });
      const delay = this.backoff * (0.8 + Math.random() * 0.4);
      this.backoff = Math.min(this.backoff * 2, 8000);
      setTimeout(() => this.connect(), delay);
    };
    ws.onerror = () => ws.close();
  }

  // A host sends the PIN once; the server answers with a session token that later hellos
  // (reconnects) send instead.
  hello(role = this.wanted.role, pin = this.wanted.pin, name = this.wanted.name, token = this.wanted.token) {
    this.wanted = { role, pin, name, token };
    const message = { role };
    if (token && role === 'host') message.token = token;
    else if (pin) message.pin = pin;
    if (name) message.name = name;
    this.send('hello', message);
  }

  send(type, args = {}) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return null;
    const id = this.nextId++;
    this.ws.send(JSON.stringify({ type, id, ...args }));
    return id;
  }

  receive(message) {
    if (!this.online && (message.type === 'hello' || message.type === 'state')) this.goOnline();
    switch (message.type) {
      case 'hello':
        this.role = message.role;
        if (!message.songUnchanged) this.setSong(message.song);
        if (message.hostToken) this.wanted = { ...this.wanted, pin: null, token: message.hostToken };
        this.library = message.library || [];
        this.results = message.results || [];
        this.setState(message.state);
        this.secretsNeedTLS = !!message.secretsNeedTLS;
        if (message.secureRemote) this.secureRemote = message.secureRemote;
        this.certificate = message.certificate || null;
        if (this.secretsWait) {
          this.secretsWait = false;
          if (message.secretsNeedTLS) {
            // Never sent here: the page offers the https remote instead (the 'secure' event).
            this.wanted = { ...this.wanted, role: 'guest', pin: null, token: null };
            queueMicrotask(() => this.emit('secure', { url: this.secureRemote }));
            if (this.wanted.name) this.hello();
          } else {
            this.hello();
          }
        }
        break;
      case 'song':
        this.setSong(message.song);
        this.results = [];
        break;
      case 'state':
        this.setState(message);
        break;
      case 'line':
        this.anchor = { position: message.position, at: performance.now() };
        break;
      case 'library':
        this.library = message.songs;
        break;
      case 'lineScore':
        this.results.push(message);
        break;
      case 'queue':
        if (this.state) this.state.queue = message.queue;
        break;
    }
    this.emit(message.type, message);
    this.emit('any', message);
  }

  setSong(song) {
    this.song = song;
    if (!song) return;
    this.recentSongs.delete(song.id);
    this.recentSongs.set(song.id, song);
    if (this.recentSongs.size > 4) this.recentSongs.delete(this.recentSongs.keys().next().value);
  }

  // The song with this id if it was shown lately (the current one first), else null.
  songById(id) {
    if (this.song?.id === id) return this.song;
    return this.recentSongs.get(id) || null;
  }

  setState(state) {
    this.state = state;
    this.anchor = { position: state.position, at: performance.now() };
  }

  get playing() { return this.state?.transport === 'playing'; }

  // The server went away: freeze the clock where it was, say so, disable the controls.
  goOffline(retryIn) {
    if (this.online === false) { this.showBanner(retryIn); return; }
    this.anchor = { position: this.position(), at: performance.now() };
    this.online = false;
    this.offlineSince = Date.now();
    this.showBanner(retryIn);
    if (typeof document !== 'undefined') {
      document.body.classList.add('offline');
      for (const element of document.querySelectorAll('button, input, select, textarea')) {
        if (element.disabled || element.closest('[data-keep-online]')) continue;
        element.disabled = true;
        element.dataset.offlineDisabled = '';
      }
    }
    this.emit('offline', { since: this.offlineSince, retryIn });
  }

  goOnline() {
    const wasOffline = this.online === false;
    this.online = true;
    this.offlineSince = null;
    if (typeof document !== 'undefined') {
      document.body.classList.remove('offline');
      if (this.banner) this.banner.hidden = true;
      for (const element of document.querySelectorAll('[data-offline-disabled]')) {
        element.disabled = false;
        delete element.dataset.offlineDisabled;
      }
    }
    if (wasOffline) this.emit('online', {});
  }

  showBanner(retryIn) {
    if (typeof document === 'undefined') return;
    if (!this.banner) {
      this.banner = document.createElement('div');
      this.banner.id = 'connection-banner';
      this.banner.className = 'connection-banner';
      this.banner.setAttribute('role', 'alert');
      document.body.append(this.banner);
    }
    const seconds = Math.max(1, Math.round(retryIn / 1000));
    this.banner.textContent = `Can't reach the karaoke server — trying again in ${seconds} s. The lyrics here are stopped until it's back.`;
    this.banner.hidden = false;
  }

  // Media seconds now, extrapolated from the last anchor with tempo and A–B loop.
  position() {
    const state = this.state;
    if (!state) return 0;
    let position = this.anchor.position;
    if (state.transport === 'playing' && this.online !== false) {
      position += (performance.now() - this.anchor.at) / 1000 * state.tempo;
      const loop = state.loop;
      if (loop && this.anchor.position < loop.end && position >= loop.end) {
        position = loop.start + ((position - loop.end) % (loop.end - loop.start));
      }
    }
    return Math.min(Math.max(0, position), state.duration || position);
  }
}

export function formatTime(seconds) {
  if (!isFinite(seconds) || seconds < 0) seconds = 0;
  const m = Math.floor(seconds / 60);
  const s = Math.floor(seconds % 60);
  return `${m}:${String(s).padStart(2, '0')}`;
}

// The first six groups of a certificate's SHA-256 fingerprint: what a guest compares with the
// certificate details their browser shows (the TV and the remote say the same).
export function fingerprintStart(certificate) {
  return certificate.fingerprint.split(':').slice(0, 6).join(':');
}

export function formatKey(semitones) {
  return semitones > 0 ? `+${semitones}` : `${semitones}`;
}

// Shows the connection state in an element with class `status`, and "loading…" while the
// room decodes the song's audio (`state.loading`).
export function bindStatus(connection, element) {
  let online = null; // unknown until the socket first opens or closes: keep the page's text
  const show = () => {
    if (online === null) return;
    const loading = online && !!connection.state?.loading;
    element.textContent = !online ? 'reconnecting…' : loading ? 'loading…' : 'live';
    element.classList.toggle('offline', !online);
    element.classList.toggle('loading', loading);
  };
  connection.on('status', (status) => { online = status.online; show(); });
  connection.on('hello', show).on('state', show);
}

// Shows `element` while the room loads the current song.
export function bindLoading(connection, element) {
  const show = () => { element.hidden = !(connection.song && connection.state?.loading); };
  connection.on('hello', show).on('song', show).on('state', show);
}

// Page options from `?a=b` and `#a=b` (the fragment survives lws's `/remote` → `/remote/`
// redirect and is never sent to the server, so a PIN there stays out of logs).
export function pageParams() {
  const params = new URLSearchParams(location.search);
  for (const [key, value] of new URLSearchParams(location.hash.slice(1))) params.set(key, value);
  return params;
}
