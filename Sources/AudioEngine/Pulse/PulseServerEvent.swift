import CPulse

/// A change on the sound server that a client may have to act on, decoded from PulseAudio's
/// subscription events (`PulseContext.setEventHandler`). Everything else the subscription
/// reports (volume and state changes, streams, clients) is dropped.
enum PulseServerEvent: Sendable, Equatable {
    /// A module was unloaded (by us, by `pactl`, or by itself, as `module-loopback` does when
    /// its source or sink disappears).
    case moduleRemoved(index: UInt32)
    /// A sink or source appeared (a device plugged in, a module loaded one).
    case deviceAdded
    /// The server's settings changed; among them the default sink and source.
    case serverChanged

    /// The facilities these events come from.
    static let mask = pa_subscription_mask_t(rawValue: PA_SUBSCRIPTION_MASK_MODULE.rawValue | PA_SUBSCRIPTION_MASK_SINK.rawValue
                                             | PA_SUBSCRIPTION_MASK_SOURCE.rawValue | PA_SUBSCRIPTION_MASK_SERVER.rawValue)

    init?(_ type: pa_subscription_event_type_t, index: UInt32) {
        let facility = type.rawValue & PA_SUBSCRIPTION_EVENT_FACILITY_MASK.rawValue
        let operation = type.rawValue & PA_SUBSCRIPTION_EVENT_TYPE_MASK.rawValue
        switch (facility, operation) {
        case (PA_SUBSCRIPTION_EVENT_MODULE.rawValue, PA_SUBSCRIPTION_EVENT_REMOVE.rawValue):
            self = .moduleRemoved(index: index)
        case (PA_SUBSCRIPTION_EVENT_SINK.rawValue, PA_SUBSCRIPTION_EVENT_NEW.rawValue),
             (PA_SUBSCRIPTION_EVENT_SOURCE.rawValue, PA_SUBSCRIPTION_EVENT_NEW.rawValue):
            self = .deviceAdded
        case (PA_SUBSCRIPTION_EVENT_SERVER.rawValue, _):
            self = .serverChanged
        default:
            return nil
        }
    }
}
