// A song's background video (UltraStar #VIDEO, or video.* in its folder), played muted behind
// the lyrics and slaved to the room clock: video time = media time + gap (#VIDEOGAP). It
// follows play/pause, seeks and tempo (playbackRate); drift under DRIFT_LIMIT is steered out
// with a slightly faster or slower rate, more is put back with a seek. A dim layer keeps the lyrics readable over it.
// Usage: `new BackgroundVideo(connection, { offset }).start()`; the room clock is
// `connection.position()`, `offset` seconds are added (the display's TV-lag setting).

export const DRIFT_LIMIT = 0.08;
const NUDGE_FROM = 0.015;
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
    // How long the last seek took: a seek while playing aims that far ahead, so the picture
    // lands where the clock will be when it is ready instead of already behind.
    this.seekCost = 0;
    this.seekStarted = null;
    this.video.addEventListener('seeked', () => {
      if (this.seekStarted !== null) this.seekCost = Math.min(0.3, (performance.now() - this.seekStarted) / 1000);
      this.seekStarted = null;
      this.sync();
    });
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
    const tempo = Math.min(4, Math.max(0.25, Number(state?.tempo) || 1));
    const drift = element.currentTime - wanted;
    // Small drift is steered out by playing up to 5 % slower or faster (no visible jump);
    // past DRIFT_LIMIT the video is re-seeked.
    const nudge = running && Math.abs(drift) > NUDGE_FROM ? Math.min(1.05, Math.max(0.95, 1 - drift)) : 1;
    const rate = tempo * nudge;
    if (Math.abs(element.playbackRate - rate) > 1e-3) element.playbackRate = rate;
    if (Math.abs(drift) > (running ? DRIFT_LIMIT : 0.02)) {
      this.corrections += 1;
      this.seekStarted = performance.now();
      element.currentTime = Math.min(duration, running ? wanted + this.seekCost * tempo : wanted);
    }
    if (running && element.paused) {
      element.play().catch(() => {}); // a muted video may autoplay; if not, it stays a still
    } else if (!running && !element.paused) {
      element.pause();
    }
  }
}
