// To 24 kHz from a phone's capture rate (44.1 or 48 kHz, or 24 kHz as is), for the phone-mic
// page and its AudioWorklet: a Kaiser-windowed sinc, passing to 10 kHz and stopping from
// 12 kHz at about -80 dB. Output sample k is the input at time k / 24000 on the input's own
// clock (input sample j is at j / inputRate), so indices need no rounding. (The one-pole
// low-pass and linear interpolation used before left 15 kHz sound at 9 kHz, -6 dB at 48 kHz:
// sound the room's bleed reference does not have.)
export const TARGET_RATE = 24000;
const PASS_HZ = 10000;
const STOP_HZ = 12000;
const ATTENUATION_DB = 80;
const TABLE_STEPS = 128; // kernel table points per input sample (linear interpolation between)

function besselI0(x) {
  let sum = 1, term = 1;
  for (let k = 1; k < 40; k++) { term *= (x / (2 * k)) ** 2; sum += term; }
  return sum;
}

export class Resampler {
  constructor(inputRate) {
    this.inputRate = inputRate;
    this.ratio = inputRate / TARGET_RATE; // input samples per output sample
    this.nextOutput = null;
    if (this.ratio === 1) return;
    const beta = 0.1102 * (ATTENUATION_DB - 8.7);
    const transition = (2 * Math.PI * (STOP_HZ - PASS_HZ)) / inputRate;
    this.halfWidth = Math.ceil((ATTENUATION_DB - 7.95) / (2.285 * transition) / 2);
    const cutoff = (PASS_HZ + STOP_HZ) / 2 / inputRate; // cycles per input sample
    const points = this.halfWidth * TABLE_STEPS;
    this.kernel = new Float32Array(points + 2);
    const norm = besselI0(beta);
    for (let n = 0; n <= points; n++) {
      const t = n / TABLE_STEPS;
      const x = 2 * cutoff * t;
      const sinc = t === 0 ? 1 : Math.sin(Math.PI * x) / (Math.PI * x);
      const r = t / this.halfWidth;
      this.kernel[n] = 2 * cutoff * sinc * besselI0(beta * Math.sqrt(Math.max(0, 1 - r * r))) / norm;
    }
    let size = 1;
    while (size < 2 * this.halfWidth + 4096) size <<= 1;
    this.ring = new Float32Array(size);
    this.mask = size - 1;
  }

  // Forget the past (the input jumped): the next block starts afresh.
  restart() {
    this.nextOutput = null;
    if (this.ring) this.ring.fill(0);
  }

  // `input` starts at input index `first`; calls emit(value, outputIndex) for every 24 kHz
  // sample that is complete. Blocks must follow each other (first = previous first + length)
  // unless restart() was called; at most 4096 samples per block.
  process(input, first, emit) {
    if (this.ratio === 1) {
      for (let i = 0; i < input.length; i++) emit(input[i], first + i);
      return;
    }
    for (let i = 0; i < input.length; i++) this.ring[(first + i) & this.mask] = input[i];
    if (this.nextOutput === null) this.nextOutput = Math.ceil((first + this.halfWidth) / this.ratio);
    // Output k needs the input up to k·ratio + halfWidth.
    const last = first + input.length - 1;
    while (this.nextOutput * this.ratio + this.halfWidth <= last) {
      emit(this.sample(this.nextOutput * this.ratio), this.nextOutput);
      this.nextOutput++;
    }
  }

  // The windowed-sinc value at input position `at` (fractional).
  sample(at) {
    const centre = Math.floor(at);
    let sum = 0;
    for (let j = centre - this.halfWidth + 1; j <= centre + this.halfWidth; j++) {
      const t = Math.abs(at - j) * TABLE_STEPS;
      const n = t | 0;
      if (n >= this.kernel.length - 1) continue;
      const h = this.kernel[n] + (this.kernel[n + 1] - this.kernel[n]) * (t - n);
      sum += h * this.ring[j & this.mask];
    }
    return sum;
  }
}

// Cuts 24 kHz samples into 10 ms frames of 16-bit samples, each with the index of its first
// sample; a jump in the index starts a new frame (a frame never straddles one).
// Allocation-free: every frame goes out in the same message object and buffer, so `send` must
// use or copy them before it returns (postMessage copies; the page's sendFrame copies). In the
// AudioWorklet a new buffer, message and transfer list per frame was garbage on the real-time
// audio thread: about 90 s into a stream V8's memory-reducing GC of the worklet's isolate then
// held that thread for ~1 s, the context stopped, the frames stopped ("network unstable") and
// Chromium's capture queue kept the backlog: +70-100 ms of capture path (docs/phone-mics.md).
export const FRAME = 240;
export class Framer {
  constructor(send) {
    this.send = send;
    this.frame = new Int16Array(FRAME);
    this.message = { index: 0, pcm: this.frame.buffer };
    this.filled = 0;
    this.firstIndex = 0;
  }

  reset() { this.filled = 0; }

  push(value, index) {
    if (this.filled > 0 && index !== this.firstIndex + this.filled) this.filled = 0;
    if (this.filled === 0) this.firstIndex = index;
    const clipped = Math.max(-1, Math.min(1, value));
    this.frame[this.filled++] = clipped < 0 ? clipped * 32768 : clipped * 32767;
    if (this.filled === FRAME) {
      this.message.index = this.firstIndex;
      this.send(this.message);
      this.filled = 0;
    }
  }
}
