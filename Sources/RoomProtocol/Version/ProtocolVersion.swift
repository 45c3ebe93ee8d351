/// Version of the JSON protocol in `docs/protocol.md`. Bump on incompatible changes;
/// additive fields keep the number.
public enum ProtocolVersion {
    public static let current = 1
}
