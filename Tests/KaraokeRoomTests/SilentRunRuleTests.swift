@testable import KaraokeRoom
import RoomProtocol
import Testing

/// Issue 40: which seats' runs are stored when nothing was sung (docs/live.md, "Silent runs").
@Suite struct SilentRunRuleTests {
    @Test func aPhoneSeatOrANamedMicrophoneIsClaimedAnUnnamedChannelIsNot() {
        let named = SingerPayload(singer: 0, name: "Ann", part: 0, micDelayMs: 0)
        let placeholder = SingerPayload(singer: 1, name: "Singer 2", part: 1, micDelayMs: 0)
        #expect(LiveRoomSession.isClaimed(singer: 0, seat: named, phone: false))
        #expect(!LiveRoomSession.isClaimed(singer: 1, seat: placeholder, phone: false))
        #expect(!LiveRoomSession.isClaimed(singer: 2, seat: nil, phone: false))
        #expect(LiveRoomSession.isClaimed(singer: 2, seat: SingerPayload(singer: 2, name: "Phone 1", part: 0, micDelayMs: 0), phone: true))
        // Another channel's placeholder name is a name someone chose for this one.
        #expect(LiveRoomSession.isClaimed(singer: 0, seat: SingerPayload(singer: 0, name: "Singer 2", part: 0, micDelayMs: 0), phone: false))
    }
}
