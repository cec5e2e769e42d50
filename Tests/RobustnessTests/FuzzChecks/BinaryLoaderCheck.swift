// The one adapter to the binary format's API (v3: map the bytes, validate, read in place).
// When the format changes, only this function changes.
import ContentRuleFormat
import ContentRuleMatcher
import ContentRuleModel
import ContentRuleURL

/// Loads a binary rule list from bytes. Inputs that do not start with the file signature are taken
/// as everything after the 64-byte header (section table and sections) and given a valid version-4
/// header (sizes, XXH64 checksum), so that mutations reach the section and table validation instead of
/// stopping at the checksum.
func fuzzLoadBinaryRuleList(_ bytes: [UInt8]) throws -> ContentRuleList {
    let signature: [UInt8] = [0x89, 0x43, 0x42, 0x52, 0x4C, 0x0D, 0x0A, 0x1A]
    var file = bytes
    if !bytes.starts(with: signature) {
        let sectionCount = UInt32(BinaryRuleList.sectionCount)
        file = signature + le32(BinaryRuleList.version) + le32(64) + le64(UInt64(64 + bytes.count)) + le32(sectionCount)
        file += le32(0) + le64(BinaryRuleList.checksum(bytes)) + [UInt8](repeating: 0, count: 24) + bytes
    }
    return ContentRuleList(identifier: "fuzz", rules: try MappedRuleList(bytes: file))
}

/// Fuzz target (e): arbitrary bytes → load throws or succeeds, never traps; a loaded list answers a
/// few loads with both strategies without trapping or hanging. Returns a description of the broken
/// invariant, or nil.
///
/// The strategies are not required to agree here: in format v3 the indexes (required literals, each
/// rule's way in, the domain postings) are part of the file, and a file forged with a recomputed
/// checksum can steer the fast strategy differently from the plain one, as it can change the rules
/// themselves. Agreement is checked on files our writer produced (`FastMatcherDifferentialTests`,
/// `corruptPayloadWithValidChecksumNeverCrashes` only requires answers). SECURITY.md states this.
public func checkBinaryLoader(_ data: [UInt8]) -> String? {
    guard let list = try? fuzzLoadBinaryRuleList(data) else { return nil }
    for (url, top) in [
        ("https://ads.example.com/ad.js?q=1", "https://example.com/"), ("http://example.org/", "https://a.b/x"),
        ("wss://sub.example.com:8080/track", ""),
    ] {
        guard let request = WebURL(url) else { continue }
        for type in [ResourceType.script, .image, .topDocument] {
            let load = ResourceLoadInfo(url: request, mainDocumentURL: WebURL(top), resourceType: type)
            _ = list.actions(for: load).actions
            _ = list.referenceActions(for: load).firedRules
            _ = ContentBlocker(lists: [list]).results(for: load).lists.first?.selectors
        }
    }
    return nil
}

private func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }

private func le64(_ value: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
