import ContentRuleCompiler
import ContentRuleMatcher
import ContentRuleModel
import ContentRuleURL

/// The bundled EasyList (rules/easy2json/easylist.json), compiled once.
let fuzzEasyList: ContentRuleList = fuzzCompiledList("rules/easy2json/easylist.json", identifier: "easylist")

func fuzzCompiledList(_ relativePath: String, identifier: String) -> ContentRuleList {
    guard let json = FuzzData.repositoryFile(relativePath) else { fatalError("\(relativePath) not found") }
    guard let compiled = RuleListCompiler.compile(json: json).list,
        let list = try? ContentRuleList(identifier: identifier, compiled: compiled)
    else { fatalError("\(relativePath) does not compile") }
    return list
}

/// A load read from fuzz input: `type context url 0xFF top 0xFF frame`. Unparsable URLs get a second
/// chance with `https://` in front (to reach the matcher more often); nil when even that fails.
func fuzzLoad(_ input: inout FuzzInput) -> ResourceLoadInfo? {
    let typeByte = input.byte()
    let contextByte = input.byte()
    let url = input.string()
    let top = input.string()
    let frame = input.string()
    guard let requestURL = WebURL(url) ?? WebURL("https://" + url) else { return nil }
    let context: LoadContext = contextByte & 1 == 0 ? .topFrame : .childFrame
    let methods = RequestMethod.allCases
    let method = contextByte & 0x10 == 0 ? nil : methods[Int(contextByte >> 5) % methods.count]
    return ResourceLoadInfo(
        url: requestURL, mainDocumentURL: top.isEmpty ? nil : (WebURL(top) ?? WebURL("https://" + top)),
        frameURL: frame.isEmpty ? nil : (WebURL(frame) ?? WebURL("https://" + frame)),
        resourceType: ResourceType(rawValue: 1 << (typeByte % 14)), loadContext: context, requestMethod: method)
}

/// Fuzz target (c): a fuzzed load against the bundled EasyList, through `actions(for:)` and a
/// `ContentBlocker` that may redirect and modify headers everywhere. Must answer, never trap; the
/// blocked flag agrees with the list's actions. Returns a description of the broken invariant, or nil.
public func checkMatcher(_ data: [UInt8]) -> String? {
    var input = FuzzInput(data)
    guard let load = fuzzLoad(&input) else { return nil }
    let actions = fuzzEasyList.actions(for: load)
    let everywhere = ActiveActionPolicy(patternsForAllLists: [URLMatchPattern("<all_urls>")!])
    let results = ContentBlocker(lists: [fuzzEasyList], activeActions: everywhere).results(for: load)
    if results.blockedLoad != actions.actions.contains(.block) { return "blockedLoad disagrees with the actions" }
    return nil
}

/// Compiles the bundled list now (the fuzz targets call it before libFuzzer starts, so the first input
/// is not charged with the compile time).
public func prepareMatcherCheck() { _ = fuzzEasyList }
