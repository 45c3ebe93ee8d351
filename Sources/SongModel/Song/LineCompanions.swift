/// What is shown with a lyric line besides the sung text (Apple-style lyrics: TTML
/// `ttm:role="x-translation"`, `"x-roman"` and `"x-bg"` spans).
public struct LineCompanions: Sendable, Equatable {
    /// The line in another language, shown under it.
    public var translation: String?
    /// The line in Latin letters (romaji, pinyin …), shown under it.
    public var romanization: String?
    /// Background vocals sung with the line (by the backing singers), as a second line with
    /// its own timing; shown, not scored.
    public var background: BackgroundLine?

    public init(translation: String? = nil, romanization: String? = nil, background: BackgroundLine? = nil) {
        self.translation = translation
        self.romanization = romanization
        self.background = background
    }
}

/// Background vocals of a lyric line, with their own translation and romanisation.
public struct BackgroundLine: Sendable, Equatable {
    public var start: Double
    public var end: Double
    public var syllables: [Syllable]
    public var translation: String?
    public var romanization: String?

    public init(start: Double, end: Double, syllables: [Syllable], translation: String? = nil, romanization: String? = nil) {
        self.start = start
        self.end = end
        self.syllables = syllables
        self.translation = translation
        self.romanization = romanization
    }

    public var text: String { syllables.map(\.text).joined() }
}
