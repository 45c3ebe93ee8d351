import CFFTW
import Foundation

/// How hard FFTW looks for a fast algorithm when it first meets a transform size.
public enum FFTPlanning: Sendable, Equatable {
    /// FFTW_ESTIMATE: a heuristic plan, made in microseconds. The default: FFTW_MEASURE costs
    /// ~0.45 s of CPU per size, which dominated a short `karaoke pitch` run, for ~15 % faster
    /// transforms (the figures are in docs/pitch.md).
    case estimate
    /// FFTW_MEASURE: times candidate algorithms once per size and process; for long-running
    /// processes that make many detectors (the server).
    case measure
}

/// Process-wide FFTW plans, one pair per transform size, made once and shared by every
/// `RealFFT` (executed on each instance's own buffers through FFTW's new-array interface,
/// which is thread-safe; planning is not, hence the lock). Plans live as long as the process.
final class FFTPlanCache: @unchecked Sendable {
    static let shared = FFTPlanCache()

    struct Plans: @unchecked Sendable {
        let forward: fftwf_plan
        let inverse: fftwf_plan
    }

    private let lock = NSLock()
    private var plans: [Int: Plans] = [:]
    private var rigour = FFTPlanning.estimate

    private init() {
        // Machine-wide wisdom (/etc/fftw/wisdomf), if an administrator made some, is free speed.
        _ = fftwf_import_system_wisdom()
    }

    /// The planning rigour for sizes not planned yet (sizes already planned keep their plans).
    var planning: FFTPlanning {
        get { lock.withLock { rigour } }
        set { lock.withLock { rigour = newValue } }
    }

    /// The forward (r2c) and inverse (c2r) plans for `size`, made on first use.
    func plans(size: Int) -> Plans {
        lock.lock()
        defer { lock.unlock() }
        if let existing = plans[size] { return existing }
        // Planning buffers: FFTW's allocator gives every buffer the same (SIMD) alignment,
        // so the plans apply to any `fftwf_alloc_*` buffers of this size.
        let input = fftwf_alloc_real(size)!
        let spectrum = fftwf_alloc_complex(size / 2 + 1)!
        defer {
            fftwf_free(input)
            fftwf_free(spectrum)
        }
        let flags = UInt32(rigour == .measure ? FFTW_MEASURE : FFTW_ESTIMATE) | UInt32(FFTW_DESTROY_INPUT)
        let made = Plans(
            forward: fftwf_plan_dft_r2c_1d(Int32(size), input, spectrum, flags)!,
            inverse: fftwf_plan_dft_c2r_1d(Int32(size), spectrum, input, flags)!)
        plans[size] = made
        return made
    }
}
