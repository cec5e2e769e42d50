// The one adapter to the binary format's API (v1 today: decode, then prepare a matcher).
// When the format changes, only this function changes.
import ContentRuleFormat
import ContentRuleMatcher
import ContentRuleModel
import ContentRuleURL

/// Loads a binary rule list from bytes. Inputs that do not start with the file signature are taken
/// as a payload and given a valid v1 header (sizes, CRC-32), so that mutations reach the payload
/// decoder instead of stopping at the checksum.
func fuzzLoadBinaryRuleList(_ bytes: [UInt8]) throws -> ContentRuleList {
    let signature: [UInt8] = [0x89, 0x43, 0x42, 0x52, 0x4C, 0x0D, 0x0A, 0x1A]
    var file = bytes
    if !bytes.starts(with: signature) {
        file = signature + le32(1) + le32(32) + le32(UInt32(bytes.count)) + le32(0) + le32(fuzzCRC32(bytes)) + le32(0)
        file += bytes
    }
    let compiled = try BinaryRuleList.decode(file)
    return try ContentRuleList(identifier: "fuzz", compiled: compiled)
}

/// Fuzz target (e): arbitrary bytes → load throws or succeeds, never traps; a loaded list answers a
/// few loads with both strategies, which agree. Returns a description of the broken invariant, or nil.
public func checkBinaryLoader(_ data: [UInt8]) -> String? {
    guard let list = try? fuzzLoadBinaryRuleList(data) else { return nil }
    for (url, top) in [
        ("https://ads.example.com/ad.js?q=1", "https://example.com/"), ("http://example.org/", "https://a.b/x"),
        ("wss://sub.example.com:8080/track", ""),
    ] {
        guard let request = WebURL(url) else { continue }
        for type in [ResourceType.script, .image, .topDocument] {
            let load = ResourceLoadInfo(url: request, mainDocumentURL: WebURL(top), resourceType: type)
            if list.actions(for: load) != list.referenceActions(for: load) { return "strategies disagree on \(url)" }
        }
    }
    return nil
}

private func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }

private func fuzzCRC32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return crc ^ 0xFFFF_FFFF
}
