import Foundation

/// Where the General MIDI soundfont for MIDI/KAR backings is: `$KARAOKE_SOUNDFONT`, else the
/// Debian locations (`sf2-soundfont-gm` packages: timgm6mb-soundfont, fluid-soundfont-gm,
/// musescore-general-soundfont-small register `default-GM.sf2`).
public enum SoundFontLocator {
    public static let environmentKey = "KARAOKE_SOUNDFONT"

    public static let standardPaths = [
        "/usr/share/sounds/sf2/default-GM.sf2",
        "/usr/share/sounds/sf2/TimGM6mb.sf2",
        "/usr/share/sounds/sf2/FluidR3_GM.sf2",
        "/usr/share/sounds/sf3/default-GM.sf3",
        "/usr/share/soundfonts/default.sf2",
    ]

    /// What to tell the host when none is found.
    public static let missingAdvice =
        "no General MIDI soundfont found (install timgm6mb-soundfont, or set \(environmentKey) to an .sf2 file)"

    /// The soundfont to use, or nil when there is none. A `KARAOKE_SOUNDFONT` that names no
    /// file counts as none (it is not silently replaced by another one).
    public static func find(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let chosen = environment[environmentKey], !chosen.isEmpty {
            return FileManager.default.isReadableFile(atPath: chosen) ? chosen : nil
        }
        return standardPaths.first { FileManager.default.isReadableFile(atPath: $0) }
    }
}
