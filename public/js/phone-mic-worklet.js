// Captures the phone's microphone for the room: mono, resampled to 24 kHz when the context
// runs at another rate, cut into 10 ms frames of 16-bit samples, each with the index (on the
// context's audio clock, at 24 kHz) of its first sample. Posted to the page, which sends them.
const TARGET_RATE = 24000;
const FRAME = 240; // 10 ms: the detector sees a sound 10 ms sooner than with 20 ms frames

class PhoneMicCapture extends AudioWorkletProcessor {
  constructor() {
    super();
    this.ratio = sampleRate / TARGET_RATE; // input samples per output sample
    this.frame = new Int16Array(FRAME);
    this.filled = 0;
    this.firstIndex = null;
    this.phase = 0; // fractional input position of the next output sample within the block
    this.previous = 0;
    this.lowpass = 0;
  }

  process(inputs) {
    const channel = inputs[0] && inputs[0][0];
    if (!channel) return true;
    if (this.ratio === 1) {
      for (let i = 0; i < channel.length; i++) this.push(channel[i], currentFrame + i);
      return true;
    }
    // Another context rate: a one-pole low-pass against aliasing, then linear interpolation.
    const alpha = Math.min(1, 1.2 / this.ratio);
    let position = this.phase;
    for (let i = 0; i < channel.length; i++) {
      const previous = this.lowpass;
      this.lowpass += alpha * (channel[i] - this.lowpass);
      while (position <= i) {
        const fraction = i - position;
        const value = this.lowpass + (previous - this.lowpass) * fraction;
        this.push(value, Math.round((currentFrame + position) / this.ratio));
        position += this.ratio;
      }
    }
    this.phase = position - channel.length;
    return true;
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
