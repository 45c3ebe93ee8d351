// An MP3+G song's graphics on a canvas, driven by the room clock: each frame decodes the CDG
// packets up to clock × 300 (a seek back replays from the start). Shown in place of the lyrics
// (body.cdg-song hides them: a CDG song has no text or notes and is not scored).
// Usage: `new CDGView(connection, { parent, offset }).start()`.
import { CDGDecoder, WIDTH, HEIGHT, PACKETS_PER_SECOND } from './cdg.js';

export class CDGView {
  constructor(connection, { parent = document.body, offset = 0 } = {}) {
    this.connection = connection;
    this.offset = offset;
    this.box = document.createElement('div');
    this.box.className = 'cdg-stage';
    this.box.hidden = true;
    this.canvas = document.createElement('canvas');
    this.canvas.width = WIDTH;
    this.canvas.height = HEIGHT;
    this.canvas.setAttribute('aria-label', 'karaoke graphics (CD+G)');
    this.box.append(this.canvas);
    parent.append(this.box);
    this.context = this.canvas.getContext('2d');
    this.image = this.context.createImageData(WIDTH, HEIGHT);
    this.decoder = new CDGDecoder();
    this.url = null;
    this.bytes = null;
    this.drawn = -1;
  }

  start() {
    for (const event of ['hello', 'song']) this.connection.on(event, () => this.follow());
    this.follow();
    const frame = () => { this.draw(); requestAnimationFrame(frame); };
    requestAnimationFrame(frame);
    return this;
  }

  // Loads the current song's graphics, or hides the canvas when it has none.
  follow() {
    const url = this.connection.song?.cdg;
    const wanted = typeof url === 'string' && url.startsWith('/media/') ? url : null;
    document.body.classList.toggle('cdg-song', !!wanted);
    this.box.hidden = !wanted;
    if (wanted === this.url) return;
    this.url = wanted;
    this.bytes = null;
    this.decoder.reset();
    this.drawn = -1;
    if (!wanted) return;
    fetch(wanted).then((response) => {
      if (!response.ok) throw new Error(`${response.status}`);
      return response.arrayBuffer();
    }).then((buffer) => {
      if (this.url === wanted) this.bytes = new Uint8Array(buffer);
    }).catch((error) => {
      this.box.dataset.error = `cannot load the graphics (${error.message})`;
    });
  }

  // The packet the clock is at; the picture is redrawn only when it changed.
  draw() {
    if (!this.bytes) return;
    const packet = Math.max(0, Math.floor((this.connection.position() + this.offset) * PACKETS_PER_SECOND));
    if (packet === this.drawn) return;
    this.decoder.seek(this.bytes, packet);
    this.decoder.render(this.image.data);
    this.context.putImageData(this.image, 0, 0);
    this.drawn = packet;
  }
}
