import EventServer
import RoomProtocol

/// A host ends every other host session: a phone that was lost, or a guest who watched the PIN
/// being typed, keeps no control. Their tokens stop working at once (a saved one is refused with
/// `badToken`), and their open pages become guests, told why (`signedOut`).
extension Room {
    func signOutOtherHosts(keeping client: ClientID) {
        let kept = clients[client]?.hostToken
        let ended = hostSessions.revokeAll(except: kept)
        var demoted = 0
        for (other, session) in clients where other != client && session.role == .host {
            clients[other]?.role = .guest
            clients[other]?.hostToken = nil
            sendError(to: other, code: "signedOut",
                      message: "another host signed this device out of the host controls; enter the room PIN to control the room again",
                      command: nil, id: nil)
            sendHello(to: other)
            demoted += 1
        }
        let address = clients[client]?.address ?? "?"
        logger.notice("host at \(address) signed out the other host devices: \(ended) session(s) ended, \(demoted) open page(s) now guests")
        transport?.send(.hostsSignedOut(HostsSignedOutPayload(count: max(ended, demoted))), to: client)
    }
}
