/// Decides whether a string is a selector list WebKit's CSS parser accepts (quirks mode), as
/// `isValidCSSSelector` does for `css-display-none` rules (`ContentExtensionParser.cpp`, using
/// `CSSSelectorParser` and the pseudo-class/element table `Source/WebCore/css/CSSPseudoSelectors.json`).
///
/// Supported: type and universal selectors with `*|` / `|` namespace prefixes (a named prefix is
/// invalid: no namespace can be declared), `&`, `#id`, `.class`, attribute selectors (`= ~= |= ^= $= *=`,
/// the `i` flag; WebKit rejects `s`), the combinators descendant, `>`, `+`, `~`, WebKit's pseudo-classes (including
/// `:not() :is() :matches() :where() :-webkit-any() :has() :nth-*() :lang() :dir() :host() :state()`)
/// and pseudo-elements (including the single-colon legacy forms and any `::-webkit-` name), CSS
/// escapes, comments, and blocks left open at the end of the text (closed implicitly, as in CSS).
/// `:is()`/`:where()` take forgiving lists (any content is accepted). `""` is invalid.
///
/// Nested functional pseudo-classes are validated with an explicit work list, not recursion.
/// - Complexity: O(n) in the selector length (each argument range is scanned a bounded number of times).
public enum CSSSelectorValidator {
    /// True when WebKit accepts `selector` as a selector list.
    public static func isValidSelectorList(_ selector: String) -> Bool {
        let tokens = CSSTokenizer.tokenize(selector)
        var parser = SelectorParser(tokens: tokens)
        return parser.run()
    }
}

/// How a token range must be parsed.
struct SelectorTask {
    enum Grammar {
        /// `<complex-selector-list>`.
        case complexList
        /// `<relative-selector-list>` (`:has()`).
        case relativeList
        /// `<compound-selector-list>` (`:-webkit-any()`).
        case compoundList
        /// One `<compound-selector>` (`:host()`, `::slotted()`).
        case compound
    }
    var start: Int
    var end: Int
    var grammar: Grammar
    var allowsPseudoElements: Bool
    var insideHas: Bool
    /// The pseudo-element in force where this argument range appears: every non-type simple
    /// selector in the range must be allowed after it (WebKit keeps `m_precedingPseudoElement`
    /// while `consumePseudo` parses arguments, and `consumeSimpleSelector` checks each one).
    var precedingPseudoElement: PseudoElementKind?
}

struct SelectorParser {
    let tokens: [CSSToken]
    var i = 0
    var end = 0
    var task = SelectorTask(
        start: 0, end: 0, grammar: .complexList, allowsPseudoElements: true, insideHas: false,
        precedingPseudoElement: nil)
    var pending: [SelectorTask] = []
    /// Whether the compound parsed last contains a pseudo-element.
    var compoundHasPseudoElement = false
    /// The pseudo-element that simple selectors parsed now must be allowed after: the last one in
    /// the current compound, else the task's (WebKit `m_precedingPseudoElement`).
    var precedingPseudoElement: PseudoElementKind?

    let closers: [Int]

    init(tokens: [CSSToken]) {
        self.tokens = tokens
        closers = Self.matchBlocks(tokens)
    }

    mutating func run() -> Bool {
        pending.append(
            SelectorTask(
                start: 0, end: tokens.count, grammar: .complexList, allowsPseudoElements: true, insideHas: false,
                precedingPseudoElement: nil))
        while let next = pending.popLast() {
            task = next
            i = next.start
            end = next.end
            guard parseTask() else { return false }
        }
        return true
    }

    // MARK: Token helpers

    func peek(_ offset: Int = 0) -> CSSToken? { i + offset < end ? tokens[i + offset] : nil }
    func isDelim(_ token: CSSToken?, _ c: String) -> Bool { token?.kind == .delim && token?.value == c }
    mutating func skipWhitespace() { while peek()?.kind == .whitespace { i += 1 } }

    /// Index of the token closing the block opened at `opener` (a function, `(`, `[` or `{`), or the
    /// end of the current range when the block is left open (CSS closes it implicitly).
    func blockEnd(opener: Int) -> Int { min(closers[opener], end) }

    /// For each opening token, the index of its closing token (`tokens.count` when never closed).
    /// A closing token of another kind inside a block is an ordinary token of that block, as in CSS.
    static func matchBlocks(_ tokens: [CSSToken]) -> [Int] {
        var closers = Array(repeating: tokens.count, count: tokens.count)
        var open: [(index: Int, closer: CSSToken.Kind)] = []
        for (index, token) in tokens.enumerated() {
            switch token.kind {
            case .function, .leftParen: open.append((index, .rightParen))
            case .leftBracket: open.append((index, .rightBracket))
            case .leftBrace: open.append((index, .rightBrace))
            case .rightParen, .rightBracket, .rightBrace:
                if let top = open.last, top.closer == token.kind {
                    closers[top.index] = index
                    open.removeLast()
                }
            default: break
            }
        }
        return closers
    }

    // MARK: Lists

    mutating func parseTask() -> Bool {
        skipWhitespace()
        if task.grammar == .compound {
            guard parseCompound() else { return false }
            skipWhitespace()
            return i == end
        }
        while true {
            skipWhitespace()
            switch task.grammar {
            case .complexList: guard parseComplex(relative: false) else { return false }
            case .relativeList: guard parseComplex(relative: true) else { return false }
            case .compoundList: guard parseCompound() else { return false }
            case .compound: return false
            }
            skipWhitespace()
            if i == end { return true }
            guard peek()?.kind == .comma else { return false }
            i += 1
        }
    }

    static func combinator(_ token: CSSToken?) -> Bool {
        guard let token, token.kind == .delim else { return false }
        return token.value == ">" || token.value == "+" || token.value == "~"
    }

    mutating func parseComplex(relative: Bool) -> Bool {
        if relative, Self.combinator(peek()) {
            i += 1
            skipWhitespace()
        }
        guard parseCompound() else { return false }
        while true {
            let before = i
            skipWhitespace()
            let sawWhitespace = i > before
            // A pseudo-element ends the selector: no combinator may follow its compound.
            if Self.combinator(peek()) {
                guard !compoundHasPseudoElement else { return false }
                i += 1
                skipWhitespace()
                guard parseCompound() else { return false }
                continue
            }
            if sawWhitespace, let token = peek(), token.kind != .comma {
                guard !compoundHasPseudoElement else { return false }
                guard parseCompound() else { return false }
                continue
            }
            return true
        }
    }

    // MARK: Compound selectors

    /// Parses a compound selector (WebKit `consumeCompoundSelector`). After a pseudo-element, each
    /// simple selector must be allowed after it (`isSimpleSelectorValidAfterPseudoElement`); the type
    /// selector is never checked, as WebKit parses it with `consumeName`, not `consumeSimpleSelector`.
    mutating func parseCompound() -> Bool {
        compoundHasPseudoElement = false
        precedingPseudoElement = task.precedingPseudoElement
        var parsedSomething = false
        if let result = parseTypeSelector() {
            guard result else { return false }
            parsedSomething = true
        }
        while let token = peek() {
            switch token.kind {
            case .hash(let isID):
                guard isID, precedingPseudoElement == nil else { return false }
                i += 1
            case .delim where token.value == ".":
                guard precedingPseudoElement == nil, peek(1)?.kind == .ident else { return false }
                i += 2
            case .delim where token.value == "&":
                guard precedingPseudoElement == nil else { return false }
                i += 1
            case .leftBracket:
                guard precedingPseudoElement == nil, parseAttribute() else { return false }
            case .colon:
                if peek(1)?.kind == .colon {
                    guard task.allowsPseudoElements else { return false }
                    i += 2
                    // Arguments of this pseudo-element are checked against the one before it.
                    guard let kind = parsePseudoElement() else { return false }
                    guard precedingPseudoElement?.allowsPseudoElement(kind) ?? true else { return false }
                    precedingPseudoElement = kind
                    compoundHasPseudoElement = true
                } else {
                    i += 1
                    if let name = peek()?.kind == .ident ? peek()?.value.lowercased() : nil,
                        PseudoTables.legacyPseudoElements.contains(name)
                    {
                        // `:before`, `:after`, `:first-line`, `:first-letter`: pseudo-elements.
                        guard task.allowsPseudoElements else { return false }
                        let kind: PseudoElementKind = name == "before" || name == "after" ? .treeAbiding : .other
                        guard precedingPseudoElement?.allowsPseudoElement(kind) ?? true else { return false }
                        i += 1
                        precedingPseudoElement = kind
                        compoundHasPseudoElement = true
                    } else {
                        guard let name = parsePseudoClass() else { return false }
                        if let precedingPseudoElement, !precedingPseudoElement.allowsAfter(name) { return false }
                    }
                }
            default:
                return parsedSomething
            }
            parsedSomething = true
        }
        return parsedSomething
    }

    /// Parses `[ns|]name` / `[ns|]*`; `nil` when there is none, `false` when invalid.
    mutating func parseTypeSelector() -> Bool? {
        let first = peek()
        let isName = first?.kind == .ident || isDelim(first, "*")
        if isName, isDelim(peek(1), "|"), let third = peek(2), third.kind == .ident || isDelim(third, "*") {
            // A named prefix cannot be resolved without a style sheet declaring it.
            guard isDelim(first, "*") else { return false }
            i += 3
            return true
        }
        if isDelim(first, "|"), let second = peek(1), second.kind == .ident || isDelim(second, "*") {
            i += 2
            return true
        }
        if isName {
            i += 1
            return true
        }
        return nil
    }

    mutating func parseAttribute() -> Bool {
        let close = blockEnd(opener: i)
        let outerEnd = end
        end = close
        i += 1
        defer {
            end = outerEnd
            i = min(close + 1, outerEnd)
        }
        skipWhitespace()
        // Attribute name with an optional namespace prefix.
        if let first = peek(), first.kind == .ident || isDelim(first, "*"), isDelim(peek(1), "|"),
            peek(2)?.kind == .ident
        {
            guard isDelim(first, "*") else { return false }
            i += 2
        } else if isDelim(peek(), "|"), peek(1)?.kind == .ident {
            i += 1
        }
        guard peek()?.kind == .ident else { return false }
        i += 1
        skipWhitespace()
        if i == end { return true }
        // Matcher.
        if isDelim(peek(), "=") {
            i += 1
        } else if let token = peek(), token.kind == .delim, ["~", "|", "^", "$", "*"].contains(token.value),
            isDelim(peek(1), "=")
        {
            i += 2
        } else {
            return false
        }
        skipWhitespace()
        guard let value = peek(), value.kind == .ident || value.kind == .string else { return false }
        i += 1
        skipWhitespace()
        if let flag = peek(), flag.kind == .ident {
            guard flag.value.lowercased() == "i" else { return false }  // WebKit knows only `i`
            i += 1
            skipWhitespace()
        }
        return i == end
    }
}
