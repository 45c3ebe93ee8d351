// UltraStar-style note lane: the focused line's reference notes as bars (pitch up,
// time across), a cursor at the current time, and each singer's live pitch trail.
const SINGER_COLOURS = ['#4fd1ff', '#ff6fb5', '#9dff6f', '#ffc94f'];

export class NoteLane {
  constructor(canvas) {
    this.canvas = canvas;
    this.context = canvas.getContext('2d');
    this.trails = new Map(); // singer → [{time, midi, hit}]
    this.key = 0;
  }

  addPitch(frame) {
    if (!this.trails.has(frame.singer)) this.trails.set(frame.singer, []);
    const trail = this.trails.get(frame.singer);
    trail.push(frame);
    if (trail.length > 600) trail.splice(0, trail.length - 600);
  }

  clearTrails() { this.trails.clear(); }

  // One lane: the line's notes and every singer's trail.
  draw(line, t, key) { this.drawLanes([{ line, singers: null }], t, key); }

  // Lanes stacked top to bottom (a duet: one per part), each `{line, singers}`: the part's
  // focused line and which singers' trails it shows (a predicate on the singer index, or null for all).
  drawLanes(lanes, t, key) {
    const canvas = this.canvas;
    const ratio = window.devicePixelRatio || 1;
    const width = canvas.clientWidth, height = canvas.clientHeight;
    if (canvas.width !== Math.round(width * ratio) || canvas.height !== Math.round(height * ratio)) {
      canvas.width = Math.round(width * ratio);
      canvas.height = Math.round(height * ratio);
    }
    const g = this.context;
    g.setTransform(ratio, 0, 0, ratio, 0, 0);
    g.clearRect(0, 0, width, height);
    const laneHeight = height / Math.max(1, lanes.length);
    lanes.forEach((lane, index) => {
      g.save();
      g.translate(0, index * laneHeight);
      g.beginPath(); g.rect(0, 0, width, laneHeight); g.clip();
      this.drawLane(lane.line, t, key, width, laneHeight, lane.singers);
      g.restore();
      if (index > 0) {
        g.strokeStyle = 'rgba(255,255,255,0.35)';
        g.lineWidth = 2;
        g.beginPath(); g.moveTo(0, index * laneHeight); g.lineTo(width, index * laneHeight); g.stroke();
      }
    });
  }

  drawLane(line, t, key, width, height, singers) {
    const g = this.context;
    if (!line) return;
    const notes = line.syllables.filter((s) => s.note && s.note.kind !== 'freestyle');
    if (!notes.length) return;

    const pitches = notes.map((s) => s.note.midi + key);
    const low = Math.min(...pitches) - 3, high = Math.max(...pitches) + 3;
    const from = line.start - 0.4, to = line.end + 0.4;
    const x = (time) => ((time - from) / (to - from)) * width;
    const rowHeight = height / (high - low + 1);
    const y = (midi) => height - (midi - low + 0.5) * rowHeight;

    // Semitone guide lines.
    g.strokeStyle = 'rgba(255,255,255,0.12)';
    g.lineWidth = 1;
    for (let m = Math.ceil(low); m <= high; m++) {
      g.beginPath(); g.moveTo(0, y(m)); g.lineTo(width, y(m)); g.stroke();
    }

    // Reference bars: outlined, golden ones gold with a star; the part of a bar a singer hit
    // fills in that singer's colour (from the pitch frames the server marked `hit`).
    const barHeight = Math.max(10, Math.min(rowHeight * 0.9, height / 9));
    const frameWidth = 0.02; // the server publishes every other 10 ms frame
    for (const syllable of notes) {
      const midi = syllable.note.midi + key;
      const kind = syllable.note.kind;
      const golden = kind.startsWith('golden');
      const left = x(syllable.start), right = x(syllable.end);
      const top = y(midi) - barHeight / 2, barWidth = Math.max(4, right - left - 2);
      const active = t >= syllable.start && t < syllable.end;
      g.fillStyle = golden ? 'rgba(255,201,79,0.28)' : kind === 'rap' ? 'rgba(180,140,255,0.3)' : 'rgba(255,255,255,0.16)';
      roundRect(g, left + 1, top, barWidth, barHeight, barHeight / 2);
      g.fill();
      g.save();
      g.clip();
      for (const [singer, trail] of this.trails) {
        if (singers && !singers(singer)) continue;
        g.fillStyle = SINGER_COLOURS[singer % SINGER_COLOURS.length];
        for (const frame of trail) {
          if (!frame.hit || frame.time < syllable.start || frame.time >= syllable.end || frame.time > t + 0.05) continue;
          g.fillRect(x(frame.time) - 0.5, top, Math.max(1.5, x(frame.time + frameWidth) - x(frame.time) + 1), barHeight);
        }
      }
      g.restore();
      g.lineWidth = golden ? 3 : 2;
      g.strokeStyle = golden ? '#ffc94f' : active ? '#ffffff' : 'rgba(255,255,255,0.55)';
      roundRect(g, left + 1, top, barWidth, barHeight, barHeight / 2);
      g.stroke();
      if (golden && barWidth > barHeight) {
        g.fillStyle = '#ffe27a';
        g.font = `${Math.round(barHeight * 0.8)}px system-ui, sans-serif`;
        g.textBaseline = 'middle';
        g.fillText('★', left + 1 + barHeight * 0.25, y(midi) + 1);
      }
    }

    // Pitch trails, folded into the octave nearest the reference (UltraStar ignores octaves):
    // a hit is a filled dot, a miss a hollow ring, in the singer's colour.
    const centre = (Math.min(...pitches) + Math.max(...pitches)) / 2;
    const dot = Math.max(3, barHeight * 0.22);
    for (const [singer, trail] of this.trails) {
      if (singers && !singers(singer)) continue;
      const colour = SINGER_COLOURS[singer % SINGER_COLOURS.length];
      g.fillStyle = colour;
      g.strokeStyle = colour;
      g.lineWidth = 1.5;
      for (const frame of trail) {
        if (frame.time < from || frame.time > Math.min(to, t + 0.05) || frame.midi == null) continue;
        let midi = frame.midi;
        while (midi - centre > 6) midi -= 12;
        while (centre - midi > 6) midi += 12;
        g.beginPath();
        g.arc(x(frame.time), y(midi), frame.hit ? dot : dot * 0.8, 0, Math.PI * 2);
        if (frame.hit) g.fill(); else g.stroke();
      }
    }

    // Time cursor.
    if (t >= from && t <= to) {
      g.strokeStyle = 'rgba(255,255,255,0.75)'; // not a singer's colour
      g.lineWidth = 2;
      g.beginPath(); g.moveTo(x(t), 0); g.lineTo(x(t), height); g.stroke();
    }
  }
}

function roundRect(g, x, y, w, h, r) {
  r = Math.min(r, w / 2, h / 2);
  g.beginPath();
  g.moveTo(x + r, y);
  g.arcTo(x + w, y, x + w, y + h, r);
  g.arcTo(x + w, y + h, x, y + h, r);
  g.arcTo(x, y + h, x, y, r);
  g.arcTo(x, y, x + w, y, r);
  g.closePath();
}

export { SINGER_COLOURS };
