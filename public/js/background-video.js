// A song's background video (UltraStar #VIDEO, or video.* in its folder), played muted behind
// the lyrics and slaved to the room clock: video time = media time + gap (#VIDEOGAP). It
// follows play/pause, seeks and tempo (playbackRate); when it drifts more than DRIFT_LIMIT
// from the clock it is put back with a seek. A dim layer keeps the lyrics readable over it.
// Usage: `new BackgroundVideo(connection, { offset }).start()`; the room clock is
// `connection.position()`, `offset` seconds are added (the display's TV-lag setting).

export const DRIFT_LIMIT = 0.08;
const CHECK_MS = 200;

export class BackgroundVideo {
  constructor(connection, { offset = 0, parent = document.body } = {}) {
    this.connection = connection;
    this.offset = offset;
    this.layer = document.createElement('div');
    this.layer.className = 'background-video';
    this.layer.hidden = true;
    this.video = document.createElement('video');
    this.video.muted = true;
    this.video.defaultMuted = true;
    this.video.playsInline = true;
    this.video.preload = 'auto';
    this.video.setAttribute('aria-hidden', 'true');
    const dim = document.createElement('div');
    dim.className = 'background-video-dim';
    this.layer.append(this.video, dim);
    parent.prepend(this.layer);
    this.url = null;
    this.corrections = 0;
    this.video.addEventListener('loadedmetadata', () => this.sync());
    this.video.addEventListener('seeked', () => this.sync());
  }

  start() {
    for (const event of ['hello', 'song', 'state', 'line']) this.connection.on(event, () => this.sync());
    this.timer = setInterval(() => this.sync(), CHECK_MS);
    this.sync();
    return this;
  }

  // The video the current song names, or none.
  source() {
    const video = this.connection.song?.video;
    return video && typeof video.url === 'string' && video.url.startsWith('/media/') ? video : null;
  }

  // Where the video should be now, in its own seconds.
  target(video) {
    return this.connection.position() + this.offset + (Number(video.gap) || 0);
  }

  sync() {
    const video = this.source();
    const element = this.video;
    if (!video) {
      if (this.url) {
        this.url = null;
        element.pause();
        element.removeAttribute('src');
        element.load();
      }
      this.layer.hidden = true;
      document.body.classList.remove('has-background-video');
      return;
    }
    if (video.url !== this.url) {
      this.url = video.url;
      element.src = video.url;
      this.layer.hidden = false;
      document.body.classList.add('has-background-video');
    }
    if (element.readyState < 1 || element.seeking) return;
    const state = this.connection.state;
    const duration = Number.isFinite(element.duration) ? element.duration : Infinity;
    const wanted = Math.min(Math.max(0, this.target(video)), duration);
    const running = state?.transport === 'playing' && this.connection.online !== false
      && this.target(video) >= 0 && wanted < duration;
    const rate = Math.min(4, Math.max(0.25, Number(state?.tempo) || 1));
    if (element.playbackRate !== rate) element.playbackRate = rate;
    const drift = element.currentTime - wanted;
    if (Math.abs(drift) > (running ? DRIFT_LIMIT : 0.02)) {
      this.corrections += 1;
      element.currentTime = wanted;
    }
    if (running && element.paused) {
      element.play().catch(() => {}); // a muted video may autoplay; if not, it stays a still
    } else if (!running && !element.paused) {
      element.pause();
    }
  }
}
