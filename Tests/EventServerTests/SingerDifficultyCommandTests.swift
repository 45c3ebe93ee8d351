import Foundation
@testable import KaraokeRoom
import RoomProtocol
import Scoring
import Testing

/// The host's `singerDifficulty` command: decoding (bad levels refused), and the room's state
/// carrying the seat's own difficulty beside the room's.
@Suite("singerDifficulty: a seat's own difficulty")
struct SingerDifficultyCommandTests {
    private func decode(_ text: String) -> Result<CommandEnvelope, CommandDecodingError> { CommandEnvelope.decode(text) }

    @Test func decodesLevelsAndRefusesBadOnes() throws {
        #expect(try decode(#"{"type":"singerDifficulty","singer":3,"level":"hard"}"#).get().command == .singerDifficulty(singer: 3, level: .hard))
        #expect(try decode(#"{"type":"singerDifficulty","singer":0,"level":"room"}"#).get().command == .singerDifficulty(singer: 0, level: nil))
        #expect(try decode(#"{"type":"singerDifficulty","singer":0,"level":null}"#).get().command == .singerDifficulty(singer: 0, level: nil))
        #expect(ClientCommand.singerDifficulty(singer: 0, level: .easy).requiredRole == .host)
        for bad in [#"{"type":"singerDifficulty","singer":0,"level":"expert"}"#, #"{"type":"singerDifficulty","singer":0,"level":2}"#,
                    #"{"type":"singerDifficulty","singer":-1,"level":"easy"}"#, #"{"type":"singerDifficulty","level":"easy"}"#] {
            guard case .failure(.badArguments(let command, _)) = decode(bad) else {
                Issue.record("not refused: \(bad)")
                continue
            }
            #expect(command == "singerDifficulty")
        }
    }

    @Test func theStateShowsEachSeatsOwnDifficultyAndGuestsCannotSetIt() throws {
        let room = try TestRoomServer()
        defer { room.stop() }
        let host = try room.client(role: "host", pin: TestRoomServer.pin)
        let singers = { (state: [String: Any]) in (state["singers"] as? [[String: Any]]) ?? [] }
        try host.sendText(#"{"type":"singerDifficulty","singer":1,"level":"hard","id":5}"#)
        let state = try #require(try host.waitFor("state") { singers($0).count == 2 && singers($0)[1]["difficulty"] as? String == "hard" })
        #expect(singers(state)[0]["difficulty"] == nil, "seat 0 follows the room")
        #expect(state["difficulty"] as? String == "medium", "the room's own difficulty is unchanged")
        // Back to the room's.
        try host.sendText(#"{"type":"singerDifficulty","singer":1,"level":"room"}"#)
        #expect(try host.waitFor("state") { singers($0).count == 2 && singers($0)[1]["difficulty"] == nil } != nil)
        // No such seat.
        try host.sendText(#"{"type":"singerDifficulty","singer":6,"level":"easy","id":9}"#)
        #expect(try host.waitFor("error") { $0["id"] as? Int == 9 }?["code"] as? String == "badArguments")
        // A guest may not.
        let guest = try room.client(role: "guest")
        try guest.sendText(#"{"type":"singerDifficulty","singer":0,"level":"easy","id":3}"#)
        let refused = try #require(try guest.waitFor("error") { $0["id"] as? Int == 3 })
        #expect(refused["code"] as? String != nil)
        #expect(try host.waitFor("state", timeout: 1) { singers($0).first?["difficulty"] != nil } == nil)
    }

    /// The live session judges a seat on its own difficulty, else the room's; a change to one
    /// seat restarts only that seat's run, a room-wide change every run.
    @Test func aSeatsDifficultyOverridesTheRoomsAndRestartsOnlyThatSeat() {
        var room = RoomSettings()
        room.difficulty = .medium
        var hard = room.singers[1]
        hard.difficulty = .hard
        #expect(LiveRoomSession.difficulty(of: room.singers[0], room: room) == Scoring.Difficulty.medium)
        #expect(LiveRoomSession.difficulty(of: hard, room: room) == Scoring.Difficulty.hard)
        #expect(LiveRoomSession.difficulty(of: nil, room: room) == Scoring.Difficulty.medium)
        var changed = room
        changed.singers[1] = hard
        #expect(LiveRoomSession.changedSeats(room, changed) == [1])
        var roomWide = changed
        roomWide.difficulty = .easy
        #expect(LiveRoomSession.changedSeats(changed, roomWide) == nil)
        var left = changed
        left.singers.removeFirst()
        #expect(LiveRoomSession.changedSeats(changed, left) == [0])
    }
}
