import Foundation

/// Mic delays per input, kept in a JSON file (default `scores/calibration.json`):
/// `{"output": "speaker", "measuredAt": "…", "inputs": {"mic": {"delaySeconds": 0.031, …}}}`.
/// Re-calibrating an input replaces its entry and keeps the others.
public struct CalibrationStore: Codable, Sendable, Equatable {
    public var output: String?
    public var measuredAt: Date?
    public var inputs: [String: InputCalibration] = [:]

    public init() {}

    public static let defaultPath = "scores/calibration.json"

    public static func load(path: String) throws -> CalibrationStore {
        guard FileManager.default.fileExists(atPath: path) else { return CalibrationStore() }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        do {
            return try decoder.decode(CalibrationStore.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw PlaybackError(path: path, message: "not a calibration file: \(error)")
        }
    }

    public func save(path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try encoder.encode(self).write(to: url, options: .atomic)
    }

    /// The delay to subtract for `input` (0 when it was never calibrated).
    public func delay(for input: String?) -> Double { inputs[Self.key(for: input)]?.delaySeconds ?? 0 }

    /// The `inputs` key of a source (nil = the default source, which has no name of its own).
    public static func key(for input: String?) -> String { input ?? "@DEFAULT_SOURCE@" }
}
