import AudioEngine
import RoomProtocol

extension DevicePayload {
    /// The browser's view of an audio device event (`device` event: lost/back).
    public init(_ event: DeviceEvent) {
        switch event {
        case .outputLost: self.init(device: "playback", status: .lost, message: event.description)
        case .serverLost: self.init(device: "playback", status: .lost, message: event.description)
        case .outputRestored: self.init(device: "playback", status: .back, message: event.description)
        case .inputLost(let source): self.init(device: "input:\(source ?? "default")", status: .lost, message: event.description)
        case .inputRestored(let source): self.init(device: "input:\(source ?? "default")", status: .back, message: event.description)
        }
    }
}
