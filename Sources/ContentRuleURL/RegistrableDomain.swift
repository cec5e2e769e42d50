// Registrable domains (eTLD+1) and WebKit's first-/third-party decision (spec §4.3).
internal import CLibPSL
import Locking

/// The loaded Public Suffix List. libpsl contexts are immutable after loading, so lookups from
/// several threads are safe.
private final class PublicSuffixList: @unchecked Sendable {
    /// nil only when libpsl has neither a readable distribution file nor built-in data.
    let context: OpaquePointer?

    init() {
        // psl_latest(NULL) picks the newer of the distribution file (psl_dist_filename(), here
        // /usr/share/publicsuffix/public_suffix_list.dafsa) and the built-in list; it returns NULL only
        // when neither is usable, and then psl_builtin() (possibly NULL as well) is the last resort.
        let latest: OpaquePointer? = psl_latest(nil)
        context = latest ?? psl_builtin()
    }

    /// eTLD+1 of a lower-case ASCII host, or nil when the host is itself a public suffix.
    func registrableDomain(of host: String) -> String? {
        guard let context else { return nil }
        return host.withCString { pointer -> String? in
            guard let result = psl_registrable_domain(context, pointer) else { return nil }
            return String(cString: result)
        }
    }

    static let shared = PublicSuffixList()
}

/// Registrable domains from the Public Suffix List through libpsl, with WebKit's special cases
/// (`RegistrableDomain.h`, `PublicSuffixStore`; spec §4.3).
///
/// The list is libpsl's `psl_latest(NULL)`: the system list in `/usr/share/publicsuffix` when
/// present, the library's built-in list otherwise — the full PSL including its private section
/// (`github.io`), as WebKitGTK uses through libsoup.
public enum RegistrableDomain {
    /// The registrable domain (eTLD+1) of a serialized host.
    ///
    /// - Parameter host: a host as ``WebURL/host`` gives it (ASCII upper case is folded here).
    /// - Returns: nil for the empty host (WebKit's "null origin" marker); `localhost` for `localhost`
    ///   in any case; the host itself, as written (an opaque host may have upper case), for IPv4 and
    ///   IPv6 addresses (bracketed or not), hosts with non-ASCII text, and hosts that are themselves
    ///   public suffixes or have no registrable domain; otherwise eTLD+1, lower-cased.
    ///   Leading dots are skipped as WebKit does. O(length of host).
    public static func of(host: String) -> String? {
        if host.isEmpty { return nil }
        var text = host
        if !text.withUTF8({ bytes in bytes.allSatisfy { $0 < 0x80 } }) { return host }
        let cached = cache.withLock { cache -> String? in
            if let found = text.withUTF8({ cache.lastDomain(ofHost: $0) }) { return found }
            guard let domain = cache.table[host] else { return nil }
            cache.remember(host, domain)
            return domain
        }
        if let cached { return cached }
        let domain = compute(host)
        cache.withLock {
            if $0.table.count >= 4096 { $0.table.removeAll(keepingCapacity: true) }
            $0.table[host] = domain
            $0.remember(host, domain)
        }
        return domain
    }

    /// Recent answers of ``of(host:)`` (a page's loads mostly share a few hosts), bounded, and the
    /// answer found last, checked first by bytes: the top URL's host repeats over a page's loads, and
    /// comparing bytes is cheaper than hashing a string or making one. (``isThirdParty(resourceURL:mainDocumentURL:)``
    /// reads each thread's ``DomainMemo`` first, and comes here only when it misses.)
    private struct Cache {
        var table: [String: String] = [:]
        /// An ASCII host (only those are cached) and its registrable domain.
        var last: (host: [UInt8], domain: String)?

        mutating func remember(_ host: String, _ domain: String) {
            last = (Array(host.utf8), domain)
        }

        func lastDomain(ofHost host: UnsafeBufferPointer<UInt8>) -> String? {
            guard let last, last.host.withUnsafeBufferPointer({ sameBytes($0, host) }) else { return nil }
            return last.domain
        }
    }
    private static let cache = Locked(Cache())

    /// WebKit's `RegistrableDomain::registrableDomainFromHost` over `topPrivatelyControlledDomain`
    /// (WebKitGTK: `platform/soup/PublicSuffixSoup.cpp`): the look-up is on the host lower-cased,
    /// and so is its answer (and `localhost`), but a host without a registrable domain — a public
    /// suffix, a single label, an IP address, only dots — is its own domain *as written*: an opaque
    /// host keeps its case (`foo://COM/`), and `matches` compares case-sensitively.
    private static func compute(_ host: String) -> String {
        let lower = String(decoding: host.utf8.map(ASCII.lower), as: UTF8.self)
        if lower == "localhost" { return lower }
        if isIPAddress(lower) { return host }
        let trimmed = lower.drop(while: { $0 == "." })
        if trimmed.isEmpty { return host }
        return PublicSuffixList.shared.registrableDomain(of: String(trimmed)) ?? host
    }

    /// WebKit's `ResourceLoadInfo::isThirdParty`: NOT `RegistrableDomain(mainDocumentURL).matches(resourceURL)`.
    ///
    /// The top URL's registrable domain (nil/absent top URL or an empty host give the null origin) matches
    /// a resource whose host equals it or ends with "." + it; with the null origin only hostless
    /// resources (`blob:`, `file:`) match. Scheme and port are ignored. A resource without a host under a
    /// normal top URL is third-party.
    public static func isThirdParty(resourceURL: WebURL, mainDocumentURL: WebURL?) -> Bool {
        // Two canonical URLs (the common case): their hosts' bytes, without closures over closures.
        if let mainDocumentURL, let topHost = mainDocumentURL.canonicalHostRange,
            let host = resourceURL.canonicalHostRange,
            let answer = mainDocumentURL.serialization.utf8.withContiguousStorageIfAvailable({ top in
                resourceURL.serialization.utf8.withContiguousStorageIfAvailable { url in
                    // A canonical host is lower-case.
                    isThirdParty(
                        host: UnsafeBufferPointer(rebasing: url[host]),
                        topHost: UnsafeBufferPointer(rebasing: top[topHost]), topHasUpperCase: false)
                }
            }) ?? nil
        {
            return answer
        }
        let none = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
        guard let mainDocumentURL else { return resourceURL.withHostBytes { !($0?.isEmpty ?? true) } }
        return mainDocumentURL.withHostBytes { top in
            resourceURL.withHostBytes { host in
                let topHost = top ?? none
                return isThirdParty(
                    host: host ?? none, topHost: topHost,
                    topHasUpperCase: topHost.contains(where: { $0 >= 0x41 && $0 <= 0x5A }))
            }
        }
    }

    /// ``isThirdParty(resourceURL:mainDocumentURL:)`` on the two hosts (empty for none);
    /// `topHasUpperCase`: whether the top host has ASCII upper case.
    ///
    /// The same host is first-party without a look-up: the top's registrable domain (the host itself,
    /// or its eTLD+1, a suffix after a dot, lower-cased) then matches it, unless the host has ASCII
    /// upper case (an opaque host keeps its case while the domain is lower-cased; that case is looked up).
    /// Otherwise the top's domain comes from the calling thread's ``DomainMemo`` when it holds the top
    /// host, else from ``of(host:)`` (and then goes to the memo when it is a suffix of the top host).
    private static func isThirdParty(
        host: UnsafeBufferPointer<UInt8>, topHost: UnsafeBufferPointer<UInt8>, topHasUpperCase: Bool
    ) -> Bool {
        if !topHasUpperCase && sameBytes(host, topHost) { return false }
        if topHost.isEmpty { return !host.isEmpty }
        return DomainMemo.withCurrentThread { memo in
            if let offset = memo.domainOffset(of: topHost) {
                return !hostMatches(host, UnsafeBufferPointer(rebasing: topHost[offset...]))
            }
            guard var topDomain = of(host: String(decoding: topHost, as: UTF8.self)) else { return !host.isEmpty }
            return topDomain.withUTF8 { domain in
                let offset = topHost.count - domain.count
                if offset >= 0 && sameBytes(UnsafeBufferPointer(rebasing: topHost[offset...]), domain) {
                    memo.store(topHost, domainOffset: offset)
                }
                return !hostMatches(host, domain)
            }
        }
    }

    /// `RegistrableDomain::matches` on a host: equal, or a suffix preceded by a dot.
    public static func hostMatches(_ host: String, registrableDomain domain: String) -> Bool {
        var host = host
        var domain = domain
        return host.withUTF8 { h in domain.withUTF8 { d in hostMatches(h, d) } }
    }

    private static func hostMatches(_ h: UnsafeBufferPointer<UInt8>, _ d: UnsafeBufferPointer<UInt8>) -> Bool {
        guard h.count >= d.count else { return false }
        let offset = h.count - d.count
        guard sameBytes(UnsafeBufferPointer(rebasing: h[offset...]), d) else { return false }
        return offset == 0 || h[offset - 1] == UInt8(ascii: ".")
    }

    @inline(__always)
    private static func sameBytes(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        guard let first = a.baseAddress, let second = b.baseAddress else { return true }
        return DomainMemo.sameBytes(UnsafeRawPointer(first), UnsafeRawPointer(second), count: a.count)
    }

    private static func isIPAddress(_ host: String) -> Bool {
        if host.utf8.first == UInt8(ascii: "[") || host.utf8.contains(UInt8(ascii: ":")) { return true }
        let bytes = Array(host.utf8)
        return HostParser.endsInANumber(bytes) && HostParser.parseIPv4(bytes[...]) != nil
    }
}
