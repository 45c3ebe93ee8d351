// The remote's lyric list. It follows the song; a swipe only reads ahead: following pauses,
// the line at the centre is marked with a "Play from here" button (and its time), and only a
// tap on that button or on a line moves the room. After a few idle seconds the list follows
// the song again.
import { LyricsView } from './lyrics.js';
import { formatTime } from './connection.js';

export class RemoteLyrics extends LyricsView {
  constructor(container, marker, markerTime, { onSeekLine, idleSeconds = 4 }) {
    super(container, { onTap: (index) => { this.stopReading(); onSeekLine(index); } });
    this.marker = marker;
    this.markerTime = markerTime;
    this.idleSeconds = idleSeconds;
    this.reading = false;
    this.centred = -1;
    marker.addEventListener('click', () => {
      const index = this.centred;
      this.stopReading();
      if (index >= 0) onSeekLine(index);
    });
    // Only the user's own input starts reading mode; the list's own smooth scrolling never does.
    const begin = () => this.startReading();
    container.addEventListener('wheel', begin, { passive: true });
    container.addEventListener('touchstart', begin, { passive: true });
    container.addEventListener('keydown', begin);
    container.addEventListener('scroll', () => { if (this.reading) this.readAt(); }, { passive: true });
  }

  setSong(song, part = 0) {
    this.stopReading(false);
    super.setSong(song, part);
  }

  startReading() {
    if (!this.lines.length) return;
    this.reading = true;
    this.userScrolling = true;
    this.container.classList.add('reading');
    this.readAt();
  }

  // Marks the line nearest the centre and restarts the idle countdown.
  readAt() {
    const index = this.centredIndex();
    if (index !== this.centred) {
      this.elements[this.centred]?.classList.remove('centred');
      this.elements[index]?.classList.add('centred');
      this.centred = index;
    }
    if (index >= 0) {
      this.markerTime.textContent = formatTime(this.lines[index].start);
      this.marker.dataset.line = index;
      this.marker.hidden = false;
    }
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => this.stopReading(), this.idleSeconds * 1000);
  }

  stopReading(recentre = true) {
    clearTimeout(this.idleTimer);
    this.elements[this.centred]?.classList.remove('centred');
    this.centred = -1;
    this.reading = false;
    this.userScrolling = false;
    this.container.classList.remove('reading');
    this.marker.hidden = true;
    if (recentre && this.focus >= 0) this.centre(this.focus);
  }
}
