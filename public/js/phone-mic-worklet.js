// The phone page's capture (the default; `capture=track` uses MediaStreamTrackProcessor instead): the phone's
// microphone through an AudioContext, mono, at 24 kHz (phone-mic-resampler.js when the
// context runs at another rate), in 10 ms frames of 16-bit samples, each with the index of
// its first sample on the context's audio clock, counted at 24 kHz. Posted to the page.
import { Resampler, Framer } from './phone-mic-resampler.js';

class PhoneMicCapture extends AudioWorkletProcessor {
  constructor() {
    super();
    this.resampler = new Resampler(sampleRate);
    // Nothing is allocated per block or frame on this real-time thread: postMessage copies the
    // framer's one message (see Framer), and the emit callback is made once.
    this.framer = new Framer((message) => this.port.postMessage(message));
    this.emit = (value, index) => this.framer.push(value, index);
    // The context clock as this processor counts it (input samples). currentFrame is trusted
    // only when it disagrees the same way twice running: Chromium under load once reported a
    // block 128 frames early and the next one right again.
    this.nextInput = null;
    this.suspect = null;
  }

  process(inputs) {
    const channel = inputs[0] && inputs[0][0];
    if (!channel) return true;
    this.follow(currentFrame);
    const first = this.nextInput;
    this.nextInput += channel.length;
    this.resampler.process(channel, first, this.emit);
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
      this.nextInput = frame;
      this.suspect = null;
      this.resampler.restart();
      this.framer.reset();
    } else {
      this.suspect = moved; // the same difference again next block if the move is real
    }
  }
}

registerProcessor('phone-mic-capture', PhoneMicCapture);
