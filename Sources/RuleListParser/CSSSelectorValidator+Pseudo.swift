/// WebKit's pseudo-class and pseudo-element names (`Source/WebCore/css/CSSPseudoSelectors.json`,
/// web-exposed entries; `-internal-` and `-apple-` ones are restricted and left out). Names behind
/// settings that are off in WebKitGTK 2.50.6 are left out too, as its parser does not know them:
/// `:open`, `:closed`, `:popover-open`, `:picture-in-picture`, the `:-webkit-full-screen-*` aliases
/// other than `:-webkit-full-screen`, `::target-text`, `::thumb`, `::track` and `::view-transition*`.
enum PseudoTables {
    static let plainPseudoClasses: Set<String> = [
        "-webkit-autofill-and-obscured", "-webkit-autofill-strong-password",
        "-webkit-autofill-strong-password-viewable", "-webkit-drag", "active", "any-link", "-webkit-any-link",
        "autofill", "-webkit-autofill", "buffering", "checked", "corner-present", "decrement", "default", "defined",
        "disabled", "double-button", "empty", "enabled", "end", "first-child", "first-of-type", "focus",
        "focus-visible", "focus-within", "fullscreen", "-webkit-full-screen", "future", "horizontal", "host", "hover",
        "in-range", "increment", "indeterminate", "invalid", "last-child", "last-of-type", "link", "modal", "muted",
        "no-button", "only-child", "only-of-type", "optional", "out-of-range", "past", "paused", "placeholder-shown",
        "playing", "read-only", "read-write", "required", "root", "scope", "seeking", "stalled", "single-button",
        "start", "target", "user-invalid", "user-valid", "valid", "vertical", "visited", "volume-locked",
        "window-inactive",
    ]
    static let functionalPseudoClasses: Set<String> = [
        "-webkit-any", "dir", "has", "host", "is", "matches", "lang", "not", "nth-child", "nth-last-child",
        "nth-last-of-type", "nth-of-type", "state", "where",
    ]
    static let scrollbarPseudoClasses: Set<String> = [
        "horizontal", "vertical", "decrement", "increment", "start", "end", "double-button", "single-button",
        "no-button", "corner-present", "window-inactive", "enabled", "disabled", "hover", "active",
    ]
    static let userActionPseudoClasses: Set<String> = ["hover", "focus", "active", "focus-visible", "focus-within"]
    static let treeStructuralPseudoClasses: Set<String> = [
        "empty", "first-child", "first-of-type", "last-child", "last-of-type", "only-child", "only-of-type", "root",
        "nth-child", "nth-last-child", "nth-of-type", "nth-last-of-type",
    ]
    /// Pseudo-elements that also take the CSS 2.1 single-colon form.
    static let legacyPseudoElements: Set<String> = ["after", "before", "first-letter", "first-line"]
    static let plainPseudoElements: Set<String> = [
        "after", "backdrop", "before", "cue", "file-selector-button", "first-letter", "first-line", "grammar-error",
        "marker", "placeholder", "selection", "spelling-error", "details-content",
    ]
    static let functionalPseudoElements: Set<String> = ["cue", "highlight", "part", "slotted"]
    static let scrollbarPseudoElements: Set<String> = [
        "-webkit-resizer", "-webkit-scrollbar", "-webkit-scrollbar-button", "-webkit-scrollbar-corner",
        "-webkit-scrollbar-thumb", "-webkit-scrollbar-track", "-webkit-scrollbar-track-piece",
    ]
}

/// What a pseudo-element allows after it in the same compound, arguments of later pseudo-classes
/// and pseudo-elements included (WebKit `isSimpleSelectorValidAfterPseudoElement` and
/// `isPseudoClassValidAfterPseudoElement`). Ids, classes, `&` and attribute selectors are never
/// allowed after a pseudo-element.
enum PseudoElementKind {
    /// `::-webkit-scrollbar` and its parts.
    case scrollbar
    /// User-agent parts (`::placeholder`, `::file-selector-button`, `::details-content`, the
    /// `::cue` ident, any `::-webkit-` name): user-action pseudo-classes may follow.
    case userAgentPart
    case part, slotted, selection
    /// `::before`, `::after`, `::marker`, `::backdrop` (`isTreeAbidingPseudoElement`).
    case treeAbiding
    case other

    /// `isLogicalCombinationPseudoClass`: valid after any pseudo-element (their arguments are
    /// then checked against it, except the forgiving lists of `:is()`, `:where()`, `:-webkit-any()`).
    static let logicalCombinations: Set<String> = ["is", "matches", "where", "not", "-webkit-any", "has"]

    func allowsAfter(_ pseudoClass: String) -> Bool {
        if Self.logicalCombinations.contains(pseudoClass) { return true }
        switch self {
        case .scrollbar: return PseudoTables.scrollbarPseudoClasses.contains(pseudoClass)
        case .userAgentPart: return PseudoTables.userActionPseudoClasses.contains(pseudoClass)
        case .part: return !PseudoTables.treeStructuralPseudoClasses.contains(pseudoClass)
        case .selection: return pseudoClass == "window-inactive"
        case .slotted, .treeAbiding, .other: return false
        }
    }

    /// Only `::part()` (any pseudo-element but another `::part()`) and `::slotted()` (tree-abiding
    /// ones) take a following pseudo-element.
    func allowsPseudoElement(_ next: PseudoElementKind) -> Bool {
        switch self {
        case .part: return next != .part
        case .slotted: return next == .treeAbiding
        default: return false
        }
    }
}

extension SelectorParser {
    /// Parses a pseudo-class after its `:`; returns its lower-cased name, or `nil` when invalid.
    /// Selector arguments are queued as tasks (validated later by the work list).
    mutating func parsePseudoClass() -> String? {
        guard let token = peek() else { return nil }
        let name = token.value.lowercased()
        if token.kind == .ident {
            guard PseudoTables.plainPseudoClasses.contains(name) else { return nil }
            i += 1
            return name
        }
        guard token.kind == .function, PseudoTables.functionalPseudoClasses.contains(name) else { return nil }
        let close = blockEnd(opener: i)
        let argumentStart = i + 1
        i = min(close + 1, end)
        switch name {
        case "is", "matches", "where", "-webkit-any":
            return name  // forgiving selector list: invalid parts are dropped, never an error
        case "not":
            queue(argumentStart, close, .complexList)
        case "host":
            queue(argumentStart, close, .compound)
        case "has":
            guard !task.insideHas else { return nil }
            queue(argumentStart, close, .relativeList, insideHas: true)
        case "nth-child", "nth-last-child":
            guard let afterAnB = parseAnPlusB(from: argumentStart, to: close) else { return nil }
            var k = afterAnB
            while k < close, tokens[k].kind == .whitespace { k += 1 }
            if k < close {
                // `of <complex-selector-list>`.
                guard tokens[k].kind == .ident, tokens[k].value.lowercased() == "of" else { return nil }
                queue(k + 1, close, .complexList)
            }
        case "nth-of-type", "nth-last-of-type":
            guard let afterAnB = parseAnPlusB(from: argumentStart, to: close), onlyWhitespace(afterAnB, close) else {
                return nil
            }
        case "lang":
            guard validLangList(argumentStart, close) else { return nil }
        case "dir", "state":
            guard singleIdent(argumentStart, close) else { return nil }
        default:
            return nil
        }
        return name
    }

    /// Queues an argument range: no pseudo-element may appear in it, and the pseudo-element in force
    /// here stays in force there.
    mutating func queue(_ start: Int, _ end: Int, _ grammar: SelectorTask.Grammar, insideHas: Bool? = nil) {
        pending.append(
            SelectorTask(
                start: start, end: end, grammar: grammar, allowsPseudoElements: false,
                insideHas: insideHas ?? task.insideHas, precedingPseudoElement: precedingPseudoElement))
    }

    /// Parses a pseudo-element after `::`; `nil` when invalid.
    mutating func parsePseudoElement() -> PseudoElementKind? {
        guard let token = peek() else { return nil }
        let name = token.value.lowercased()
        if token.kind == .ident {
            i += 1
            if PseudoTables.scrollbarPseudoElements.contains(name) { return .scrollbar }
            if name == "selection" { return .selection }
            if PseudoTables.plainPseudoElements.contains(name) {
                switch name {
                case "placeholder", "file-selector-button", "cue", "details-content": return .userAgentPart
                case "before", "after", "marker", "backdrop": return .treeAbiding
                default: return .other
                }
            }
            // Every `-webkit-` pseudo-element is accepted (user-agent parts and unknown legacy names).
            if name.hasPrefix("-webkit-") { return .userAgentPart }
            return nil
        }
        guard token.kind == .function, PseudoTables.functionalPseudoElements.contains(name) else { return nil }
        let close = blockEnd(opener: i)
        let argumentStart = i + 1
        i = min(close + 1, end)
        switch name {
        case "cue":
            queue(argumentStart, close, .compoundList)
            return .other
        case "slotted":
            queue(argumentStart, close, .compound)
            return .slotted
        case "part":
            var k = argumentStart
            var count = 0
            while k < close {
                switch tokens[k].kind {
                case .whitespace: break
                case .ident: count += 1
                default: return nil
                }
                k += 1
            }
            return count > 0 ? .part : nil
        default:  // highlight
            return singleIdent(argumentStart, close) ? .other : nil
        }
    }

    func onlyWhitespace(_ start: Int, _ end: Int) -> Bool {
        (start..<end).allSatisfy { tokens[$0].kind == .whitespace }
    }

    func singleIdent(_ start: Int, _ end: Int) -> Bool {
        let parts = (start..<end).filter { tokens[$0].kind != .whitespace }
        return parts.count == 1 && tokens[parts[0]].kind == .ident
    }

    /// `:lang()`: a comma-separated, non-empty list of identifiers or strings.
    func validLangList(_ start: Int, _ end: Int) -> Bool {
        let parts = (start..<end).filter { tokens[$0].kind != .whitespace }
        guard !parts.isEmpty else { return false }
        for (n, index) in parts.enumerated() {
            let kind = tokens[index].kind
            if n % 2 == 0 {
                guard kind == .ident || kind == .string, !tokens[index].value.hasPrefix("--") else { return false }
            } else {
                guard kind == .comma else { return false }
            }
        }
        return parts.count % 2 == 1
    }

    /// Parses `<an+b>` (CSS Syntax §6.2) in `start..<end`, after leading whitespace; returns the
    /// index just after it, or `nil` when invalid.
    func parseAnPlusB(from start: Int, to end: Int) -> Int? {
        var k = start
        func skip() { while k < end, tokens[k].kind == .whitespace { k += 1 } }
        func isSignlessInteger(_ t: CSSToken) -> Bool { t.kind == .number(isInteger: true, hasSign: false) }
        func isSignedInteger(_ t: CSSToken) -> Bool { t.kind == .number(isInteger: true, hasSign: true) }
        func isDigits(_ s: Substring) -> Bool { !s.isEmpty && s.allSatisfy { $0.isASCII && $0.isNumber } }
        /// After an `n` term: optional `['+'|'-'] <signless-integer>` or `<signed-integer>`.
        func optionalB() {
            let save = k
            skip()
            guard k < end else { return }
            let t = tokens[k]
            if isSignedInteger(t) {
                k += 1
                return
            }
            if t.kind == .delim, t.value == "+" || t.value == "-" {
                k += 1
                skip()
                if k < end, isSignlessInteger(tokens[k]) {
                    k += 1
                    return
                }
            }
            k = save
        }
        /// What may follow the `n` of An+B in the same token: nothing (then an optional B), `-`
        /// (then a signless integer), or `-` and digits (`n-5`, `2n-5`).
        func afterN(_ rest: Substring) -> Bool {
            if rest.isEmpty {
                optionalB()
            } else if rest == "-" {
                skip()
                guard k < end, isSignlessInteger(tokens[k]) else { return false }
                k += 1
            } else if !(rest.hasPrefix("-") && isDigits(rest.dropFirst())) {
                return false
            }
            return true
        }
        skip()
        guard k < end else { return nil }
        var t = tokens[k]
        var plusPrefix = false
        if t.kind == .delim, t.value == "+", k + 1 < end, tokens[k + 1].kind == .ident {
            plusPrefix = true
            k += 1
            t = tokens[k]
        }
        let unit = t.value.lowercased()
        switch t.kind {
        case .ident:
            if !plusPrefix, unit == "odd" || unit == "even" {
                k += 1
            } else {
                var body = Substring(unit)
                if !plusPrefix, body.hasPrefix("-") { body = body.dropFirst() }
                guard body.hasPrefix("n") else { return nil }
                k += 1
                guard afterN(body.dropFirst()) else { return nil }
            }
        case .number(isInteger: true, hasSign: _) where !plusPrefix:
            k += 1
        case .dimension(isInteger: true, hasSign: _) where !plusPrefix:
            guard unit.hasPrefix("n") else { return nil }
            k += 1
            guard afterN(Substring(unit).dropFirst()) else { return nil }
        default:
            return nil
        }
        return k
    }
}
