// CD+G (MP3+G karaoke) graphics decoder: 24-byte subcode packets, 300 a second, drawing a
// 300×216 screen of 16 palette colours in 6×12 tiles. No DOM here: `CDGDecoder` turns packets
// into palette indices and RGBA, so a test can check pixels without a canvas.
// Commands (byte 0 & 0x3F = 9, instruction = byte 1 & 0x3F, data = bytes 4–19 & 0x3F):
// MEMORY_PRESET 1, BORDER_PRESET 2, TILE_BLOCK 6, SCROLL_PRESET 20, SCROLL_COPY 24,
// DEFINE_TRANSPARENT 28 (ignored: nothing is drawn behind), LOAD_COLOR_TABLE_LO 30 / _HI 31,
// TILE_BLOCK_XOR 38.

export const WIDTH = 300;
export const HEIGHT = 216;
export const PACKET_SIZE = 24;
export const PACKETS_PER_SECOND = 300;
const TILE_W = 6;
const TILE_H = 12;

export class CDGDecoder {
  constructor() {
    this.pixels = new Uint8Array(WIDTH * HEIGHT);
    this.scratch = new Uint8Array(WIDTH * HEIGHT);
    this.palette = new Uint8Array(16 * 3);
    this.reset();
  }

  reset() {
    this.pixels.fill(0);
    this.palette.fill(0);
    this.borderColour = 0;
    this.hOffset = 0; // display offsets set by the scroll commands (0–5, 0–11 pixels)
    this.vOffset = 0;
    this.position = 0; // packets applied so far
  }

  // Applies packets [this.position, upTo) of `bytes` (a Uint8Array of the whole file).
  advance(bytes, upTo) {
    const last = Math.min(upTo, Math.floor(bytes.length / PACKET_SIZE));
    for (let p = this.position; p < last; p += 1) this.packet(bytes, p * PACKET_SIZE);
    this.position = Math.max(this.position, last);
  }

  packet(bytes, at) {
    if ((bytes[at] & 0x3f) !== 9) return;
    const data = bytes.subarray(at + 4, at + 20);
    switch (bytes[at + 1] & 0x3f) {
      case 1: this.memoryPreset(data[0] & 0x0f); break;
      case 2: this.borderPreset(data[0] & 0x0f); break;
      case 6: this.tileBlock(data, false); break;
      case 38: this.tileBlock(data, true); break;
      case 20: this.scroll(data, false); break;
      case 24: this.scroll(data, true); break;
      case 30: this.loadColours(data, 0); break;
      case 31: this.loadColours(data, 8); break;
      default: break;
    }
  }

  memoryPreset(colour) {
    this.pixels.fill(colour);
  }

  borderPreset(colour) {
    this.borderColour = colour;
    for (let y = 0; y < HEIGHT; y += 1) {
      for (let x = 0; x < WIDTH; x += 1) {
        if (x < TILE_W || x >= WIDTH - TILE_W || y < TILE_H || y >= HEIGHT - TILE_H) this.pixels[y * WIDTH + x] = colour;
      }
    }
  }

  tileBlock(data, xor) {
    const colour0 = data[0] & 0x0f;
    const colour1 = data[1] & 0x0f;
    const row = data[2] & 0x1f;
    const column = data[3] & 0x3f;
    if (row >= HEIGHT / TILE_H || column >= WIDTH / TILE_W) return; // off screen: ignored, as players do
    const x0 = column * TILE_W;
    const y0 = row * TILE_H;
    for (let y = 0; y < TILE_H; y += 1) {
      const bits = data[4 + y] & 0x3f;
      for (let x = 0; x < TILE_W; x += 1) {
        const colour = (bits >> (5 - x)) & 1 ? colour1 : colour0;
        const index = (y0 + y) * WIDTH + x0 + x;
        this.pixels[index] = xor ? this.pixels[index] ^ colour : colour;
      }
    }
  }

  // Moves the screen a tile left/right (h command 2/1) and/or up/down (v command 2/1); copy
  // wraps what leaves at one edge in at the other, preset fills it with `colour`.
  scroll(data, copy) {
    const colour = data[0] & 0x0f;
    const h = data[1] & 0x3f;
    const v = data[2] & 0x3f;
    this.hOffset = Math.min(TILE_W - 1, h & 0x07);
    this.vOffset = Math.min(TILE_H - 1, v & 0x0f);
    const dx = [0, TILE_W, -TILE_W, 0][(h & 0x30) >> 4];
    const dy = [0, TILE_H, -TILE_H, 0][(v & 0x30) >> 4];
    if (!dx && !dy) return;
    const from = this.pixels;
    const to = this.scratch;
    for (let y = 0; y < HEIGHT; y += 1) {
      for (let x = 0; x < WIDTH; x += 1) {
        let sx = x - dx;
        let sy = y - dy;
        const outside = sx < 0 || sx >= WIDTH || sy < 0 || sy >= HEIGHT;
        if (outside && !copy) { to[y * WIDTH + x] = colour; continue; }
        sx = (sx + WIDTH) % WIDTH;
        sy = (sy + HEIGHT) % HEIGHT;
        to[y * WIDTH + x] = from[sy * WIDTH + sx];
      }
    }
    this.scratch = from;
    this.pixels = to;
  }

  // Eight 12-bit colours, two 6-bit bytes each: RRRRGG GGBBBB.
  loadColours(data, first) {
    for (let i = 0; i < 8; i += 1) {
      const high = data[2 * i] & 0x3f;
      const low = data[2 * i + 1] & 0x3f;
      const r = (high >> 2) & 0x0f;
      const g = ((high & 0x03) << 2) | ((low >> 4) & 0x03);
      const b = low & 0x0f;
      this.palette.set([r * 17, g * 17, b * 17], (first + i) * 3);
    }
  }

  // The visible picture into `rgba` (WIDTH*HEIGHT*4): the border as it is, the inside shifted
  // by the scroll offsets.
  render(rgba) {
    const { pixels, palette, hOffset, vOffset } = this;
    for (let y = 0; y < HEIGHT; y += 1) {
      const inside = y >= TILE_H && y < HEIGHT - TILE_H;
      for (let x = 0; x < WIDTH; x += 1) {
        let index = y * WIDTH + x;
        if (inside && x >= TILE_W && x < WIDTH - TILE_W && (hOffset || vOffset)) {
          index = Math.min(HEIGHT - 1, y + vOffset) * WIDTH + Math.min(WIDTH - 1, x + hOffset);
        }
        const colour = pixels[index] * 3;
        const out = (y * WIDTH + x) * 4;
        rgba[out] = palette[colour];
        rgba[out + 1] = palette[colour + 1];
        rgba[out + 2] = palette[colour + 2];
        rgba[out + 3] = 255;
      }
    }
  }

  // Decodes to `packet` (a time × 300): forward from where it is, or from the start after a
  // seek back (the file has no keyframes; replaying four minutes takes a few milliseconds).
  seek(bytes, packet) {
    if (packet < this.position) this.reset();
    this.advance(bytes, packet);
  }
}
