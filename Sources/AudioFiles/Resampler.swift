import CSoxr

/// Whole-buffer sample-rate conversion with libsoxr (the SoX resampler), off the audio thread:
/// songs and recordings arrive at 44.1 kHz, devices and the pitch detector run at 48 kHz.
///
/// Quality `SOXR_HQ` (20-bit: pass band flat to 91 % of the lower Nyquist, aliasing under
/// −120 dB) and linear phase, so a note's onset stays where it was; libsoxr removes its filter's
/// delay, so the output starts at the input's first sample. Streaming paths that must add no
/// latency keep their own filters (`Decimator`, `HalfBandUpsampler`).
public enum Resampler {
    /// Resamples one channel from `fromRate` to `toRate`: `floor(count × toRate / fromRate)` samples.
    public static func resample(_ input: [Float], from fromRate: Double, to toRate: Double) -> [Float] {
        if fromRate == toRate || input.isEmpty { return input }
        return convert(input, channels: 1, from: fromRate, to: toRate, isCancelled: { false }) ?? input
    }

    /// How many input frames are converted between two `isCancelled` checks (milliseconds of work).
    static let cancellationStride = 16_384

    /// Resamples every channel of an interleaved buffer.
    public static func resample(_ buffer: AudioBuffer, to toRate: Double) -> AudioBuffer {
        resample(buffer, to: toRate, isCancelled: { false }) ?? buffer
    }

    /// Resamples every channel of an interleaved buffer, asking `isCancelled` every
    /// `cancellationStride` input frames; nil when it said yes (a song load that was superseded).
    public static func resample(_ buffer: AudioBuffer, to toRate: Double, isCancelled: () -> Bool) -> AudioBuffer? {
        if isCancelled() { return nil }
        if buffer.sampleRate == toRate || buffer.samples.isEmpty { return buffer }
        guard let samples = convert(buffer.samples, channels: buffer.channels, from: buffer.sampleRate, to: toRate,
                                    isCancelled: isCancelled) else { return nil }
        return AudioBuffer(samples: samples, sampleRate: toRate, channels: buffer.channels)
    }

    /// Interleaved float in, interleaved float out; nil when cancelled. Rates that libsoxr
    /// refuses (not positive, not finite) leave the samples as they are.
    private static func convert(_ input: [Float], channels: Int, from fromRate: Double, to toRate: Double,
                                isCancelled: () -> Bool) -> [Float]? {
        guard channels > 0, fromRate > 0, toRate > 0, fromRate.isFinite, toRate.isFinite else { return input }
        var error: soxr_error_t?
        var io = soxr_io_spec(SOXR_FLOAT32_I, SOXR_FLOAT32_I)
        var quality = soxr_quality_spec(UInt(SOXR_HQ), 0)
        guard let soxr = soxr_create(fromRate, toRate, UInt32(channels), &error, &io, &quality, nil), error == nil else {
            return input
        }
        defer { soxr_delete(soxr) }
        let frames = input.count / channels
        let outFrames = Int((Double(frames) * toRate / fromRate).rounded(.down))
        var output = [Float](repeating: 0, count: outFrames * channels)
        let finished = input.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                var consumed = 0
                var written = 0
                while written < outFrames {
                    if isCancelled() { return false }
                    let count = min(cancellationStride, frames - consumed)
                    // No input pointer tells libsoxr the input has ended: it flushes its filter.
                    let chunk = count > 0 ? UnsafeRawPointer(source.baseAddress! + consumed * channels) : nil
                    var used = 0
                    var made = 0
                    let failure = soxr_process(soxr, chunk, count, &used, target.baseAddress! + written * channels,
                                               outFrames - written, &made)
                    consumed += used
                    written += made
                    if failure != nil || (count == 0 && made == 0) { break }
                }
                return true
            }
        }
        return finished ? output : nil
    }
}
