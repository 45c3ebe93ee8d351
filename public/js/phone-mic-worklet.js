// Captures the phone's microphone for the room: mono, at 24 kHz, cut into 10 ms frames of
// 16-bit samples, each with the index (on the context's audio clock, counted at 24 kHz) of its
// first sample. Posted to the page, which sends them.
//
// The page asks for a 24 kHz context (the browser's own resampler then does the work); a
// browser that runs the context at another rate (44.1 or 48 kHz) is resampled here with a
// Kaiser-windowed sinc (pass to 10 kHz, stop from 12 kHz, about -80 dB): output sample k is
// the input at context time k / 24000 exactly, so the index needs no rounding. (The one-pole
// low-pass and linear interpolation used before left 9 kHz aliases of 15 kHz sound at about
// -12 dB: sound the room's bleed reference does not have.)
const TARGET_RATE = 24000;
const FRAME = 240; // 10 ms: the detector sees a sound 10 ms sooner than with 20 ms frames
const PASS_HZ = 10000;
const STOP_HZ = 12000;
const ATTENUATION_DB = 80;
const TABLE_STEPS = 128; // kernel table points per input sample (linear interpolation between)

class PhoneMicCapture extends AudioWorkletProcessor {
  constructor() {
    super();
    this.ratio = sampleRate / TARGET_RATE; // input samples per output sample
    this.frame = new Int16Array(FRAME);
    this.filled = 0;
    this.firstIndex = null;
    // The context clock as this processor counts it (input samples). currentFrame is trusted
    // only when it disagrees the same way twice running: Chromium under load once reported a
    // block 128 frames early and the next one right again.
    this.nextInput = null;
    this.suspect = null;
    if (this.ratio !== 1) this.makeResampler();
  }

  makeResampler() {
    const beta = 0.1102 * (ATTENUATION_DB - 8.7);
    const transition = (2 * Math.PI * (STOP_HZ - PASS_HZ)) / sampleRate;
    this.halfWidth = Math.ceil((ATTENUATION_DB - 7.95) / (2.285 * transition) / 2);
    const cutoff = (PASS_HZ + STOP_HZ) / 2 / sampleRate; // cycles per input sample
    const points = this.halfWidth * TABLE_STEPS;
    this.kernel = new Float32Array(points + 2);
    const i0 = (x) => { // modified Bessel function of the first kind, order 0
      let sum = 1, term = 1;
      for (let k = 1; k < 40; k++) { term *= (x / (2 * k)) ** 2; sum += term; }
      return sum;
    };
    const norm = i0(beta);
    for (let n = 0; n <= points; n++) {
      const t = n / TABLE_STEPS;
      const x = 2 * cutoff * t;
      const sinc = t === 0 ? 1 : Math.sin(Math.PI * x) / (Math.PI * x);
      const r = t / this.halfWidth;
      this.kernel[n] = 2 * cutoff * sinc * i0(beta * Math.sqrt(Math.max(0, 1 - r * r))) / norm;
    }
    let size = 1;
    while (size < 2 * this.halfWidth + 256) size <<= 1;
    this.ring = new Float32Array(size);
    this.mask = size - 1;
    this.nextOutput = null;
  }

  process(inputs) {
    const channel = inputs[0] && inputs[0][0];
    if (!channel) return true;
    this.follow(currentFrame);
    const first = this.nextInput;
    this.nextInput += channel.length;
    if (this.ratio === 1) {
      for (let i = 0; i < channel.length; i++) this.push(channel[i], first + i);
      return true;
    }
    for (let i = 0; i < channel.length; i++) this.ring[(first + i) & this.mask] = channel[i];
    if (this.nextOutput === null) this.nextOutput = Math.ceil((first + this.halfWidth) / this.ratio);
    // Output k needs the input up to k·ratio + halfWidth.
    const last = this.nextInput - 1;
    while (this.nextOutput * this.ratio + this.halfWidth <= last) {
      this.push(this.sample(this.nextOutput * this.ratio), this.nextOutput);
      this.nextOutput++;
    }
    return true;
  }

  // The input position of this block: our own count, unless the context clock really moved.
  follow(frame) {
    if (this.nextInput === null || frame === this.nextInput) {
      if (this.nextInput === null) this.nextInput = frame;
      this.suspect = null;
      return;
    }
    const moved = frame - this.nextInput;
    if (this.suspect === moved) {
      this.restart(frame);
    } else {
      this.suspect = moved; // the same difference again next block if the move is real
    }
  }

  restart(frame) {
    this.nextInput = frame;
    this.suspect = null;
    this.filled = 0; // a partly filled frame would straddle the jump
    if (this.ring) { this.ring.fill(0); this.nextOutput = null; }
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

  push(value, index) {
    if (this.filled === 0) this.firstIndex = index;
    const clipped = Math.max(-1, Math.min(1, value));
    this.frame[this.filled++] = clipped < 0 ? clipped * 32768 : clipped * 32767;
    if (this.filled === FRAME) {
      const pcm = this.frame.slice(0);
      this.port.postMessage({ index: this.firstIndex, pcm: pcm.buffer }, [pcm.buffer]);
      this.filled = 0;
    }
  }
}

registerProcessor('phone-mic-capture', PhoneMicCapture);
