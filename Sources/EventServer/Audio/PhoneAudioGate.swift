import Synchronization

/// Takes phone audio off the WebSocket thread. Called on the lws service thread for every
/// frame: copy the samples into a lock-free ring and return, never block.
public protocol PhoneAudioReceiver: AnyObject, Sendable {
    /// `samples` holds `frame.sampleCount` little-endian Int16 values (unaligned).
    func receive(_ frame: PhoneAudioFrame, samples: UnsafeRawBufferPointer)
}

/// Which clients may send audio, and where it goes: only a client that holds a phone singer
/// seat has a grant; frames from any other client are refused. The room grants and revokes
/// from its own queue; the service thread looks up every frame (a short lock, no waiting on
/// other work).
public final class PhoneAudioGate: Sendable {
    public struct Grant: Sendable {
        public var seat: Int
        public var receiver: any PhoneAudioReceiver
        public init(seat: Int, receiver: any PhoneAudioReceiver) {
            self.seat = seat
            self.receiver = receiver
        }
    }

    /// Audio frames one address may send per second over all its connections (phones behind
    /// one NAT, or a host testing on the server itself: 8 phones at 10 ms frames is 800/s), and
    /// the burst a network blip releases; far above that for seconds is a flood and is closed.
    public let addressLimits: RateLimiter.Limits
    private let grants = Mutex<[ClientID: Grant]>([:])

    public init(addressLimits: RateLimiter.Limits = .init(perSecond: 900, burst: 1800, disconnectAfter: 1800)) {
        self.addressLimits = addressLimits
    }

    public func grant(_ client: ClientID, seat: Int, receiver: any PhoneAudioReceiver) {
        grants.withLock { $0[client] = Grant(seat: seat, receiver: receiver) }
    }

    public func revoke(_ client: ClientID) {
        grants.withLock { $0[client] = nil }
    }

    public func grant(for client: ClientID) -> Grant? {
        grants.withLock { $0[client] }
    }
}
