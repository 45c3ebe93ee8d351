/// Splits an LRC file's timed lines into duet parts by their voice marks (`LRCVoice`).
///
/// Marks count only when two or more lines carry one (a lone `D:` is more likely lyrics). A
/// line without a mark is sung by the voice of the last mark before it; lines before the
/// first mark by the first voice named. `D:` lines go to every part. With fewer than two
/// voices the song stays one part, "Solo" (two or more marks of one voice are still removed from the text).
struct LRCVoiceAssignment {
    /// Part names in order, each with the indices of its lines.
    var parts: [(name: String, members: [Int])]
    /// False when the marks are too few to be voice marks: the text keeps them.
    var marksCount = true

    init(marks: [LRCVoice?]) {
        let marked = marks.compactMap { $0 }
        let singers = Set(marked.filter { $0 != .both }).sorted()
        guard marked.count >= 2, singers.count >= 2 else {
            parts = [("Solo", Array(marks.indices))]
            marksCount = marked.count >= 2
            return
        }
        var members: [LRCVoice: [Int]] = [:]
        var current = marked.first { $0 != .both } ?? singers[0]
        var lastMark: LRCVoice?
        for (i, mark) in marks.enumerated() {
            if let mark { lastMark = mark }
            let voice = lastMark ?? current
            if voice == .both {
                for singer in singers { members[singer, default: []].append(i) }
            } else {
                current = voice
                members[voice, default: []].append(i)
            }
        }
        parts = singers.map { ($0.partName, members[$0] ?? []) }.filter { !$0.1.isEmpty }
    }
}
