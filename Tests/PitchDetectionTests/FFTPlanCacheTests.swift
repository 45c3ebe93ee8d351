import Testing
@testable import PitchDetection

/// Issue 11 (start-up): plans are made once per size and process and shared by every transform.
@Suite struct FFTPlanCacheTests {
    @Test func oneSizeIsPlannedOnce() {
        let a = FFTPlanCache.shared.plans(size: 96)
        let b = FFTPlanCache.shared.plans(size: 96)
        #expect(a.forward == b.forward && a.inverse == b.inverse)
        #expect(FFTPlanCache.shared.plans(size: 192).forward != a.forward)
    }

    @Test func transformsSharingPlansKeepTheirOwnBuffers() {
        let first = RealFFT(size: 96), second = RealFFT(size: 96)
        for i in 0..<96 {
            first.input[i] = Float(i % 7) - 3
            second.input[i] = i == 5 ? 1 : 0
        }
        let original = (0..<96).map { first.input[$0] }
        first.forward()
        second.forward()
        // An impulse at 5 has |X(k)| = 1 everywhere; the other transform is untouched by it.
        for k in 0..<second.bins {
            let (re, im) = second.spectrum[k]
            #expect(abs(re * re + im * im - 1) < 1e-4)
        }
        first.inverse()
        for i in 0..<96 { #expect(abs(first.input[i] / 96 - original[i]) < 1e-4) }
    }
}
