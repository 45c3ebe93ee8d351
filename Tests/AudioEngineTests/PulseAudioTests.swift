import Testing

/// Every test that plays or records through the private PulseAudio daemon lives in this one
/// serialized suite (nested suites inherit it): they share `speaker`, `mic_sink` and `mic`,
/// and one test's clicks must never reach another test's recording.
@Suite(.serialized, .enabled(if: pulseAvailable)) struct PulseAudioTests {}
