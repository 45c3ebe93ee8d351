import CFFTW
import Foundation

/// A real-input FFT of one size with its own aligned buffers; the plans are shared
/// process-wide (`FFTPlanCache`), so making one costs no planning after the first of its size.
/// `forward()` transforms `input` into `spectrum`; `inverse()` transforms `spectrum` into
/// `input` (unnormalised: the result is scaled by `size`). No allocation after init.
final class RealFFT {
    let size: Int
    var bins: Int { size / 2 + 1 }
    let input: UnsafeMutablePointer<Float>
    let spectrum: UnsafeMutablePointer<fftwf_complex>
    private let plans: FFTPlanCache.Plans

    /// - Parameter measure: kept for callers that distinguish rare transforms; every size is
    ///   planned once per process with `FFTPlanCache.shared.planning`.
    init(size: Int, measure: Bool = true) {
        precondition(size >= 2 && size % 2 == 0, "FFT size must be even")
        self.size = size
        input = fftwf_alloc_real(size)!
        spectrum = fftwf_alloc_complex(size / 2 + 1)!
        plans = FFTPlanCache.shared.plans(size: size)
        input.initialize(repeating: 0, count: size)
        spectrum.initialize(repeating: (0, 0), count: size / 2 + 1)
    }

    deinit {
        fftwf_free(input)
        fftwf_free(spectrum)
    }

    /// The smallest size ≥ `n` of the form 2^a or 3·2^a (both fast in FFTW).
    static func goodSize(atLeast n: Int) -> Int {
        var power = 16
        while power < n { power *= 2 }
        return power / 4 * 3 >= n ? power / 4 * 3 : power
    }

    func forward() { fftwf_execute_dft_r2c(plans.forward, input, spectrum) }
    func inverse() { fftwf_execute_dft_c2r(plans.inverse, spectrum, input) }
}
