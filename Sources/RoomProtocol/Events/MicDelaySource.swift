/// Where the mic delay that live scoring subtracts for a singer comes from, in the order it is
/// chosen: the room's setting when it is non-zero, else the microphone's calibration, else the
/// server's default.
public enum MicDelaySource: String, Codable, Sendable, Equatable {
    /// Set for this singer from the remote (`micDelay` command, non-zero).
    case room
    /// Measured for the singer's microphone input (`calibrate`, or `karaoke calibrate`).
    case calibrated
    /// Neither: the server's default (`serve --mic-delay`, 140 ms unless set).
    case `default`
}
