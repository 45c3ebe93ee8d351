/// What a steady 440 Hz tone went through while key and tempo changed under it: its level in
/// 10 ms windows (the write callback's request size) relative to the steady level, the longest
/// run of windows below half, and the largest step between two samples.
struct ToneContinuity {
    /// Ten changes across the whole range, 0.3 s apart in the tests.
    static let changes: [(key: Int, tempo: Double)] = [(2, 1), (5, 1), (5, 1.5), (-7, 1.5), (-7, 0.5), (12, 0.8), (0, 1), (24, 1), (-24, 1.2), (0, 1)]

    let levels: [Float]
    let longestDip: Int
    let largestStep: Float
    /// The largest step a sine of the highest pitch reached (440 Hz × 2^(24/12)) can make at
    /// this amplitude, with a margin: 2π f a / rate per sample.
    let stepLimit: Float

    init(_ x: ArraySlice<Float>, steady: Float) {
        let window = 480
        levels = stride(from: x.startIndex, to: x.endIndex - window, by: window).map { TestSignals.rms(x[$0..<$0 + window]) / steady }
        var longest = 0, run = 0
        for level in levels {
            run = level < 0.5 ? run + 1 : 0
            longest = max(longest, run)
        }
        longestDip = longest
        var step: Float = 0
        for i in x.indices.dropFirst() { step = max(step, abs(x[i] - x[i - 1])) }
        largestStep = step
        let amplitude = x.map(abs).max() ?? 0
        stepLimit = Float(2 * Double.pi * 1760 / TestSignals.rate) * amplitude * 1.5
    }

    /// Levels in percent, for failure messages.
    var envelope: [Int] { levels.map { Int(($0 * 100).rounded()) } }
}
