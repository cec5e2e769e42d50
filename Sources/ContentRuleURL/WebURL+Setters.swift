// The URL Standard's API setters ("URL class" section), used by redirect `transform` (spec §1.5.1).

extension WebURL {
    /// Runs the basic URL parser with a state override on a copy; commits it unless it failed or refused.
    private mutating func apply(_ value: String, state: URLParserState, prepare: (inout URLRecord) -> Void = { _ in })
        -> Bool
    {
        var copy = record
        prepare(&copy)
        guard URLParser.parse(value, base: nil, url: &copy, stateOverride: state) == .done else { return false }
        record = copy
        serialization = record.serialize()
        return true
    }

    /// The `protocol` setter. `scheme` is given without `:` (text after a `:` is ignored).
    ///
    /// - Returns: false (URL unchanged) when the value is not a scheme, or when the change is refused:
    ///   special ↔ non-special, to `file` with credentials or a port, from `file` with an empty host.
    ///   A port equal to the new scheme's default port is removed.
    @discardableResult public mutating func setScheme(_ scheme: String) -> Bool {
        apply(scheme + ":", state: .schemeStart)
    }

    /// The `username` setter: percent-encodes with the userinfo set.
    ///
    /// - Returns: false when the URL cannot have credentials (no host, empty host, or `file`).
    @discardableResult public mutating func setUsername(_ username: String) -> Bool {
        guard !record.cannotHaveCredentialsOrPort else { return false }
        record.username = PercentEncoding.encode(username.utf8, set: .userinfo)
        serialization = record.serialize()
        return true
    }

    /// The `password` setter: percent-encodes with the userinfo set.
    ///
    /// - Returns: false when the URL cannot have credentials (no host, empty host, or `file`).
    @discardableResult public mutating func setPassword(_ password: String) -> Bool {
        guard !record.cannotHaveCredentialsOrPort else { return false }
        record.password = PercentEncoding.encode(password.utf8, set: .userinfo)
        serialization = record.serialize()
        return true
    }

    /// The `hostname` setter (host without port). Like WebKit's `URL::setHost` (`URL.cpp`), a `:`
    /// outside brackets refuses the change; text from the first `/`, `?`, `#` (and `\` for special
    /// URLs) on is ignored.
    ///
    /// - Returns: false when the URL has an opaque path, the host is invalid, or it is refused
    ///   (e.g. an empty host for a special URL).
    @discardableResult public mutating func setHost(_ host: String) -> Bool {
        guard !record.hasOpaquePath else { return false }
        return apply(host, state: .hostname)
    }

    /// The `host` setter: `host` or `host:port`.
    ///
    /// - Returns: false when the URL has an opaque path or the host is invalid or refused.
    @discardableResult public mutating func setHostAndPort(_ hostAndPort: String) -> Bool {
        guard !record.hasOpaquePath else { return false }
        return apply(hostAndPort, state: .host)
    }

    /// Sets or (nil) removes the port; a scheme's default port is stored as no port.
    ///
    /// - Returns: false when the URL cannot have a port (no host, empty host, or `file`).
    @discardableResult public mutating func setPort(_ port: UInt16?) -> Bool {
        guard !record.cannotHaveCredentialsOrPort else { return false }
        record.port = port == record.defaultPort ? nil : port
        serialization = record.serialize()
        return true
    }

    /// The `pathname` setter: the path is replaced by `path`, parsed from the path start state
    /// (dot segments resolved, path percent-encode set applied).
    ///
    /// - Returns: false when the URL has an opaque path.
    @discardableResult public mutating func setPath(_ path: String) -> Bool {
        guard !record.hasOpaquePath else { return false }
        return apply(path, state: .pathStart) { $0.path = .segments([]) }
    }

    /// Sets the query (`query` is given without the leading `?`, which is not stripped) or removes
    /// it (nil). `""` gives an empty query (a bare `?`). Encoded with the (special-)query set.
    ///
    /// - Returns: always true.
    @discardableResult public mutating func setQuery(_ query: String?) -> Bool {
        guard let query else {
            record.query = nil
            serialization = record.serialize()
            return true
        }
        return apply(query, state: .query) { $0.query = "" }
    }

    /// Sets the fragment (given without `#`) or removes it (nil). `""` gives a bare `#`.
    ///
    /// - Returns: always true.
    @discardableResult public mutating func setFragment(_ fragment: String?) -> Bool {
        guard let fragment else {
            record.fragment = nil
            serialization = record.serialize()
            return true
        }
        return apply(fragment, state: .fragment) { $0.fragment = "" }
    }
}
