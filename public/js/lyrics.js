// Lyric lines of one part: the focused line stays centred, the current line is
// highlighted and its syllables fill as they are sung.
export class LyricsView {
  constructor(container, { onTap = null, follow = true } = {}) {
    this.container = container;
    this.onTap = onTap;
    this.follow = follow;
    this.lines = [];
    this.elements = [];
    this.focus = -1;
    this.part = 0;
    this.userScrolling = false;
  }

  setSong(song, part = 0) {
    this.part = song && song.parts[part] ? part : 0;
    this.lines = song ? song.parts[this.part].lines : [];
    this.container.replaceChildren();
    this.elements = this.lines.map((line, index) => {
      const element = document.createElement('div');
      element.className = 'line';
      element.dataset.index = index;
      element.dataset.start = line.start.toFixed(2);
      element.syllableSpans = line.syllables.map((syllable) => {
        const span = LyricsView.syllableSpan(syllable);
        element.append(span);
        return span;
      });
      // Background vocals: a second, smaller line filled as they are sung; translation and
      // romanisation under it, shown as the room's setting says (never sung, never scored).
      if (line.background) {
        const background = document.createElement('div');
        background.className = 'background-vocals';
        element.backgroundSpans = line.background.syllables.map((syllable) => {
          const span = LyricsView.syllableSpan(syllable);
          background.append(span);
          return span;
        });
        element.append(background);
      }
      for (const kind of ['translation', 'romanization']) {
        if (!line[kind]) continue;
        const companion = document.createElement('div');
        companion.className = `companion ${kind}`;
        companion.textContent = line[kind];
        element.append(companion);
      }
      if (this.onTap) element.addEventListener('click', () => this.onTap(index, line));
      this.container.append(element);
      return element;
    });
    if (!song) {
      const empty = document.createElement('div');
      empty.className = 'line empty';
      empty.textContent = this.emptyText || 'No song loaded';
      this.container.append(empty);
    }
    this.focus = -1;
  }

  static syllableSpan(syllable) {
    const span = document.createElement('span');
    span.className = 'syllable';
    if (syllable.note && syllable.note.kind.startsWith('golden')) span.classList.add('golden');
    span.textContent = syllable.text;
    span.dataset.text = syllable.text;
    return span;
  }

  // Which companion line shows under lines that have one: 'off', 'translation' or 'romanization'.
  setCompanions(mode) {
    this.container.dataset.companions = mode || 'off';
  }

  // The page's own `#companions=` fragment wins; else the room's setting (host), else translation.
  static companionsFor(params, state) {
    const modes = ['off', 'translation', 'romanization'];
    const own = params.get('companions');
    if (modes.includes(own)) return own;
    return modes.includes(state?.lyricCompanions) ? state.lyricCompanions : 'translation';
  }

  static fill(spans, syllables, t) {
    for (let i = 0; i < syllables.length; i++) {
      const s = syllables[i];
      const progress = t >= s.end ? 1 : t <= s.start ? 0 : (t - s.start) / (s.end - s.start);
      const value = `${(progress * 100).toFixed(1)}%`;
      if (spans[i].shownProgress !== value) {
        spans[i].shownProgress = value;
        spans[i].style.setProperty('--p', value);
        spans[i].classList.toggle('sung', progress >= 1);
      }
    }
  }

  static leadIn = 3;
  static gapForLeadIn = 3;

  // Index of the line containing `t`, else the next one to come, else the last.
  static focusIndex(lines, t) {
    let low = 0, high = lines.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (lines[mid].start <= t) low = mid + 1; else high = mid;
    }
    const started = low - 1;
    if (started >= 0 && t < lines[started].end) return started;
    if (started + 1 < lines.length) return started + 1;
    return lines.length - 1;
  }

  update(t) {
    if (!this.lines.length) return;
    const focus = LyricsView.focusIndex(this.lines, t);
    if (focus !== this.focus) {
      if (this.focus >= 0 && this.elements[this.focus]) this.elements[this.focus].classList.remove('current');
      for (let i = 0; i < this.elements.length; i++) {
        this.elements[i].classList.toggle('past', i < focus);
        this.elements[i].classList.toggle('next', i === focus + 1);
      }
      this.elements[focus].classList.add('current');
      this.focus = focus;
      this.container.dataset.current = focus;
      if (this.follow && !this.userScrolling) this.centre(focus);
    }
    const line = this.lines[focus];
    const element = this.elements[focus];
    element.classList.toggle('active', t >= line.start && t < line.end);
    // Lead-in after a gap (or before the first line): dots counting down the last 3 s.
    const previousEnd = focus > 0 ? this.lines[focus - 1].end : -Infinity;
    const waiting = line.start - t;
    const leadin = waiting > 0 && waiting <= LyricsView.leadIn && line.start - previousEnd >= LyricsView.gapForLeadIn
      ? '●'.repeat(Math.ceil(waiting)) : '';
    if ((element.dataset.leadin || '') !== leadin) {
      if (leadin) element.dataset.leadin = leadin; else delete element.dataset.leadin;
    }
    LyricsView.fill(element.syllableSpans, line.syllables, t);
    if (line.background) LyricsView.fill(element.backgroundSpans, line.background.syllables, t);
  }

  centre(index, smooth = true) {
    const element = this.elements[index];
    if (!element) return;
    const top = element.offsetTop + element.offsetHeight / 2 - this.container.clientHeight / 2;
    this.container.scrollTo({ top, behavior: smooth ? 'smooth' : 'auto' });
  }

  // Line whose centre is nearest the container's centre (after the user scrolled).
  centredIndex() {
    const middle = this.container.scrollTop + this.container.clientHeight / 2;
    let best = -1, distance = Infinity;
    this.elements.forEach((element, index) => {
      const d = Math.abs(element.offsetTop + element.offsetHeight / 2 - middle);
      if (d < distance) { distance = d; best = index; }
    });
    return best;
  }

  // Scroll-and-release to jump: calls `onRelease(index)` when the user lets go.
  enableScrollToSeek(onRelease) {
    let releaseTimer = null;
    let touching = false;
    const begin = () => { this.userScrolling = true; this.container.classList.add('scrubbing'); clearTimeout(releaseTimer); };
    const release = () => {
      clearTimeout(releaseTimer);
      releaseTimer = setTimeout(() => {
        if (touching) return;
        const index = this.centredIndex();
        this.userScrolling = false;
        this.container.classList.remove('scrubbing');
        if (index >= 0 && index !== this.focus) onRelease(index);
        else this.centre(this.focus);
      }, 450);
    };
    this.container.addEventListener('touchstart', () => { touching = true; begin(); }, { passive: true });
    this.container.addEventListener('touchend', () => { touching = false; release(); }, { passive: true });
    this.container.addEventListener('wheel', () => { begin(); release(); }, { passive: true });
    this.container.addEventListener('pointerdown', (event) => { if (event.pointerType === 'mouse' && event.offsetX > this.container.clientWidth) begin(); });
    this.container.addEventListener('scroll', () => { if (this.userScrolling) release(); }, { passive: true });
  }
}
