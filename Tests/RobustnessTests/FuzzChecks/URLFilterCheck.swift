import PCRE2Support
import URLFilterSyntax

/// Fuzz target (b): `[flags] pattern 0xFF subject`. `URLFilter.parse` never traps; an `ok` pattern's
/// PCRE2 translation compiles; when it matches the subject (mapped to printable ASCII, as serialized
/// URLs are), the subject contains the pattern's required literal, and a plain-literal pattern matches
/// exactly where a substring search does. Returns a description of the broken invariant, or nil.
public func checkURLFilter(_ data: [UInt8]) -> String? {
    var input = FuzzInput(data)
    let caseSensitive = input.byte() & 1 == 1
    let pattern = input.string()
    let subject = input.field().map { 0x20 + $0 % 95 }
    let result = URLFilter.parse(pattern, caseSensitive: caseSensitive)
    guard result.status == .ok else {
        if result.pcre2Pattern != nil { return "status \(result.status) with a PCRE2 pattern" }
        return nil
    }
    guard let source = result.pcre2Pattern else { return "ok without a PCRE2 pattern" }
    let regex: PCRE2Regex
    do {
        regex = try PCRE2Regex(source, options: [])
    } catch {
        return "ok pattern's translation does not compile: \(error)"
    }
    let scratch = PCRE2Scratch()
    let outcome = subject.withUnsafeBufferPointer { regex.matchesReportingLimit($0, scratch: scratch) }
    if case .error(let code) = outcome { return "PCRE2 match error \(code)" }
    let folded = caseSensitive ? subject : subject.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
    if outcome == .match, let literal = result.requiredLiteral, !contains(folded, Array(literal.utf8)) {
        return "regex matches but the required literal \(literal) is missing"
    }
    if let plain = result.plainLiteral, outcome != .limitExceeded {
        let needle = Array(plain.literal.utf8)
        let found: Bool
        switch (plain.anchoredAtStart, plain.anchoredAtEnd) {
        case (true, true): found = folded == needle
        case (true, false): found = folded.starts(with: needle)
        case (false, true): found = folded.count >= needle.count && Array(folded.suffix(needle.count)) == needle
        case (false, false): found = contains(folded, needle)
        }
        if found != (outcome == .match) { return "plain literal and regex disagree (literal: \(found))" }
    }
    return nil
}

private func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
    guard !needle.isEmpty else { return true }
    guard needle.count <= haystack.count else { return false }
    for start in 0...(haystack.count - needle.count) where haystack[start..<start + needle.count].elementsEqual(needle)
    {
        return true
    }
    return false
}
