import ContentRuleFormat
import ContentRuleModel
import URLFilterSyntax

/// The compiler's choices for how the matcher reaches and searches one pattern, from what the
/// url-filter layer read off its terms.
enum SearchPlanning {
    /// The literal the matcher checks first and the literal index files the rule under
    /// (``CompiledPattern/requiredLiteral``): the url-filter's required literal, lower-cased, none when
    /// it is not ASCII. For a regex pattern that begins with WebKit's host anchor, the literal after
    /// the anchor replaces one too short for the literal index's grams (as `://` for
    /// `^[htpsw]+://([a-z0-9-]+\.)?pw([/:&?].*)?$`): the matcher checks it in place.
    ///
    /// - Returns: the literal, and whether the pattern is host-anchored
    ///   (``CompiledPattern/hostAnchored``): a regex pattern whose literal after the host anchor begins
    ///   with the chosen literal (its first 255 bytes, what the format stores).
    static func indexLiteral(_ parsed: URLFilterParseResult, isRegex: Bool) -> (literal: String?, hostAnchored: Bool) {
        var chosen =
            parsed.requiredLiteral.flatMap { text in
                text.utf8.allSatisfy { $0 < 0x80 } ? text.utf8.map(IndexHash.lowercased) : nil
            } ?? []
        let head = isRegex ? parsed.hostAnchorHead : nil
        if let head, chosen.count < IndexHash.gramLength, !head.isEmpty { chosen = Array(head.utf8) }
        let hostAnchored =
            head.map { !chosen.isEmpty && $0.utf8.starts(with: chosen.prefix(RegexSearchPlan.maximumLength)) } ?? false
        return (chosen.isEmpty ? nil : String(decoding: chosen, as: UTF8.self), hostAnchored)
    }

    /// How the fast matcher reaches a rule (``RuleEntry``): through its literal when it has one of a
    /// gram's length or more without a NUL byte (the index's grams are never 0) (but not an `if-domain` rule's literal inside `https://` or `http://`, in
    /// nearly every URL: its domains are the better way in); else through its `if-domain` entries;
    /// a url-filter that matches everything is decided per top URL; a request-method or frame-URL
    /// condition is checked on every request.
    static func entry(
        urlFilter: CompiledPattern, condition: CompiledCondition?, requestMethod: RequestMethod?
    ) -> RuleEntry {
        if let condition, requestMethod != nil || condition.kind.testsFrameURL { return .always }
        if urlFilter.matchesEverything { return .universal }
        let isIfDomain = condition?.kind == .ifDomain
        let literal = Array((urlFilter.requiredLiteral ?? "").utf8)
        if literal.count >= IndexHash.gramLength, !literal.contains(0), !(isIfDomain && isInNearlyEveryURL(literal)) {
            return .literal
        }
        return isIfDomain ? .domain : .always
    }

    /// The lower-cased prefixes every web URL begins with.
    private static let schemePrefixes = [Array("https://".utf8), Array("http://".utf8)]

    /// A literal inside `https://` or `http://` (`https://`, `http`, `tps:`…): its grams are in nearly
    /// every URL, so an `if-domain` rule filed under it would be tried on every load.
    private static func isInNearlyEveryURL(_ literal: [UInt8]) -> Bool {
        schemePrefixes.contains { prefix in
            prefix.indices.contains { prefix[$0...].starts(with: literal) }
        }
    }

    /// The search plan of a pattern whose stored required literal is `indexLiteral`: of its mandatory
    /// runs, the two longest that add something (not `://`, in nearly every URL; not, when caseless,
    /// inside the required literal the matcher checks first), each cut to the format's 255 bytes (a
    /// prefix of a run every match contains is one too); the suffix's last 255 bytes; the byte demand
    /// counted in the lower-cased URL (both cases of a letter add up), each count at most 255.
    static func plan(_ facts: URLFilterSearchFacts, indexLiteral: String?) -> RegexSearchPlan {
        let limit = RegexSearchPlan.maximumLength
        let required = Array((indexLiteral ?? "").utf8.prefix(limit))
        let mandatory = facts.mandatoryRuns.filter { run in
            run != schemeSeparator
                && (!facts.caseless || !required.indices.contains { required[$0...].starts(with: run) })
        }
        .prefix(2).map { Array($0.prefix(limit)) }
        var demand: [UInt8: Int] = [:]
        for entry in facts.byteDemand { demand[IndexHash.lowercased(entry.byte), default: 0] += entry.count }
        let byteDemand = demand.sorted { $0.key < $1.key }.map {
            RegexSearchPlan.ByteDemand(byte: $0.key, count: UInt8(min($0.value, limit)))
        }
        return RegexSearchPlan(
            asciiSubjectPattern: facts.asciiSubjectPattern, caseless: facts.caseless, mandatory: mandatory,
            suffix: Array(facts.suffix.suffix(limit)), byteDemand: byteDemand, repeatsAGroup: facts.repeatsAGroup,
            asciiSubjectScaffold: facts.asciiSubjectPattern.flatMap(scaffold))
    }

    /// Where the translator's scaffolding ends and begins in a PCRE2 text it wrote (``ScaffoldCut``).
    static func scaffold(_ text: String) -> ScaffoldCut? {
        ScaffoldCuts.of(text).map { ScaffoldCut(prefixEnd: $0.prefixEnd, suffixStart: $0.suffixStart) }
    }

    private static let schemeSeparator = Array("://".utf8)
}
