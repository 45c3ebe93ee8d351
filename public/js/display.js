// Display (TV/projector): big lyrics that follow the room. Read-only: it never sends a command.
import { RoomConnection, pageParams, bindStatus, bindLoading } from './connection.js';
import { LyricsView } from './lyrics.js';

const $ = (id) => document.getElementById(id);
const part = Number(pageParams().get('part') || 0);
const connection = new RoomConnection({ role: 'display' });
window.karaoke = connection; // for the browser console and tests
const lyrics = new LyricsView($('lyrics'));

function showSong() {
  const song = connection.song;
  $('title').textContent = song ? song.title : 'Karaoke';
  $('artist').textContent = song ? song.artist : 'waiting for a song';
  lyrics.setSong(song, part);
}

connection.on('hello', showSong).on('song', showSong);
bindStatus(connection, $('status'));
bindLoading(connection, $('loading'));

function frame() {
  const t = connection.position();
  lyrics.update(t);
  const state = connection.state;
  const lines = connection.song?.parts[lyrics.part]?.lines || [];
  // The title shows until the first line is near.
  $('heading').classList.toggle('faded', !!lines.length && t > lines[0].start - 2);
  $('progress-fill').style.width = state?.duration ? `${Math.min(100, (t / state.duration) * 100)}%` : '0%';
  requestAnimationFrame(frame);
}

connection.connect();
requestAnimationFrame(frame);
