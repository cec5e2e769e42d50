/// What a search for a url-filter's PCRE2 text (``URLFilterParseResult/pcre2Pattern``) can be told in
/// advance, read from the url-filter's terms as the ``Translator`` writes them: literals every match
/// holds, the end every match has, how often some bytes occur, a faster spelling for the subjects a
/// serialized URL is made of, and whether the text repeats a group.
///
/// The fast matcher checks the literals before it runs PCRE2 and searches canonical URLs with
/// ``asciiSubjectPattern``. Each fact is derived from the same walk over the terms that writes the
/// PCRE2 text, so the two cannot disagree; the tests also read the facts off the PCRE2 text with an
/// independent reader and compare them on every pattern of the bundled rule lists.
public struct URLFilterSearchFacts: Sendable, Hashable {
    /// The PCRE2 text is case-insensitive (it begins with `(?i)`): ``mandatoryRuns``, ``suffix`` and
    /// ``byteDemand`` are lower-cased (ASCII) and are looked for in the lower-cased subject.
    public var caseless: Bool
    /// Runs of two bytes or more that every match contains, longest first (on a tie, in pattern order).
    /// A run is made of the literal characters the PCRE2 text requires in place, one after another: a
    /// character repeated with `+` ends the run after it; `?`, `*`, a class, a group that repeats or is
    /// optional, an assertion end it. Empty when the text holds an alternation the reading does not
    /// follow (an end of input that a character may stand for: `(?:x|\z)`).
    public var mandatoryRuns: [[UInt8]]
    /// The run every match ends the subject with: the run just before a required end of input (`$`);
    /// empty when there is none.
    public var suffix: [UInt8]
    /// Bytes every match holds at least `count` times (runs of any length counted: they are distinct
    /// parts of the match), for the bytes of one-byte runs only, which ``mandatoryRuns`` leaves out;
    /// ascending by byte.
    public var byteDemand: [ByteDemand]
    /// The PCRE2 text repeats a group with a greedy `*` or `+` (`(?:ab)+`), the shape of exponential
    /// backtracking: the matcher gives such searches a small backtracking limit before it falls back
    /// to PCRE2's DFA algorithm.
    public var repeatsAGroup: Bool
    /// A spelling of the PCRE2 text that is exact only for subjects whose bytes are all 1–127 (every
    /// canonical URL serialization: the URL Standard percent-encodes every other byte, and NUL is a
    /// forbidden host code point), and faster on them; `nil` when it would be the text itself.
    ///
    /// It begins with `(?s)`, writes WebKit's `.` as PCRE2's `.` (every byte under `(?s)`, so PCRE2
    /// runs a final `.*` without stepping through the subject), drops the skip over runs that hold a
    /// byte outside 1–127 (on such subjects it cannot match once), and makes lazy a `.*` outside every
    /// group that more follows, in a text that does not end with `$`: whether the pattern matches does not
    /// depend on the order in which such a quantifier tries its lengths, and `.*` before a literal then
    /// steps forward to the literal's first occurrence instead of jumping to the end of a long URL and
    /// stepping back (`Benchmarks/results/2026-12-03-notes.md`).
    public var asciiSubjectPattern: String?

    /// A byte and how many times every match holds it.
    public struct ByteDemand: Sendable, Hashable {
        public var byte: UInt8
        public var count: Int

        public init(byte: UInt8, count: Int) {
            self.byte = byte
            self.count = count
        }
    }

    public init(
        caseless: Bool, mandatoryRuns: [[UInt8]], suffix: [UInt8], byteDemand: [ByteDemand], repeatsAGroup: Bool,
        asciiSubjectPattern: String?
    ) {
        self.caseless = caseless
        self.mandatoryRuns = mandatoryRuns
        self.suffix = suffix
        self.byteDemand = byteDemand
        self.repeatsAGroup = repeatsAGroup
        self.asciiSubjectPattern = asciiSubjectPattern
    }
}

/// Collects the literal runs of a walk over the terms the translator writes.
struct MandatoryRunCollector {
    static let minimumLength = 2
    let caseless: Bool
    private(set) var runs: [[UInt8]] = []
    private var run: [UInt8] = []
    private(set) var suffix: [UInt8] = []
    /// Per byte: occurrences in all runs, and whether one is in a run shorter than the minimum.
    private var counts = [Int](repeating: 0, count: 256)
    private var inShortRun = [Bool](repeating: false, count: 256)
    /// An alternation was written where the reading would have to follow it: no runs at all.
    private(set) var gaveUp = false

    init(caseless: Bool) { self.caseless = caseless }

    /// A literal character the text requires here (lower-cased when caseless).
    mutating func append(_ byte: UInt8) {
        run.append(caseless && byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte)
    }

    /// Something that is not a required literal: the current run ends.
    mutating func endRun() {
        for byte in run {
            counts[Int(byte)] += 1
            if run.count < Self.minimumLength { inShortRun[Int(byte)] = true }
        }
        if run.count >= Self.minimumLength { runs.append(run) }
        run.removeAll(keepingCapacity: true)
    }

    /// A required end of input: the run just before it is the end of every match.
    mutating func endOfInput() {
        suffix = run
        endRun()
    }

    mutating func giveUp() { gaveUp = true }

    /// The facts, with the given repetition flag and ASCII-subject spelling.
    mutating func facts(repeatsAGroup: Bool, asciiSubjectPattern: String?) -> URLFilterSearchFacts {
        endRun()
        guard !gaveUp else {
            return URLFilterSearchFacts(
                caseless: caseless, mandatoryRuns: [], suffix: [], byteDemand: [], repeatsAGroup: repeatsAGroup,
                asciiSubjectPattern: asciiSubjectPattern)
        }
        runs.sort { $0.count > $1.count }
        let demand = (0..<256).filter { inShortRun[$0] }.map {
            URLFilterSearchFacts.ByteDemand(byte: UInt8($0), count: counts[$0])
        }
        return URLFilterSearchFacts(
            caseless: caseless, mandatoryRuns: runs, suffix: suffix, byteDemand: demand, repeatsAGroup: repeatsAGroup,
            asciiSubjectPattern: asciiSubjectPattern)
    }
}
