import Foundation

/// Conversions between frequency, MIDI note numbers and note names (A4 = 440 Hz).
public enum MusicalPitch {
    public static let a4Hz = 440.0

    /// Fractional MIDI note number for a frequency in Hz.
    public static func midi(fromHz hz: Double) -> Double { 69 + 12 * log2(hz / a4Hz) }

    public static func hz(fromMidi midi: Double) -> Double { a4Hz * pow(2, (midi - 69) / 12) }

    /// Difference `a − b` in cents.
    public static func cents(_ a: Double, relativeTo b: Double) -> Double { 1200 * log2(a / b) }

    private static let names = ["C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B"]

    /// Scientific pitch notation, e.g. 60 → "C4".
    public static func name(ofMidi midi: Int) -> String {
        let pc = ((midi % 12) + 12) % 12
        let octave = Int((Double(midi) / 12).rounded(.down)) - 1
        return "\(names[pc])\(octave)"
    }
}
