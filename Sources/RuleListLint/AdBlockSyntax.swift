extension RuleListLint {
    /// Why a url-filter WebKit accepts reads as AdBlock Plus syntax, which WebKit takes as a regular
    /// expression meaning something else, or nil. The AdBlock forms WebKit refuses (`||host^`,
    /// `|https://`, `$options`) are errors with a hint (`check`); these it accepts:
    /// - `@@` in front: AdBlock's exception marker, here two literal `@`;
    /// - `##`, `#@#`, `#?#`: AdBlock element hiding, here literal `#` characters;
    /// - `/*`, `=*`, `&*`, `-*`, `_*` outside a class: AdBlock's wildcard after a separator, here
    ///   a repetition of that one character.
    /// - Complexity: O(url-filter length).
    package static func adBlockSyntaxProblem(_ urlFilter: String) -> String? {
        if urlFilter.hasPrefix("@@") {
            return
                "`@@` marks an AdBlock exception; in a regular expression it is two `@`, so the rule fires only on URLs containing \"@@\" (an exception is an ignore-previous-rules rule)"
        }
        if let marker = ["##", "#@#", "#?#"].first(where: { urlFilter.contains($0) }) {
            return
                "`\(marker)` is AdBlock element hiding; in a url-filter it is those characters, so the rule fires only on URLs containing them (hiding is a css-display-none action with the selector)"
        }
        var escaped = false
        var inClass = false
        var previous: Character?
        // `previous` is the last character read as itself (not escaped, not in a class).
        for character in urlFilter {
            if escaped {
                escaped = false
                previous = nil
                continue
            }
            switch character {
            case "\\": escaped = true
            case "[": inClass = true
            case "]": inClass = false
            case "*" where !inClass:
                if let previous, "/=&-_".contains(previous) {
                    return
                        "`\(previous)*` repeats `\(previous)` in a regular expression: AdBlock's wildcard `*` is written `.*` (`/ads/*/img` is `/ads/.*/img`)"
                }
            default: break
            }
            previous = inClass || character == "]" ? nil : character
        }
        return nil
    }
}
