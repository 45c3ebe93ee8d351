#if canImport(Glibc)
import Glibc
#endif

/// The room's host PIN: printed at start-up, required to take the host role.
public struct RoomPin: Sendable, Equatable, CustomStringConvertible {
    public let digits: String

    /// Accepts 4–8 decimal digits.
    public init?(_ text: String) {
        guard (4...8).contains(text.count), text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        digits = text
    }

    /// Digits of the PIN `serve` makes up when none is given: a million PINs, tried at most a
    /// few dozen times an hour per address (`PinAttemptLimiter`).
    public static let defaultLength = 6

    /// A fresh random PIN from the system's CSPRNG.
    public static func random(digits count: Int = defaultLength) -> RoomPin {
        var generator = SystemRandomNumberGenerator()
        let text = (0..<min(8, max(4, count))).map { _ in String(Int.random(in: 0...9, using: &generator)) }.joined()
        return RoomPin(text)!
    }

    /// Constant-time comparison, so response timing does not leak digits.
    public func matches(_ candidate: String?) -> Bool {
        guard let candidate else { return false }
        let a = Array(digits.utf8), b = Array(candidate.utf8)
        var difference = UInt8(a.count == b.count ? 0 : 1)
        for i in 0..<max(a.count, b.count) {
            difference |= (i < a.count ? a[i] : 0) ^ (i < b.count ? b[i] : 0)
        }
        return difference == 0
    }

    public var description: String { digits }
}
