// Songs tab: the server searches (case and accents folded, every word in title or artist) and
// answers page by page with the total; browse by artist letter; duet / notes filters.
const $ = (id) => document.getElementById(id);
const PAGE = 50;
const number = (n) => n.toLocaleString('en-US');
const formatNames = { ultraStar: 'UltraStar', lrc: 'LRC', webVTT: 'WebVTT', jsonCues: 'JSON', flo: 'FLO', cdg: 'MP3+G' };

export class SongsTab {
  constructor(connection, { act, isHost, singerName }) {
    this.connection = connection;
    this.act = act;
    this.isHost = isHost;
    this.singerName = singerName;
    this.filters = { duet: null, hasNotes: null, artist: null };
    this.songs = [];
    this.total = 0;
    this.pending = null;
    this.letter = null;
    this.queuedIds = new Set();
    $('search').addEventListener('input', () => {
      clearTimeout(this.typing);
      this.typing = setTimeout(() => this.request(), 150);
    });
    $('sort').addEventListener('change', () => this.request());
    this.chip('filter-duet', () => { this.filters.duet = this.filters.duet ? null : true; });
    this.chip('filter-notes', () => { this.filters.hasNotes = this.filters.hasNotes ? null : true; });
    $('browse-artists').addEventListener('click', () => this.toggleArtists());
    $('artist-clear').addEventListener('click', () => { this.filters.artist = null; this.request(); });
    $('library-more').addEventListener('click', () => this.request(this.songs.length));
    connection.on('library', (page) => this.receive(page));
    connection.on('artists', (answer) => this.showArtists(answer));
  }

  chip(id, toggle) {
    $(id).addEventListener('click', () => {
      toggle();
      $(id).setAttribute('aria-pressed', String($(id).getAttribute('aria-pressed') !== 'true'));
      this.request();
    });
  }

  query() {
    const query = { query: $('search').value.trim(), sort: $('sort').value };
    if (!query.query && query.sort === 'relevance') query.sort = this.filters.artist ? 'year' : 'title';
    for (const [key, value] of Object.entries(this.filters)) if (value != null) query[key] = value;
    return query;
  }

  // Asks for the page at `offset` (0 = a new search); answers to older requests are ignored.
  request(offset = 0) {
    const id = this.connection.send('library', { ...this.query(), offset, limit: PAGE });
    if (id != null) this.pending = { id, offset };
  }

  receive(page) {
    if (!this.pending || page.id !== this.pending.id) return;
    this.pending = null;
    this.songs = page.offset ? this.songs.concat(page.songs) : page.songs;
    this.total = page.total ?? page.songs.length;
    this.librarySize = page.librarySize ?? this.total;
    this.indexing = page.indexing ?? null;
    this.render();
  }

  // The server is still reading the library (a first start): how many songs so far; null when read.
  showIndexing(read) {
    if (read === this.indexing) return;
    this.indexing = read;
    this.render();
  }

  render() {
    const { songs, total } = this;
    const searching = $('search').value.trim() || Object.values(this.filters).some((v) => v != null);
    $('library-count').textContent = this.indexing != null ? `Reading your songs… ${number(this.indexing)} so far`
      : !this.librarySize ? 'The library is empty'
      : searching ? `${number(songs.length)} of ${number(total)} matching songs (library: ${number(this.librarySize)})`
        : `${number(songs.length)} of ${number(total)} songs`;
    $('artist-filter').hidden = !this.filters.artist;
    $('artist-name').textContent = this.filters.artist || '';
    const list = $('library');
    list.replaceChildren(...songs.map((song) => this.row(song)));
    if (!songs.length && this.librarySize && this.indexing == null) {
      const item = document.createElement('li');
      item.className = 'muted';
      item.textContent = 'No song matches';
      list.append(item);
    }
    $('library-more').hidden = songs.length >= total;
    $('library-more').textContent = `Show ${number(Math.min(PAGE, total - songs.length))} more`;
  }

  row(song) {
    const item = document.createElement('li');
    item.className = song.error ? 'broken' : '';
    const text = document.createElement('div');
    text.className = 'text';
    const title = document.createElement('strong');
    title.textContent = song.title;
    const about = document.createElement('small');
    about.textContent = song.error ? song.error
      : [song.artist, song.duet ? 'duet' : null, song.year, song.hasNotes ? null : song.formats?.includes('cdg') ? 'MP3+G graphics · not scored' : 'lyrics only'].filter(Boolean).join(' · ');
    text.append(title, about);
    item.append(this.cover(song));
    if (song.formats && song.formats.length > 1) {
      const formats = document.createElement('span');
      formats.className = 'formats';
      formats.textContent = song.formats.map((f) => formatNames[f] || f).join(' + ');
      text.append(formats);
    }
    item.append(text);
    if (!song.error) {
      const queue = document.createElement('button');
      queue.textContent = this.queuedIds.has(song.id) ? 'Queued ✓' : 'Queue';
      queue.dataset.songId = song.id;
      queue.addEventListener('click', () => {
        const name = this.singerName();
        if (this.act('queueAdd', { songId: song.id, requestedBy: name || undefined }) != null) queue.textContent = 'Sending…';
      });
      item.append(queue);
      if (this.isHost()) {
        const play = document.createElement('button');
        play.className = 'primary';
        play.textContent = 'Play';
        play.addEventListener('click', () => this.act('queueAdd', { songId: song.id, playNow: true }));
        item.append(play);
      }
    }
    return item;
  }

  // The cover thumbnail, loaded when the row nears the screen. The server makes it on first
  // demand and answers 503 until it is made: ask again a few times, a little later each time.
  cover(song) {
    if (!song.cover) {
      const none = document.createElement('span');
      none.className = 'cover none';
      none.textContent = '♪';
      return none;
    }
    const image = document.createElement('img');
    image.className = 'cover';
    image.alt = '';
    image.loading = 'lazy';
    image.decoding = 'async';
    let tries = 0;
    image.addEventListener('error', () => {
      if (++tries > 6) { image.removeAttribute('src'); return; }
      setTimeout(() => { image.src = `${song.cover}?try=${tries}`; }, 400 * tries);
    });
    image.src = song.cover;
    return image;
  }

  // A request was confirmed: its button says so.
  confirmed(songId) {
    this.queuedIds.add(songId);
    for (const button of document.querySelectorAll('#library button[data-song-id]')) {
      if (button.dataset.songId === songId) button.textContent = 'Queued ✓';
    }
  }

  failed() {
    for (const button of document.querySelectorAll('#library button[data-song-id]')) {
      if (button.textContent === 'Sending…') button.textContent = this.queuedIds.has(button.dataset.songId) ? 'Queued ✓' : 'Queue';
    }
  }

  toggleArtists() {
    const open = $('browse-artists').getAttribute('aria-pressed') !== 'true';
    $('browse-artists').setAttribute('aria-pressed', String(open));
    $('letters').hidden = !open;
    $('artists').hidden = !open;
    if (open) this.connection.send('artists', this.letter ? { letter: this.letter } : {});
  }

  showArtists(answer) {
    const letters = $('letters');
    letters.replaceChildren(...answer.letters.map((letter) => {
      const button = document.createElement('button');
      button.textContent = letter;
      button.setAttribute('aria-pressed', String(letter === answer.letter));
      button.addEventListener('click', () => { this.letter = letter; this.connection.send('artists', { letter }); });
      return button;
    }));
    const list = $('artists');
    if (!answer.letter) {
      list.replaceChildren();
      const hint = document.createElement('li');
      hint.className = 'muted';
      hint.textContent = `${number(answer.artists.length)} artists — pick a letter`;
      list.append(hint);
      return;
    }
    list.replaceChildren(...answer.artists.map((artist) => {
      const item = document.createElement('li');
      const button = document.createElement('button');
      button.className = 'secondary';
      button.textContent = 'Songs';
      const text = document.createElement('div');
      text.className = 'text';
      text.innerHTML = '<strong></strong><small></small>';
      text.querySelector('strong').textContent = artist.name;
      text.querySelector('small').textContent = `${artist.songs} song${artist.songs === 1 ? '' : 's'}`;
      const choose = () => {
        this.filters.artist = artist.name;
        this.toggleArtists();
        this.request();
      };
      button.addEventListener('click', choose);
      text.addEventListener('click', choose);
      item.append(text, button);
      return item;
    }));
  }
}
