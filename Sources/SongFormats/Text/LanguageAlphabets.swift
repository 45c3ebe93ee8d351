/// The letters beyond ASCII that the languages karaoke is sung in write with, lower case: a
/// word whose accented letters no single language has (`sońaré`: ń is Polish, é is not) is a
/// wrong decoding. Latin-script languages of the Windows and DOS code pages, plus Cyrillic.
enum LanguageAlphabets {
    static let latin: [(language: String, letters: Set<Unicode.Scalar>)] = [
        ("es", "áéíóúüñ"), ("pt", "áâãàçéêíóôõúü"), ("fr", "àâæçéèêëîïôœùûüÿ"), ("de", "äöüß"),
        ("it", "àèéìíîòóùú"), ("ca", "àçéèíïóòúü"), ("nl", "áéèëïóöüíú"), ("sv/fi", "åäöé"),
        ("da/no", "æøåéó"), ("is", "áðéíóúýþæö"), ("et", "äöõüšž"), ("pl", "ąćęłńóśźż"),
        ("cs", "áčďéěíňóřšťúůýž"), ("sk", "áäčďéíĺľňóôŕšťúýž"), ("hu", "áéíóöőúüű"),
        ("ro", "ăâîșşțţ"), ("hr/bs", "čćđšž"), ("sl", "čšž"), ("sq", "ëç"),
    ].map { ($0.0, Set($0.1.unicodeScalars)) }

    /// How many of `words` (each the set of its non-ASCII letters, lower case) the best single
    /// language can write: lyrics are in one language (or a few words of a second).
    static func wordsOfBestLanguage(_ words: [Set<Unicode.Scalar>]) -> Int {
        guard !words.isEmpty else { return 0 }
        let cyrillic = words.filter { $0.allSatisfy { CodePageEvidence.script($0) == .cyrillic } }.count
        let latinBest = latin.map { alphabet in words.filter { $0.isSubset(of: alphabet.letters) }.count }.max() ?? 0
        return max(cyrillic, latinBest)
    }
}
