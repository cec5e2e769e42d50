/// A Safari release a rule list is meant for (`lint --target safari-16.4`): its major and minor
/// version. Safari's majors went from 18 to 26 (2025), so 19–25 name no release.
package struct SafariVersion: Comparable, Hashable, Sendable, CustomStringConvertible {
    package var major: Int
    package var minor: Int

    package init(_ major: Int, _ minor: Int = 0) {
        self.major = major
        self.minor = minor
    }

    /// The oldest and newest releases `--target` accepts: Safari 13 (2019) is the oldest a maintained
    /// list still ships to; 26 (and its minor releases) the newest the facts cover.
    package static let oldest = SafariVersion(13)
    package static let newest = SafariVersion(26, 9)

    /// Reads `safari-16.4`, `safari-26`, `16.4` or `26`; nil for anything else, a major that named
    /// no release (19–25) or one outside ``oldest``…``newest``.
    package init?(argument: String) {
        let text = argument.lowercased().hasPrefix("safari-") ? argument.dropFirst(7) : Substring(argument)
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let major = Int(parts[0]),
            let minor = parts.count == 2 ? Int(parts[1]) : 0, minor >= 0, minor < 10,
            parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) })
        else { return nil }
        self.init(major, minor)
        guard self >= Self.oldest, self <= Self.newest, !(19...25).contains(major) else { return nil }
    }

    package var description: String { minor == 0 ? "Safari \(major)" : "Safari \(major).\(minor)" }

    package static func < (a: SafariVersion, b: SafariVersion) -> Bool {
        (a.major, a.minor) < (b.major, b.minor)
    }
}
