import ContentRuleCompiler
import ContentRuleMatcher
import ContentRuleModel
import ContentRuleURL

/// The bundled blockparty list (241 rules): small enough for the reference strategy on every input.
let fuzzBlockParty: ContentRuleList = fuzzCompiledList("rules/blockparty/blockerList.json", identifier: "blockparty")

/// Fuzz target (d): the fast strategy (`actions(for:)`) and the reference strategy
/// (`referenceActions(for:)`) must give equal answers. The first byte picks the mode:
/// 0 — a small rule list and a load generated from the bytes (url-filters, domains, flags, conditions);
/// 1 — raw bytes: `JSON rule list 0xFF load`; 2 — a fuzzed load against the bundled blockparty list.
/// Returns a description of the disagreement, or nil.
public func checkDifferential(_ data: [UInt8]) -> String? {
    var input = FuzzInput(data)
    let list: ContentRuleList
    let load: ResourceLoadInfo
    switch input.byte() % 3 {
    case 0:
        var generator = FuzzRuleGenerator(input: input)
        let json = generator.ruleList()
        guard let generated = fuzzList(json), let generatedLoad = generator.load() else { return nil }
        list = generated
        load = generatedLoad
    case 1:
        guard let raw = fuzzList(input.field()), let rawLoad = fuzzLoad(&input) else { return nil }
        list = raw
        load = rawLoad
    default:
        guard let fuzzed = fuzzLoad(&input) else { return nil }
        list = fuzzBlockParty
        load = fuzzed
    }
    let fast = list.actions(for: load)
    let reference = list.referenceActions(for: load)
    guard fast != reference else { return nil }
    return
        "fast \(fast.firedRules) != reference \(reference.firedRules) for \(load.url) (top \(load.mainDocumentURL?.serialization ?? "none"))"
}

private func fuzzList(_ json: [UInt8]) -> ContentRuleList? {
    guard let compiled = RuleListCompiler.compile(json: json).list else { return nil }
    return try? ContentRuleList(identifier: "fuzz", compiled: compiled)
}

/// Builds a small rule list and a load from fuzz bytes, from pieces that exercise WebKit's url-filter
/// subset, domain conditions (`*` prefixes, case, IP addresses) and the trigger flags.
struct FuzzRuleGenerator {
    var input: FuzzInput

    static let filterPieces = [
        "a", "b", "ab", "x", ".", ".*", "*", "+", "?", "^", "$", "[a-c]", "[^/]", "(", ")", "(ab)*", "(a)+", "\\.",
        "/", ":", "//", "com", "A", "%", "?q=", "&", "[0-9]+", "{2}", "https?", "example", "ad", "\\/", "-", "_",
        "[A-z]", "track", "(.*)", "[.]", "\\x41",
    ]
    static let hosts = [
        "example.com", "sub.example.com", "ads.example.com", "EXAMPLE.com", "example.org", "com", "a.b", "localhost",
        "127.0.0.1", "xn--bcher-kva.example", "[::1]", "ad.x", "trackads.net", "b.ab.co.uk",
    ]
    static let schemes = ["https://", "http://", "ws://", "wss://", "ftp://", "file:///", "data:", "about:"]
    static let actions = [
        #"{"type":"block"}"#, #"{"type":"block-cookies"}"#, ##"{"type":"css-display-none","selector":"#x"}"##,
        #"{"type":"ignore-previous-rules"}"#, #"{"type":"ignore-following-rules"}"#, #"{"type":"make-https"}"#,
        #"{"type":"notify","notification":"n"}"#, #"{"type":"css-display-none","selector":".y"}"#,
    ]
    static let conditions = [
        "if-domain", "unless-domain", "if-top-url", "unless-top-url", "if-frame-url", "unless-frame-url",
    ]

    mutating func pick<T>(_ values: [T]) -> T { values[Int(input.byte()) % values.count] }

    mutating func filter() -> String {
        (0..<(1 + input.byte() % 6)).map { _ in pick(Self.filterPieces) }.joined()
    }

    mutating func domain() -> String {
        let host = pick(Self.hosts)
        return input.byte() & 1 == 1 ? "*" + host : host
    }

    mutating func ruleList() -> [UInt8] {
        var rules: [String] = []
        for _ in 0..<(1 + input.byte() % 8) {
            var trigger = [#""url-filter":"# + quoted(filter())]
            let flags = input.byte()
            if flags & 1 != 0 { trigger.append(#""url-filter-is-case-sensitive":true"#) }
            if flags & 2 != 0 {
                trigger.append(#""resource-type":["# + quoted(pick(["image", "script", "document", "raw"])) + "]")
            }
            if flags & 4 != 0 {
                trigger.append(#""load-type":["# + quoted(pick(["first-party", "third-party"])) + "]")
            }
            if flags & 8 != 0 {
                trigger.append(#""load-context":["# + quoted(pick(["top-frame", "child-frame"])) + "]")
            }
            if flags & 16 != 0 { trigger.append(#""request-method":"# + quoted(pick(["get", "post"]))) }
            if flags & 32 != 0 {
                let kind = pick(Self.conditions)
                let values = (0..<(1 + input.byte() % 3)).map { _ in
                    quoted(kind.hasSuffix("domain") ? domain() : filter())
                }
                trigger.append(quoted(kind) + ":[" + values.joined(separator: ",") + "]")
            }
            rules.append(#"{"trigger":{"# + trigger.joined(separator: ",") + #"},"action":"# + pick(Self.actions) + "}")
        }
        return Array(("[" + rules.joined(separator: ",") + "]").utf8)
    }

    mutating func url() -> String {
        let scheme = pick(Self.schemes)
        var text = scheme + pick(Self.hosts)
        if input.byte() & 1 == 1 { text += ":8080" }
        text +=
            "/"
            + (0..<(input.byte() % 5)).map { _ in pick(["ad", "a", "b", "x", "track", "?q=1", "&", "/", ".js"]) }
            .joined()
        return text
    }

    mutating func load() -> ResourceLoadInfo? {
        guard let request = WebURL(url()) else { return nil }
        let top = input.byte() % 4 == 0 ? nil : WebURL(url())
        let frame = input.byte() % 3 == 0 ? WebURL(url()) : nil
        let context: LoadContext = input.byte() & 1 == 0 ? .topFrame : .childFrame
        let method: RequestMethod? = pick([nil, .get, .post])
        return ResourceLoadInfo(
            url: request, mainDocumentURL: top, frameURL: frame,
            resourceType: ResourceType(rawValue: 1 << (input.byte() % 14)), loadContext: context,
            requestMethod: method)
    }

    private func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}

/// Compiles the bundled list now (called before libFuzzer starts).
public func prepareDifferentialCheck() { _ = fuzzBlockParty }
