"""The phone page's capture worklet (public/js/phone-mic-worklet.js) in a real Chromium, fed a
known signal through an OfflineAudioContext at the rates browsers run audio at: what it posts
must be the signal at 24 kHz, at the right sample index, without aliases (sound the room's
bleed reference does not have, docs/phone-mics.md)."""
import os

import pytest

WORKLET = os.environ.get("PHONE_WORKLET", "/js/phone-mic-worklet.js")

RENDER = """
const done = arguments[arguments.length - 1];
const [rate, seconds, tones, module] = arguments;
(async () => {
  const context = new OfflineAudioContext(1, Math.round(rate * seconds), rate);
  await context.audioWorklet.addModule(module);
  const buffer = context.createBuffer(1, Math.round(rate * seconds), rate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < data.length; i++) {
    let v = 0;
    for (const [hz, amplitude] of tones) v += amplitude * Math.sin(2 * Math.PI * hz * i / rate);
    data[i] = v;
  }
  const source = context.createBufferSource();
  source.buffer = buffer;
  const node = new AudioWorkletNode(context, 'phone-mic-capture', { numberOfOutputs: 1 });
  const frames = [];
  node.port.onmessage = (event) => frames.push([event.data.index, Array.from(new Int16Array(event.data.pcm))]);
  source.connect(node).connect(context.destination);
  source.start();
  await context.startRendering();
  await new Promise((resolve) => setTimeout(resolve, 300));
  done(frames);
})().catch((error) => done(String(error)));
"""


def render(driver, server, rate, tones, seconds=1.0):
    import numpy as np

    driver.get(server.url("/"))
    driver.set_script_timeout(30)
    frames = driver.execute_async_script(RENDER, rate, seconds, tones, WORKLET)
    assert isinstance(frames, list) and frames, frames
    indices = [index for index, _ in frames]
    lengths = [len(pcm) for _, pcm in frames]
    assert all(n == 240 for n in lengths)
    # Consecutive frames are contiguous on the 24 kHz index.
    assert all(b - a == 240 for a, b in zip(indices, indices[1:])), indices[:10]
    samples = np.concatenate([np.array(pcm, dtype=np.float64) / 32768 for _, pcm in frames])
    return indices[0], samples


def db(x):
    import numpy as np
    return 20 * np.log10(max(x, 1e-12))


@pytest.mark.parametrize("rate", [24000, 44100, 48000])
def test_the_worklet_posts_the_signal_at_24_khz_in_time_and_without_aliases(server, browser, rate):
    """220 Hz (a sung note) plus 15 kHz (cymbals): out comes the 220 Hz tone at the exact time
    of each 24 kHz sample index, and the 15 kHz tone neither passes nor folds to 9 kHz."""
    import numpy as np

    driver = browser()
    tones = [[220.0, 0.3]] + ([[15000.0, 0.3]] if rate != 24000 else [])
    first, out = render(driver, server, rate, tones)
    t = (first + np.arange(len(out))) / 24000.0
    ideal = 0.3 * np.sin(2 * np.pi * 220.0 * t)
    steady = slice(480, len(out) - 480)  # away from the start and the end of the buffer
    residual = out[steady] - ideal[steady]
    error_db = 10 * np.log10(np.sum(residual ** 2) / np.sum(ideal[steady] ** 2))
    window = np.hanning(len(out[steady]))
    spectrum = np.abs(np.fft.rfft(out[steady] * window)) / (np.sum(window) / 2)
    hz = np.fft.rfftfreq(len(out[steady]), 1 / 24000)
    # The 220 Hz amplitude by a least-squares fit (no spectral scalloping).
    basis = np.stack([np.sin(2 * np.pi * 220.0 * t[steady]), np.cos(2 * np.pi * 220.0 * t[steady])], axis=1)
    tone = float(np.hypot(*np.linalg.lstsq(basis, out[steady], rcond=None)[0]))
    alias = spectrum[(hz > 8500) & (hz < 9500)].max()
    print(f"\ncontext {rate} Hz: 220 Hz at {db(tone / 0.3):+.2f} dB, alias band 8.5-9.5 kHz {db(alias / 0.3):.1f} dB, "
          f"error against the ideal 24 kHz signal at its indices {error_db:.1f} dB")
    assert abs(db(tone / 0.3)) < 0.1
    assert db(alias / 0.3) < -60
    # In time: a one-sample index error would leave about -25 dB here.
    assert error_db < -50


FRAMER = """
const done = arguments[arguments.length - 1];
(async () => {
  const { Framer, Resampler, FRAME } = await import('/js/phone-mic-resampler.js');
  const messages = new Set(), buffers = new Set(), indices = [];
  const framer = new Framer((message) => { messages.add(message); buffers.add(message.pcm); indices.push(message.index); });
  const resampler = new Resampler(48000);
  const block = new Float32Array(128);
  for (let n = 0; n < 48000 * 5 / 128; n++) resampler.process(block, n * 128, (v, i) => framer.push(v, i));
  done({ frames: indices.length, messages: messages.size, buffers: buffers.size, frame: FRAME, step: indices[1] - indices[0] });
})().catch((error) => done(String(error)));
"""


def test_the_framer_allocates_nothing_per_frame(server, browser):
    """The worklet runs on the real-time audio thread: what it allocates per frame is garbage V8
    collects there. A new buffer, message and transfer list per 10 ms frame made the worklet's
    isolate run a memory-reducing GC about 90 s into every stream, which held Chromium's audio
    thread ~1 s (context stopped, frames late: "network unstable", capture path +70-100 ms;
    docs/phone-mics.md). Every frame now leaves in the same message and buffer (postMessage copies)."""
    driver = browser(400, 300)
    driver.get(server.url("/"))
    driver.set_script_timeout(30)
    result = driver.execute_async_script(FRAMER)
    assert isinstance(result, dict), result
    assert result["frames"] >= 490 and result["step"] == result["frame"], result
    assert result["messages"] == 1 and result["buffers"] == 1, result
