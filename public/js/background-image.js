// A song's background picture (UltraStar #BACKGROUND, background.* or "… [BG].jpg"), shown
// behind the lyrics when the song has no video; dimmed like the video so the lyrics stay
// readable. The server sends `song.background` only for songs without a video, from the same
// confined /media/ route.
// Usage: `new BackgroundImage(connection).start()`.

export class BackgroundImage {
  constructor(connection, { parent = document.body } = {}) {
    this.connection = connection;
    this.layer = document.createElement('div');
    this.layer.className = 'background-image';
    this.layer.hidden = true;
    this.layer.setAttribute('aria-hidden', 'true');
    this.picture = document.createElement('div');
    this.picture.className = 'background-image-picture';
    const dim = document.createElement('div');
    dim.className = 'background-image-dim';
    this.layer.append(this.picture, dim);
    parent.prepend(this.layer);
    this.url = null;
  }

  start() {
    for (const event of ['hello', 'song']) this.connection.on(event, () => this.sync());
    this.sync();
    return this;
  }

  // The picture the current song names, or none (a video or CDG graphics take its place).
  source() {
    const song = this.connection.song;
    if (!song || song.video || song.cdg) return null;
    const url = song.background;
    return typeof url === 'string' && /^\/media\/[0-9a-f]+\.(jpe?g|png|webp)$/.test(url) ? url : null;
  }

  sync() {
    const url = this.source();
    if (url === this.url) return;
    this.url = url;
    // The URL is a server token of hex digits and an extension (checked above): safe in url("…").
    this.picture.style.backgroundImage = url ? `url("${url}")` : '';
    this.layer.hidden = !url;
    document.body.classList.toggle('has-background-image', Boolean(url));
  }
}
