import CFFTW
import Foundation

/// FFTW's planner is not thread-safe (plan creation and destruction share global state),
/// and detectors are created from many threads (Swift Testing runs tests in parallel).
/// Executing an existing plan is thread-safe, so only planning takes this lock.
private let fftwPlannerLock = NSLock()

/// A real-input FFT of one size with its own aligned buffers and plans, created once.
/// `forward()` transforms `input` into `spectrum`; `inverse()` transforms `spectrum` into
/// `input` (unnormalised: the result is scaled by `size`). No allocation after init.
final class RealFFT {
    let size: Int
    var bins: Int { size / 2 + 1 }
    let input: UnsafeMutablePointer<Float>
    let spectrum: UnsafeMutablePointer<fftwf_complex>
    private let forwardPlan: fftwf_plan
    private let inversePlan: fftwf_plan

    /// - Parameter measure: let FFTW time candidate algorithms (faster execution, slower
    ///   planning); for transforms run every frame. Rare transforms use a quick estimate.
    init(size: Int, measure: Bool = true) {
        precondition(size >= 2 && size % 2 == 0, "FFT size must be even")
        self.size = size
        let input = fftwf_alloc_real(size)!
        let spectrum = fftwf_alloc_complex(size / 2 + 1)!
        self.input = input
        self.spectrum = spectrum
        // FFTW_MEASURE overwrites the arrays while planning; wisdom makes repeated sizes cheap.
        let flags = UInt32(measure ? FFTW_MEASURE : FFTW_ESTIMATE) | UInt32(FFTW_DESTROY_INPUT)
        fftwPlannerLock.lock()
        forwardPlan = fftwf_plan_dft_r2c_1d(Int32(size), input, spectrum, flags)!
        inversePlan = fftwf_plan_dft_c2r_1d(Int32(size), spectrum, input, flags)!
        fftwPlannerLock.unlock()
        input.initialize(repeating: 0, count: size)
        spectrum.initialize(repeating: (0, 0), count: size / 2 + 1)
    }

    deinit {
        fftwPlannerLock.lock()
        fftwf_destroy_plan(forwardPlan)
        fftwf_destroy_plan(inversePlan)
        fftwPlannerLock.unlock()
        fftwf_free(input)
        fftwf_free(spectrum)
    }

    /// The smallest size ≥ `n` of the form 2^a or 3·2^a (both fast in FFTW).
    static func goodSize(atLeast n: Int) -> Int {
        var power = 16
        while power < n { power *= 2 }
        return power / 4 * 3 >= n ? power / 4 * 3 : power
    }

    func forward() { fftwf_execute(forwardPlan) }
    func inverse() { fftwf_execute(inversePlan) }
}
