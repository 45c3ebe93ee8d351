import Foundation
import RoomProtocol
import Testing

@Suite("Protocol: command decoding and event encoding")
struct ProtocolCodingTests {
    @Test func decodesCommandsWithArguments() throws {
        #expect(try CommandEnvelope.decode(#"{"type":"seek","position":12.5,"id":3}"#).get()
                == CommandEnvelope(id: 3, command: .seek(position: 12.5)))
        #expect(try CommandEnvelope.decode(#"{"type":"loop","start":10,"end":20}"#).get().command
                == .loop(LoopPayload(start: 10, end: 20)))
        #expect(try CommandEnvelope.decode(#"{"type":"loop","start":null}"#).get().command == .loop(nil))
        #expect(try CommandEnvelope.decode(#"{"type":"key","semitones":-2}"#).get().command == .key(semitones: -2))
        #expect(try CommandEnvelope.decode(#"{"type":"seekLine","line":4}"#).get().command == .seekLine(part: 0, line: 4))
        #expect(try CommandEnvelope.decode(#"{"type":"difficulty","level":"hard"}"#).get().command == .difficulty(.hard))
        #expect(try CommandEnvelope.decode(#"{"type":"monitor","singer":1,"on":true,"id":9}"#).get()
                == CommandEnvelope(id: 9, command: .monitor(singer: 1, on: true)))
        #expect(try CommandEnvelope.decode(#"{"type":"monitor","singer":0,"on":false}"#).get().command == .monitor(singer: 0, on: false))
        // A phone seat is numbered after the PulseAudio microphones: 2 mics + the 8th phone is singer 9.
        #expect(try CommandEnvelope.decode(#"{"type":"selectSinger","singer":9,"part":1}"#).get().command
                == .selectSinger(singer: 9, part: 1, name: nil))
        #expect(try CommandEnvelope.decode(#"{"type":"micDelay","singer":9,"ms":120}"#).get().command
                == .micDelay(singer: 9, milliseconds: 120))
    }

    @Test func lyricCompanionsIsAHostSettingWithThreeChoices() throws {
        #expect(try CommandEnvelope.decode(#"{"type":"lyricCompanions","show":"romanization"}"#).get().command
                == .lyricCompanions(.romanization))
        #expect(ClientCommand.lyricCompanions(.off).requiredRole == .host)
        guard case .failure(let error) = CommandEnvelope.decode(#"{"type":"lyricCompanions","show":"karaoke"}"#) else {
            Issue.record("an unknown choice was accepted"); return
        }
        #expect(error.code == "badArguments" && error.message.contains("off, translation or romanization"))
    }

    @Test func companionLinesTravelOnlyWhenALineHasThem() throws {
        let plain = LinePayload(index: 0, start: 1, end: 2, text: "la", syllables: [])
        let plainObject = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(plain)) as? [String: Any])
        #expect(Set(plainObject.keys) == ["index", "start", "end", "text", "syllables"])
        let background = BackgroundLinePayload(start: 1.5, end: 2, syllables: [SyllablePayload(text: "(ooh)", start: 1.5, end: 2, note: nil)],
                                               translation: "oh")
        let line = LinePayload(index: 0, start: 1, end: 2, text: "la", syllables: [], translation: "the", romanization: "ra",
                               background: background)
        let decoded = try JSONDecoder().decode(LinePayload.self, from: JSONEncoder().encode(line))
        #expect(decoded == line && decoded.background?.syllables.first?.text == "(ooh)")
    }

    @Test func rejectsBadInputWithCodes() {
        let cases: [(String, String)] = [
            ("[1,2]", "malformedJSON"), ("{\"type\":5}", "malformedJSON"), ("nonsense", "malformedJSON"),
            (#"{"type":"fly"}"#, "unknownCommand"), (#"{"type":"key","semitones":40}"#, "badArguments"),
            (#"{"type":"key","semitones":1.5}"#, "badArguments"), (#"{"type":"seek"}"#, "badArguments"),
            (#"{"type":"loop","start":5,"end":5.1}"#, "badArguments"), (#"{"type":"hello","role":"admin"}"#, "badArguments"),
            (#"{"type":"monitor","singer":0}"#, "badArguments"), (#"{"type":"monitor","singer":0,"on":1}"#, "badArguments"),
            (#"{"type":"monitor","singer":0,"on":"true"}"#, "badArguments"), (#"{"type":"monitor","singer":16,"on":true}"#, "badArguments"),
            (#"{"type":"monitor","singer":-1,"on":true}"#, "badArguments"), (#"{"type":"monitor","on":true}"#, "badArguments"),
            (#"{"type":"monitor","singer":0.5,"on":true}"#, "badArguments"), (#"{"type":"monitor","singer":0,"on":null}"#, "badArguments"),
        ]
        for (text, code) in cases {
            guard case .failure(let error) = CommandEnvelope.decode(text) else {
                Issue.record("\(text) was accepted")
                continue
            }
            #expect(error.code == code, "\(text)")
        }
    }

    @Test func rolesGateCommands() {
        #expect(ClientCommand.play.requiredRole == .host)
        #expect(ClientCommand.monitor(singer: 0, on: true).requiredRole == .host)
        #expect(ClientCommand.queueAdd(songId: "a", requestedBy: nil, playNow: false).requiredRole == .guest)
        #expect(ClientCommand.queueAdd(songId: "a", requestedBy: nil, playNow: true).requiredRole == .host)
        #expect(ClientCommand.hello(role: .host, pin: nil, name: nil).requiredRole == .display)
        #expect(ClientRole.display < .guest && ClientRole.guest < .host)
    }

    @Test func eventsRoundTripThroughTheEnvelope() throws {
        let events: [ServerEvent] = [
            .pitch(PitchPayload(singer: 1, time: 3.25, hz: 440, midi: 69, target: 69, hit: true)),
            .lineScore(LineScorePayload(singer: 0, part: 0, line: 3, score: 310, maxScore: 400, rating: "good")),
            .device(DevicePayload(device: "mic0", status: .lost, message: "unplugged")),
        ]
        for event in events {
            let bytes = event.encoded(sentAt: 1_700_000_000_000)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
            #expect(object["v"] as? Int == ProtocolVersion.current)
            #expect(object["type"] as? String == event.type)
            let decoded = try JSONDecoder().decode(ServerEventEnvelope.self, from: Data(bytes))
            #expect(decoded.event == event)
        }
        #expect(ServerEvent.pitch(PitchPayload(singer: 0, time: 0, hz: 0, midi: nil, target: nil, hit: false)).isDroppable)
        #expect(!ServerEvent.total(TotalPayload(singer: 0, name: "A", score: 1, final: false)).isDroppable)
    }

    @Test func measuredLatenciesAreEncodedOnlyWhenKnown() throws {
        func encoded(_ state: StatePayload) throws -> [String: Any] {
            let bytes = ServerEvent.state(state).encoded(sentAt: 0)
            return try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        }
        var state = StatePayload(transport: .stopped, position: 0, duration: 0, songId: nil, key: 0, tempo: 1, loop: nil,
                                 queue: [], difficulty: .medium,
                                 singers: [SingerPayload(singer: 0, name: "A", part: 0, micDelayMs: 0)], audio: false)
        let silent = try encoded(state)
        #expect(silent.keys.contains("outputLatencyMs") == false)
        let bare = try #require((silent["singers"] as? [[String: Any]])?.first)
        #expect(Set(bare.keys) == ["singer", "name", "part", "micDelayMs"])

        state.audio = true
        state.outputLatencyMs = 31.2
        state.singers = [
            SingerPayload(singer: 0, name: "A", part: 0, micDelayMs: 0, inputLatencyMs: 4.5, effectiveMicDelayMs: 140, micDelaySource: .default),
            SingerPayload(singer: 1, name: "B", part: 1, micDelayMs: 95, inputLatencyMs: nil, effectiveMicDelayMs: 95, micDelaySource: .room),
            SingerPayload(singer: 2, name: "C", part: 0, micDelayMs: 0, inputLatencyMs: 9, effectiveMicDelayMs: 26.5, micDelaySource: .calibrated),
        ]
        let object = try encoded(state)
        #expect(object["outputLatencyMs"] as? Double == 31.2)
        let singers = try #require(object["singers"] as? [[String: Any]])
        #expect(singers.map { $0["micDelaySource"] as? String } == ["default", "room", "calibrated"])
        #expect(singers.map { $0["effectiveMicDelayMs"] as? Double } == [140, 95, 26.5])
        #expect(singers[0]["inputLatencyMs"] as? Double == 4.5 && singers[1].keys.contains("inputLatencyMs") == false)
        let decoded = try JSONDecoder().decode(ServerEventEnvelope.self, from: Data(ServerEvent.state(state).encoded(sentAt: 0)))
        #expect(decoded.event == .state(state))
        // A client's unknown source value is a decoding error, not a crash.
        let unknown = #"{"singer":0,"name":"A","part":0,"micDelayMs":0,"micDelaySource":"guessed"}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(SingerPayload.self, from: Data(unknown.utf8)) }
    }
}
