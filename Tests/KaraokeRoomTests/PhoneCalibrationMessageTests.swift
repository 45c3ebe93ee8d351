import AudioEngine
@testable import KaraokeRoom
import Testing

/// A phone's calibration that fails tells the guest which way it failed, with what arrived.
@Suite struct PhoneCalibrationMessageTests {
    static let audio = [Float](repeating: 0.25, count: Int(2 * PhoneMicSlot.sampleRate))

    @Test func eachFailureNamesItsCause() {
        let none = PhoneCalibrator.explain(.noClicksHeard(input: "phone"), clicks: 10, recorded: Self.audio, network: "good")
        #expect(none.hasPrefix("heard none of the 10 calibration clicks") && none.contains("2.0 s of its audio, peak 0.250, network good"), "\(none)")
        let late = PhoneCalibrator.explain(.delayOutOfRange(input: "phone", delay: 2.4, range: -0.1...2), clicks: 10, recorded: Self.audio, network: nil)
        #expect(late.contains("2.40 s late") && late.contains("network very slow") && late.contains("network -"), "\(late)")
        let few = PhoneCalibrator.explain(.clicksDidNotLineUp(input: "phone", heard: 9, lined: 3, needed: 5), clicks: 10, recorded: [], network: "unstable")
        #expect(few.hasPrefix("heard 3 of 10 calibration clicks from the phone, among 9 sounds") && few.contains("0.0 s of its audio"), "\(few)")
    }
}
