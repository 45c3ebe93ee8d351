// The score screen shown after every song on `/` and `/display`: per singer the total, its
// split into notes / golden notes / line bonus, a rating title, the place on the song's
// leaderboard (which includes the run just sung), the best line and the line missed most.
// Built from the end-of-song `results` broadcast (its lines, final totals and leaderboard).
import { SINGER_COLOURS } from './notes.js';

// UltraStar Deluxe's ranks, by total out of 10 000.
const TITLES = [
  [9800, 'Ultrastar'], [9000, 'Superstar'], [8000, 'Lead Singer'], [7000, 'Rising Star'],
  [6000, 'Hopeful'], [4000, 'Wannabe'], [2000, 'Amateur'], [0, 'Tone Deaf'],
];

export function ratingTitle(total) {
  return TITLES.find(([floor]) => total >= floor)[1];
}

const number = (value) => Math.round(value).toLocaleString('en-US');

// Per singer: the figures the screen shows (pure: tested through the page).
export function summarise(results, song, singers = []) {
  const lineText = (score) => song?.parts[score.part]?.lines[score.line]?.text?.trim() || `line ${score.line + 1}`;
  return results.totals.map((total) => {
    // Judged lines only: a freestyle or rap-only line ("Ooh") is neither best nor worst.
    const lines = results.lines.filter((l) => l.singer === total.singer && l.maxScore > 0 && l.rating !== 'none');
    const sum = (key) => lines.reduce((a, l) => a + (l[key] ?? 0), 0);
    const share = (l) => l.score / l.maxScore;
    const best = lines.reduce((a, l) => (!a || share(l) > share(a) ? l : a), null);
    const worst = lines.reduce((a, l) => (!a || share(l) < share(a) ? l : a), null);
    const board = results.leaderboard || [];
    // The run just ended: the newest board row of this singer with this total.
    let rank = null, newest = '';
    board.forEach((entry, index) => {
      if (entry.singer === total.name && Math.round(entry.score) === Math.round(total.score) && entry.date >= newest) {
        rank = index + 1; newest = entry.date;
      }
    });
    return {
      singer: total.singer,
      name: total.name || singers.find((s) => s.singer === total.singer)?.name || `Singer ${total.singer + 1}`,
      total: total.score,
      difficulty: total.difficulty || null,
      notes: sum('notes'), golden: sum('golden'), bonus: sum('bonus'),
      title: ratingTitle(total.score),
      rank, boardSize: board.length,
      best: best && { text: lineText(best), percent: Math.round(share(best) * 100) },
      worst: worst && worst !== best && { text: lineText(worst), percent: Math.round(share(worst) * 100) },
    };
  });
}

export class ScoreScreen {
  constructor(element) {
    this.element = element;
    this.songId = null;
    this.shownAt = 0;
    element.hidden = true;
    element.addEventListener('click', () => this.hide());
  }

  get visible() { return !this.element.hidden; }

  show(results, song, singers) {
    const rows = summarise(results, song, singers).sort((a, b) => b.total - a.total);
    this.songId = results.songId;
    this.shownAt = performance.now();
    const element = this.element;
    element.replaceChildren();
    const heading = document.createElement('h1');
    heading.className = 'score-heading';
    heading.textContent = song && song.id === results.songId ? `Scores — ${song.title}` : 'Scores';
    element.append(heading);
    if (song?.artist && song.id === results.songId) {
      const artist = document.createElement('p');
      artist.className = 'score-artist';
      artist.textContent = song.artist;
      element.append(artist);
    }
    const cards = document.createElement('div');
    cards.className = 'score-cards';
    if (!rows.length) {
      const note = document.createElement('p');
      note.className = 'muted score-empty';
      note.textContent = 'Nobody was scored on this song.';
      cards.append(note);
    }
    for (const row of rows) {
      const card = document.createElement('section');
      card.className = 'score-card';
      card.dataset.singer = row.singer;
      card.style.setProperty('--colour', SINGER_COLOURS[row.singer % SINGER_COLOURS.length]);
      const rank = row.rank ? `#${row.rank} on this song's leaderboard` : row.boardSize ? `not in this song's top ${row.boardSize}` : 'not on the leaderboard';
      card.innerHTML = `
        <div class="score-name"></div>
        <div class="score-total"></div>
        <div class="score-title"></div>
        <div class="score-difficulty"></div>
        <dl class="score-split">
          <div><dt>Notes</dt><dd class="split-notes"></dd></div>
          <div><dt>Golden</dt><dd class="split-golden"></dd></div>
          <div><dt>Line bonus</dt><dd class="split-bonus"></dd></div>
        </dl>
        <div class="score-rank"></div>
        <div class="score-line best"></div>
        <div class="score-line worst"></div>`;
      card.querySelector('.score-name').textContent = row.name;
      card.querySelector('.score-total').textContent = number(row.total);
      card.querySelector('.score-title').textContent = row.title;
      // Seats may sing on different difficulties: each card says which it was judged on.
      card.querySelector('.score-difficulty').textContent = row.difficulty ? `on ${row.difficulty}` : '';
      card.querySelector('.split-notes').textContent = number(row.notes);
      card.querySelector('.split-golden').textContent = number(row.golden);
      card.querySelector('.split-bonus').textContent = number(row.bonus);
      card.querySelector('.score-rank').textContent = rank;
      card.querySelector('.best').textContent = row.best ? `Best line: “${row.best.text}” ${row.best.percent} %` : '';
      card.querySelector('.worst').textContent = row.worst ? `Missed most: “${row.worst.text}” ${row.worst.percent} %` : '';
      cards.append(card);
    }
    element.append(cards);
    const dismiss = document.createElement('p');
    dismiss.className = 'score-dismiss';
    dismiss.textContent = 'Closes by itself when the next song starts (or tap).';
    element.append(dismiss);
    element.hidden = false;
  }

  hide() { this.element.hidden = true; }

  // Hidden once the next song's singing is near, or after `seconds`.
  update(connection, seconds = 25) {
    if (!this.visible) return;
    const song = connection.song;
    const t = connection.position();
    const first = song?.parts.map((p) => p.lines[0]?.start ?? Infinity).reduce((a, b) => Math.min(a, b), Infinity);
    const nextSongNear = song && song.id !== this.songId && connection.playing && t > first - 3;
    const replayNear = song && song.id === this.songId && connection.playing && t > first - 3 && t < first + 5;
    if (nextSongNear || replayNear || performance.now() - this.shownAt > seconds * 1000) this.hide();
  }
}
