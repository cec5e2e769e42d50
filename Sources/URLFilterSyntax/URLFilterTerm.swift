/// A set of ASCII code points (0–127) as WebKit's `Term::CharacterSet` stores it: 128 bits plus an
/// "inverted" flag. Code point 0 stands for the engine's end-of-input marker.
///
/// Semantics (mirrors `Term::generateSubgraphForAtom` in `Source/WebCore/contentextensions/Term.h`):
/// a non-inverted set matches exactly its members (member 0 = end of input); an inverted set matches
/// the code points 1–127 that are *not* members (it never matches end of input).
public struct URLFilterCharacterSet: Sendable, Hashable {
    /// Bits 0–63 (bit *n* = code point *n*).
    public var low: UInt64
    /// Bits 64–127 (bit *n* = code point 64 + *n*).
    public var high: UInt64
    /// `true` for a `[^…]` class.
    public var isInverted: Bool

    /// An empty, optionally inverted set.
    public init(inverted: Bool = false) {
        low = 0
        high = 0
        isInverted = inverted
    }

    /// The set `.` builds: code points 1–127 (WebKit's `Term::UniversalTransition`).
    public static var universal: URLFilterCharacterSet {
        var set = URLFilterCharacterSet()
        set.low = ~UInt64(1)
        set.high = ~UInt64(0)
        return set
    }

    /// Whether bit `codePoint` (0–127) is set. O(1).
    public func hasBit(_ codePoint: UInt8) -> Bool {
        codePoint < 64 ? (low >> UInt64(codePoint)) & 1 == 1 : (high >> UInt64(codePoint - 64)) & 1 == 1
    }

    /// Sets bit `codePoint` (must be < 128).
    public mutating func setBit(_ codePoint: UInt8) {
        precondition(codePoint < 128, "URLFilterCharacterSet holds ASCII only")
        if codePoint < 64 {
            low |= UInt64(1) << UInt64(codePoint)
        } else {
            high |= UInt64(1) << UInt64(codePoint - 64)
        }
    }

    /// Adds a character the way WebKit's `Term::addCharacter` does: an ASCII letter adds both cases
    /// unless `caseSensitive`.
    public mutating func add(_ codePoint: UInt8, caseSensitive: Bool) {
        if !caseSensitive, let other = Self.otherCase(codePoint) { setBit(other) }
        setBit(codePoint)
    }

    /// Number of set bits (not the number of matched code points when inverted).
    public var bitCount: Int { low.nonzeroBitCount + high.nonzeroBitCount }

    /// WebKit's `isEndOfLineAssertion`: exactly one bit, bit 0 (the inverted flag is not looked at).
    public var isEndOfLineAssertion: Bool { bitCount == 1 && hasBit(0) }

    /// WebKit's `isUniversalTransition` for sets: inverted and empty, or exactly the bits 1–127.
    public var isUniversal: Bool {
        isInverted ? bitCount == 0 : (bitCount == 127 && !hasBit(0))
    }

    /// Whether the set matches the end-of-input marker (non-inverted with bit 0 set).
    public var matchesEndOfInput: Bool { !isInverted && hasBit(0) }

    /// The code points 1–127 the set matches (sorted). O(number of matched code points).
    public var matchedCharacters: [UInt8] {
        var low = self.low & ~UInt64(1)
        var high = self.high
        if isInverted {
            low = ~low & ~UInt64(1)
            high = ~high
        }
        var result: [UInt8] = []
        result.reserveCapacity(low.nonzeroBitCount + high.nonzeroBitCount)
        while low != 0 {
            result.append(UInt8(low.trailingZeroBitCount))
            low &= low - 1
        }
        while high != 0 {
            result.append(UInt8(64 + high.trailingZeroBitCount))
            high &= high - 1
        }
        return result
    }

    /// How many code points 1–127 the set matches. O(1).
    public var matchedCount: Int {
        let members = (low & ~UInt64(1)).nonzeroBitCount + high.nonzeroBitCount
        return isInverted ? 127 - members : members
    }

    /// The matched code points 1–127 as two 64-bit masks (bit 0 always clear). O(1).
    var matchedMask: (low: UInt64, high: UInt64) {
        isInverted ? (~low & ~UInt64(1), ~high) : (low & ~UInt64(1), high)
    }

    /// Whether the set matches code point `c` (1–127).
    func hasMatched(_ c: UInt8) -> Bool { hasBit(c) != isInverted }

    static func otherCase(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "a")...UInt8(ascii: "z"): c - 32
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): c + 32
        default: nil
        }
    }
}

/// How often an atom repeats: WebKit's `AtomQuantifier`.
public enum URLFilterQuantifier: Sendable, Hashable {
    /// Exactly once.
    case one
    /// `?` (also `{0,1}`).
    case zeroOrOne
    /// `*` (also `{0,}`).
    case zeroOrMore
    /// `+` (also `{1,}`).
    case oneOrMore

    /// The PCRE2 / JavaScript suffix: `""`, `"?"`, `"*"` or `"+"`.
    public var suffix: String {
        switch self {
        case .one: ""
        case .zeroOrOne: "?"
        case .zeroOrMore: "*"
        case .oneOrMore: "+"
        }
    }
}

/// One term of a parsed url-filter (WebKit's `Term`): a character set or a group, with a quantifier
/// and the byte range of the pattern text it came from.
public struct URLFilterTerm: Sendable, Hashable {
    /// What the term matches once.
    public enum Atom: Sendable, Hashable {
        /// A character set (a literal character, `.`, `[…]`, `$`, `\0`…).
        case characterSet(URLFilterCharacterSet)
        /// A group; the children are indices into `URLFilterTermTree.nodes`.
        case group(children: [Int])
    }

    /// The atom.
    public var atom: Atom
    /// Its quantifier.
    public var quantifier: URLFilterQuantifier
    /// Byte range in the pattern (empty for the `.*` WebKit inserts during normalization).
    public var span: Range<Int>

    /// Creates a term.
    public init(atom: Atom, quantifier: URLFilterQuantifier = .one, span: Range<Int>) {
        self.atom = atom
        self.quantifier = quantifier
        self.span = span
    }
}

/// A parsed pattern as a flat arena of terms (no nested Swift values, so arbitrarily deep groups are
/// built, walked and freed without recursion). `topLevel` lists the terms of the whole pattern in
/// order; group terms list their children by index.
public struct URLFilterTermTree: Sendable, Hashable {
    /// All terms built while parsing (a group is stored after its children; the canonical `.*` that
    /// normalization inserts is one extra term). Only terms reachable from `topLevel` matter.
    public var nodes: [URLFilterTerm]
    /// The top-level sequence, after WebKit's normalization (spec §3.4).
    public var topLevel: [Int]
    /// `true` when the pattern began with `^`.
    public var isAnchoredAtStart: Bool
}
