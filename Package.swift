// swift-tools-version: 6.0
// Data flow, module by module:
//   song files (SongFormats) → model (SongModel) → timeline (LyricTimeline)
//   → audio in/out (AudioFiles, AudioEngine) → pitch (PitchDetection)
//   → scoring (Scoring, ScoreStore) → wire types (RoomProtocol) → transport (EventServer)
//   → browser (public/)
// RoomProtocol is the JSON protocol of docs/protocol.md (commands, events, their payloads), the
// only place wire types live; EventServer is transport only (HTTP, WebSocket, TLS, limits) and
// knows no message but the phone's binary audio frame.
// LiveScoring is the live pipeline, the same for every kind of microphone: a capture channel
// (a PulseAudio mic, or a phone's stream upsampled) → LivePitchTracker (the detector, with what
// the speakers played as its bleed reference) → one run's ScoringSession on a pitch worker →
// closed lines, stored line by line (LiveRunRecorder). It knows no room and no events.
// KaraokeRoom wires them together for one room (queue, seats, library, playback, which runs to
// start and what to publish); `karaoke` is the command line.
import PackageDescription

let package = Package(
    name: "karaoke",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "karaoke", targets: ["karaoke"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
    ],
    targets: [
        // C libraries, found through pkg-config; `providers` tells SwiftPM the Debian package.
        .systemLibrary(name: "CPulse", pkgConfig: "libpulse", providers: [.apt(["libpulse-dev"])]),
        .systemLibrary(name: "CFFTW", pkgConfig: "fftw3f", providers: [.apt(["libfftw3-dev"])]),
        .systemLibrary(name: "CSndfile", pkgConfig: "sndfile", providers: [.apt(["libsndfile1-dev"])]),
        .systemLibrary(name: "CRubberBand", pkgConfig: "rubberband", providers: [.apt(["librubberband-dev"])]),
        .systemLibrary(name: "CWebSockets", pkgConfig: "libwebsockets", providers: [.apt(["libwebsockets-dev"])]),
        // The X.509 work for `serve --tls` (the same OpenSSL libwebsockets serves TLS with).
        .systemLibrary(name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CQREncode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        // Song covers scaled to thumbnails for the remote's list (JPEG and PNG in, JPEG out).
        .systemLibrary(name: "CGD", pkgConfig: "gdlib", providers: [.apt(["libgd-dev"])]),
        // MIDI/KAR songs' backing, synthesised with a General MIDI soundfont (timgm6mb-soundfont).
        .systemLibrary(name: "CFluidSynth", pkgConfig: "fluidsynth", providers: [.apt(["libfluidsynth-dev"])]),
        // The shared venue store (`--store postgres://…`, docs/venue.md): PostgreSQL's own client library.
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        // Whole-buffer sample-rate conversion (songs at 44.1 kHz to the device's 48 kHz).
        .systemLibrary(name: "CSoxr", pkgConfig: "soxr", providers: [.apt(["libsoxr-dev"])]),

        // Pure Swift: no C library below this line until AudioFiles.
        .target(name: "SongModel"),
        .target(name: "SongFormats", dependencies: ["SongModel"]),
        .target(name: "LyricTimeline", dependencies: ["SongModel"]),
        .target(name: "Scoring", dependencies: ["SongModel", "LyricTimeline"]),
        .target(name: "RoomProtocol", dependencies: ["Scoring"]),

        // Signal processing and I/O over C libraries.
        .target(name: "AudioFiles", dependencies: ["CSndfile", "CFluidSynth", "CSoxr"]),
        .target(name: "PitchDetection", dependencies: ["CFFTW"]),
        .target(name: "AudioEngine", dependencies: ["CPulse", "CRubberBand", "AudioFiles"]),
        .target(name: "ScoreStore", dependencies: [
            "Scoring", "SongModel", "CLibPQ",
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .target(name: "EventServer", dependencies: [
            "CWebSockets", "COpenSSL", "CQREncode",
            .product(name: "Logging", package: "swift-log"),
        ]),
        // Microphone → pitch → scored lines, without a room (no EventServer, no KaraokeRoom).
        .target(name: "LiveScoring", dependencies: [
            "SongModel", "Scoring", "ScoreStore", "AudioEngine", "PitchDetection",
        ]),
        .target(name: "KaraokeRoom", dependencies: [
            "SongModel", "SongFormats", "LyricTimeline", "Scoring", "ScoreStore",
            "AudioFiles", "AudioEngine", "PitchDetection", "LiveScoring", "RoomProtocol", "EventServer", "CGD",
            .product(name: "Logging", package: "swift-log"),
        ]),
        .executableTarget(name: "karaoke", dependencies: [
            "KaraokeRoom", "SongModel", "SongFormats", "Scoring", "ScoreStore",
            "AudioFiles", "AudioEngine", "PitchDetection", "RoomProtocol", "EventServer",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ]),

        // Benchmarks/store/venue_load.py: one room's writes to a shared PostgreSQL, and the venue read, timed.
        .executableTarget(name: "store-bench", dependencies: ["ScoreStore", "Scoring", "KaraokeRoom"],
                          path: "Benchmarks/store/StoreBench"),

        // Helpers more than one test target needs (seeded random, polling, running the CLI).
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        // Vocal reduction's removal (dB) and cost (share of a core); docs/audio-engine.md.
        .executableTarget(name: "vocal-reduction-bench", dependencies: ["AudioEngine", "AudioFiles", "TestSupport"],
                          path: "Benchmarks/vocal-reduction"),
        .testTarget(name: "TestSupportTests", dependencies: ["TestSupport"]),
        .testTarget(name: "AudioFilesTests", dependencies: ["AudioFiles"]),
        .testTarget(name: "SongFormatsTests", dependencies: ["SongFormats", "SongModel", "TestSupport"]),
        .testTarget(name: "LyricTimelineTests", dependencies: ["LyricTimeline", "SongFormats", "SongModel", "TestSupport"]),
        .testTarget(name: "PitchDetectionTests", dependencies: ["PitchDetection", "CFFTW", "AudioFiles", "TestSupport"]),
        .testTarget(name: "ScoringTests", dependencies: [
            "Scoring", "SongFormats", "SongModel", "AudioFiles", "ScoreStore", "RoomProtocol", "KaraokeRoom", "LiveScoring",
            "TestSupport",
        ]),
        .testTarget(name: "ScoreStoreTests", dependencies: [
            "ScoreStore", "Scoring", "SongModel", "TestSupport",
            .product(name: "GRDB", package: "GRDB.swift"),
        ]),
        .testTarget(name: "AudioEngineTests", dependencies: [
            "AudioEngine", "CPulse", "AudioFiles", "PitchDetection", "Scoring", "SongFormats", "SongModel", "ScoreStore",
            "RoomProtocol", "EventServer", "KaraokeRoom", "LiveScoring", "TestSupport",
        ]),
        .testTarget(name: "LiveScoringTests", dependencies: ["LiveScoring", "AudioEngine", "Scoring", "ScoreStore"]),
        .testTarget(name: "KaraokeRoomTests", dependencies: ["KaraokeRoom", "RoomProtocol", "AudioEngine", "Scoring", "SongModel"]),
        .testTarget(name: "RoomProtocolTests", dependencies: ["RoomProtocol"]),
        .testTarget(name: "EventServerTests", dependencies: [
            "EventServer", "RoomProtocol", "KaraokeRoom", "AudioEngine", "ScoreStore", "Scoring", "SongModel", "TestSupport",
            .product(name: "Logging", package: "swift-log"),
        ]),
    ]
)
