// Escapes and character classes, as Yarr's `parseEscape` / `parseCharacterClass` /
// `CharacterClassParserDelegate` treat them in legacy mode (`Source/JavaScriptCore/yarr/YarrParser.h`).

extension PatternParser {
    /// State of Yarr's `CharacterClassParserDelegate` (range detection inside `[…]`).
    enum ClassState {
        case empty
        case cached(UInt32)
        case cachedHyphen(UInt32)
        case afterBuiltIn
        case afterBuiltInHyphen
    }

    mutating func parseAtomEscape() -> TokenType {
        var state = ClassState.empty
        return parseEscape(inClass: false, classState: &state)
    }

    /// Parses `\…` at `index`. Outside a class the result goes to the term builder, inside to the
    /// class state machine.
    mutating func parseEscape(inClass: Bool, classState: inout ClassState) -> TokenType {
        let escapeStart = index
        index += 1
        if atEnd {
            yarrError("a `\\` at the end of the pattern")
            return .notAtom
        }
        func emit(_ parser: inout PatternParser, _ ch: UInt32, _ state: inout ClassState) {
            if inClass {
                parser.classCharacter(ch, hyphenIsRange: false, state: &state)
            } else {
                parser.atomCharacter(ch)
            }
        }
        func builtIn(_ parser: inout PatternParser, _ state: inout ClassState) {
            if inClass {
                parser.classBuiltIn(state: &state)
            } else {
                parser.atomBuiltInClass(escapeStart)
            }
        }
        let c = peek()
        switch c {
        case UInt8(ascii: "b"):
            index += 1
            if inClass {
                emit(&self, 8, &classState)
            } else {
                fail(.wordBoundary, escapeStart..<index)
                return .notAtom
            }
        case UInt8(ascii: "B"):
            index += 1
            if inClass {
                emit(&self, UInt32(c), &classState)
            } else {
                fail(.wordBoundary, escapeStart..<index)
                return .notAtom
            }
        case UInt8(ascii: "d"), UInt8(ascii: "s"), UInt8(ascii: "w"),
            UInt8(ascii: "D"), UInt8(ascii: "S"), UInt8(ascii: "W"):
            index += 1
            builtIn(&self, &classState)
        case UInt8(ascii: "0"):
            index += 1
            emit(&self, peekIsDigit ? consumeOctal(2) : 0, &classState)
        case UInt8(ascii: "1")...UInt8(ascii: "9"):
            // Back-reference limit 0: never a back-reference; legacy octal or a literal 8 / 9.
            emit(&self, c < UInt8(ascii: "8") ? consumeOctal(3) : UInt32(consume()), &classState)
        case UInt8(ascii: "f"):
            index += 1
            emit(&self, 0x0C, &classState)
        case UInt8(ascii: "n"):
            index += 1
            emit(&self, 0x0A, &classState)
        case UInt8(ascii: "r"):
            index += 1
            emit(&self, 0x0D, &classState)
        case UInt8(ascii: "t"):
            index += 1
            emit(&self, 0x09, &classState)
        case UInt8(ascii: "v"):
            index += 1
            emit(&self, 0x0B, &classState)
        case UInt8(ascii: "c"):
            let saved = index
            index += 1
            if !atEnd {
                let control = consume()
                if isAlpha(control) || (inClass && (isDigit(control) || control == UInt8(ascii: "_"))) {
                    emit(&self, UInt32(control & 0x1F), &classState)
                    return .atom
                }
            }
            index = saved  // `\c` not followed by a control letter: a literal backslash, then `c…`
            emit(&self, UInt32(UInt8(ascii: "\\")), &classState)
        case UInt8(ascii: "x"):
            index += 1
            if let value = tryConsumeHex(2) {
                emit(&self, UInt32(value), &classState)
            } else {
                emit(&self, UInt32(c), &classState)
            }
        case UInt8(ascii: "k"):
            index += 1
            let saved = index
            if !inClass && tryConsume("<") {
                let name = tryConsumeGroupName()
                if hasYarrError { return .atom }
                if let name, allGroupNames.contains(name) {
                    fail(.backReference, escapeStart..<index)
                    return .atom
                }
                // Named forward references are disallowed: fall back to the identity escape `k`.
            }
            index = saved
            emit(&self, UInt32(c), &classState)
            kIdentityEscapeSeen = true
        case UInt8(ascii: "u"):
            index += 1
            if !atEnd, let unit = tryConsumeHex(4) {
                emit(&self, UInt32(unit), &classState)
            } else {
                emit(&self, UInt32(c), &classState)
            }
        default:
            // Identity escape (legacy mode: any character, including `p`, `P`, `q`, `-`).
            index += 1
            emit(&self, UInt32(c), &classState)
        }
        return .atom
    }

    mutating func parseCharacterClass() {
        index += 1
        classBegin(inverted: tryConsume("^"))
        var state = ClassState.empty
        while !atEnd {
            switch peek() {
            case UInt8(ascii: "]"):
                index += 1
                switch state {
                case .cached(let ch):
                    classAtom(ch)
                case .cachedHyphen(let ch):
                    classAtom(ch)
                    classAtom(UInt32(UInt8(ascii: "-")))
                default: break
                }
                classEnd()
                return
            case UInt8(ascii: "\\"):
                _ = parseEscape(inClass: true, classState: &state)
            default:
                classCharacter(UInt32(consume()), hyphenIsRange: true, state: &state)
            }
            if hasYarrError { return }
        }
        tokenStart = index
        yarrError("a `[` that is never closed")
    }

    /// Yarr's `CharacterClassParserDelegate::atomPatternCharacter`.
    mutating func classCharacter(_ ch: UInt32, hyphenIsRange: Bool, state: inout ClassState) {
        let hyphen = UInt32(UInt8(ascii: "-"))
        switch state {
        case .afterBuiltIn where hyphenIsRange && ch == hyphen:
            classAtom(hyphen)
            state = .afterBuiltInHyphen
        case .empty, .afterBuiltIn:
            state = .cached(ch)
        case .cached(let previous):
            if hyphenIsRange && ch == hyphen {
                state = .cachedHyphen(previous)
            } else {
                classAtom(previous)
                state = .cached(ch)
            }
        case .cachedHyphen(let first):
            if ch < first {
                yarrError(
                    "the range `\(Character(UnicodeScalar(UInt8(truncatingIfNeeded: first))))-\(Character(UnicodeScalar(UInt8(truncatingIfNeeded: ch))))` is out of order"
                )
                return
            }
            classRange(first, ch)
            state = .empty
        case .afterBuiltInHyphen:
            classAtom(ch)
            state = .empty
        }
    }

    /// Yarr's `CharacterClassParserDelegate::atomBuiltInCharacterClass` (legacy mode).
    mutating func classBuiltIn(state: inout ClassState) {
        switch state {
        case .cached(let ch):
            classAtom(ch)
        case .cachedHyphen(let ch):
            classAtom(ch)
            classAtom(UInt32(UInt8(ascii: "-")))
        default: break
        }
        fail(.atomCharacter, tokenStart..<index)
        if case .cachedHyphen = state {
            state = .empty
        } else if case .afterBuiltInHyphen = state {
            state = .empty
        } else {
            state = .afterBuiltIn
        }
    }
}
