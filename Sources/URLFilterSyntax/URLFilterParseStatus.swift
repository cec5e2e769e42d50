/// The outcome of parsing one url-filter pattern: WebKit's `URLFilterParser::ParseStatus`.
///
/// Raw values are WebKit's enumerator names. `ok` and `matchesEverything` are accepted; every other
/// status makes rule-list compilation fail with `JSONInvalidRegex` (spec §3.3).
///
/// Mirrors `Source/WebCore/contentextensions/URLFilterParser.h` (`ParseStatus`) and
/// `URLFilterParser::statusString` in `URLFilterParser.cpp`.
public enum URLFilterParseStatus: String, Sendable, CaseIterable {
    case ok = "Ok"
    case matchesEverything = "MatchesEverything"
    case nonASCII = "NonASCII"
    case unsupportedCharacterClass = "UnsupportedCharacterClass"
    case backReference = "BackReference"
    case forwardReference = "ForwardReference"
    case misplacedStartOfLine = "MisplacedStartOfLine"
    case wordBoundary = "WordBoundary"
    case atomCharacter = "AtomCharacter"
    case group = "Group"
    case disjunction = "Disjunction"
    case misplacedEndOfLine = "MisplacedEndOfLine"
    case emptyPattern = "EmptyPattern"
    case yarrError = "YarrError"
    case invalidQuantifier = "InvalidQuantifier"

    /// WebKit's internal (debug-log) text for the status, verbatim from `statusString`,
    /// e.g. `"Disjunctions are not supported yet."`.
    public var message: String {
        switch self {
        case .ok: "Ok"
        case .matchesEverything: "Matches everything."
        case .nonASCII: "Only ASCII characters are supported in pattern."
        case .unsupportedCharacterClass: "Character class is not supported."
        case .backReference: "Patterns cannot contain backreferences."
        case .forwardReference: "Patterns cannot contain forward references."
        case .misplacedStartOfLine:
            "Start of line assertion can only appear as the first term in a filter."
        case .wordBoundary: "Word boundaries assertions are not supported yet."
        case .atomCharacter: "Builtins character class atoms are not supported yet."
        case .group: "Groups are not supported yet."
        case .disjunction: "Disjunctions are not supported yet."
        case .misplacedEndOfLine: "The end of line assertion must be the last term in an expression."
        case .emptyPattern: "Empty pattern."
        case .yarrError: "Internal error in YARR."
        case .invalidQuantifier: "Arbitrary atom repetitions are not supported."
        }
    }

    /// `true` for `ok` and `matchesEverything`: a rule using the pattern compiles.
    public var isAccepted: Bool { self == .ok || self == .matchesEverything }
}
