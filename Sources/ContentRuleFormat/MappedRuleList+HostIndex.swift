extension MappedRuleList {
    /// Appends the rules of the host index (HGRM) that may match `url` (lower-cased), each as
    /// `rule << 32` (no gram position): those filed under a prefix of 24, 16, 8 or 4 bytes of `url` at
    /// `hostStart` or at `afterFirstLabel` (each -1 when absent). A host-anchored url-filter matches
    /// only where its required literal begins at one of those two places, so every rule that can match
    /// is appended; the others a hash collision adds are ruled out by the rule's own checks. A rule can
    /// be appended twice (its prefix at both places).
    ///
    /// - Complexity: O(1) probes (at most eight) plus the rules appended.
    public func collectHostCandidates(
        _ url: UnsafeBufferPointer<UInt8>, hostStart: Int, afterFirstLabel: Int, into candidates: inout [UInt64]
    ) {
        let capacity = sections.hostHash.count
        guard capacity > 0 else { return }
        if hostStart >= 0 { collectHostCandidates(url, at: hostStart, into: &candidates) }
        if afterFirstLabel >= 0 { collectHostCandidates(url, at: afterFirstLabel, into: &candidates) }
    }

    /// ``collectHostCandidates(_:hostStart:afterFirstLabel:into:)`` at one place.
    @inline(__always)
    private func collectHostCandidates(
        _ url: UnsafeBufferPointer<UInt8>, at start: Int, into candidates: inout [UInt64]
    ) {
        let available = url.count &- start
        guard available >= 4 else { return }
        if available >= 8 {
            let first = url.u64(start)
            if available >= 16 {
                let second = url.u64(start &+ 8)
                if available >= 24 {
                    probeHostIndex(IndexHash.hostKey(first, second, url.u64(start &+ 16), length: 24), &candidates)
                }
                probeHostIndex(IndexHash.hostKey(first, second, 0, length: 16), &candidates)
            }
            probeHostIndex(IndexHash.hostKey(first, 0, 0, length: 8), &candidates)
        }
        probeHostIndex(IndexHash.hostKey(UInt64(url.u32(start)), 0, 0, length: 4), &candidates)
    }

    /// Appends the rules of every HGRM slot on `hash`'s probe sequence whose check byte is `hash`'s.
    @inline(__always)
    private func probeHostIndex(_ hash: UInt64, _ candidates: inout [UInt64]) {
        let mask = sections.hostHash.count &- 1
        let table = sections.hostHash.offset
        let check = IndexHash.hostCheck(hash)
        var slot = Int(truncatingIfNeeded: hash >> 32) & mask
        while true {
            let word = bytes.u32(table &+ slot &* 4)
            if word == 0 { return }
            if word & (0xFF << Layout.hostCheckShift) == check {
                let value = word & Layout.hostValueMask
                if word & Layout.hostInlinePosting != 0 {
                    candidates.append(UInt64(value) << 32)
                } else {
                    let start = sections.literalPostings.offset &+ Int(value) &* 4
                    for index in 0..<Int(bytes.u32(start)) {
                        candidates.append(UInt64(bytes.u32(start &+ 4 &+ index &* 4) & IndexHash.postingRuleMask) << 32)
                    }
                }
            }
            slot = (slot &+ 1) & mask
        }
    }
}
