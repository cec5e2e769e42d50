import ContentRuleCompiler
public import ContentRuleFormat
public import ContentRuleMatcher
import ContentRuleModel
import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// A directory of compiled content rule lists keyed by identifier, in the shape of WebKit's
/// `WKContentRuleListStore` (`Source/WebKit/UIProcess/API/APIContentRuleListStore.cpp`): compile a
/// JSON rule list for an identifier, look a list up, remove it, list the identifiers, and read back
/// the source a list was compiled from.
///
/// Each list is one file, `ContentRuleList-` and the identifier (`StoredFile.swift`): the binary rule list
/// (mapped in place when looked up), then the identifier and the JSON source. A list stored by another
/// binary rule list version is compiled again from its source when it is looked up, as WebKit does.
///
/// Safe to use from several threads and several processes at once: a list is replaced by writing a new
/// file and renaming it over the old one (a reader sees the old list or the new one, never a mix),
/// under an exclusive `flock` of the store's `.lock` file; reads take it shared. A list already looked
/// up keeps reading the file it mapped, whatever happens to the store afterwards.
///
/// Identifiers are any strings (the empty one too); they are spelled in file names with every byte
/// other than ASCII letters, digits, `-` and `_` written `%XX` (a long identifier is named by a hash).
public final class ContentRuleListStore: Sendable {
    /// The store's directory, as given.
    public let directory: String
    /// How looked-up lists are read (``FileLoading``).
    public let loading: FileLoading

    /// Opens the store at `directory`, creating it (and its parents) when missing.
    /// - Throws: ``ContentRuleListStoreError/io(path:operation:message:)`` when it cannot be created or is
    ///   not a directory.
    public init(directory: String, loading: FileLoading = .memoryMapped) throws(ContentRuleListStoreError) {
        self.directory = directory.count > 1 && directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        self.loading = loading
        try Self.makeDirectories(self.directory)
    }

    /// The default store directory: `$XDG_DATA_HOME/content-blocker` when `XDG_DATA_HOME` is an absolute
    /// path, else `$HOME/.local/share/content-blocker` (the XDG Base Directory default); nil without a
    /// home directory.
    public static var defaultDirectory: String? {
        if let data = getenv("XDG_DATA_HOME").map({ String(cString: $0) }), data.hasPrefix("/") {
            return data + "/content-blocker"
        }
        guard let home = getenv("HOME").map({ String(cString: $0) }), !home.isEmpty else { return nil }
        return home + "/.local/share/content-blocker"
    }

    // MARK: Compile

    /// Compiles a JSON rule list and stores it as `identifier`, replacing the list stored there.
    ///
    /// - Returns: the stored list, ready to match.
    /// - Throws: ``ContentRuleListStoreError/compileFailed(identifier:diagnostics:)`` (nothing is stored,
    ///   the old list stays), ``ContentRuleListStoreError/tooLarge(identifier:limit:)``,
    ///   ``ContentRuleListStoreError/io(path:operation:message:)``.
    /// - Complexity: the compile (O(JSON size) plus one url-filter parse per pattern), then a write of
    ///   the file and its validation.
    @discardableResult
    public func compileContentRuleList(forIdentifier identifier: String, json: [UInt8])
        throws(ContentRuleListStoreError) -> ContentRuleList
    {
        let result = RuleListCompiler.compile(json: json)
        guard let compiled = result.list else {
            throw .compileFailed(identifier: identifier, diagnostics: result.errors)
        }
        return try store(compiled, identifier: identifier, source: json)
    }

    /// ``compileContentRuleList(forIdentifier:json:)`` of a JSON string (WebKit's
    /// `compileContentRuleListForIdentifier:encodedContentRuleList:`).
    @discardableResult
    public func compileContentRuleList(forIdentifier identifier: String, encodedContentRuleList json: String)
        throws(ContentRuleListStoreError) -> ContentRuleList
    {
        try compileContentRuleList(forIdentifier: identifier, json: Array(json.utf8))
    }

    /// ``compileContentRuleList(forIdentifier:json:)`` of the JSON file at `path`.
    /// - Throws: also ``ContentRuleListStoreError/io(path:operation:message:)`` when the file cannot be read.
    @discardableResult
    public func compileContentRuleList(forIdentifier identifier: String, contentsOfFile path: String)
        throws(ContentRuleListStoreError) -> ContentRuleList
    {
        try compileContentRuleList(forIdentifier: identifier, json: readSource(path, identifier: identifier))
    }

    /// The JSON file at `path`, to compile as `identifier`.
    func readSource(_ path: String, identifier: String) throws(ContentRuleListStoreError) -> [UInt8] {
        do {
            return try AtomicFile.read(path)
        } catch {
            throw Self.storeError(error, identifier: identifier, path: path)
        }
    }

    /// Writes `compiled` with its source under `identifier` and opens what was written.
    func store(_ compiled: CompiledRuleList, identifier: String, source: [UInt8])
        throws(ContentRuleListStoreError) -> ContentRuleList
    {
        let (bytes, binaryLength) = try encode(compiled, identifier: identifier, source: source)
        let lock = try StoreLock(directory: directory, exclusive: true)
        defer { lock.release() }
        return try write(bytes, binaryLength: binaryLength, identifier: identifier)
    }

    /// The stored file's bytes for `compiled` and the length of its binary rule list.
    private func encode(_ compiled: CompiledRuleList, identifier: String, source: [UInt8])
        throws(ContentRuleListStoreError) -> ([UInt8], Int)
    {
        do {
            let binary = try BinaryRuleList.encode(compiled)
            return (StoredFile.encode(binary: binary, identifier: identifier, source: source), binary.count)
        } catch {
            throw Self.storeError(error, identifier: identifier, path: path(for: identifier))
        }
    }

    /// Replaces `identifier`'s file with `bytes` and opens it. Under the exclusive lock.
    private func write(_ bytes: [UInt8], binaryLength: Int, identifier: String) throws(ContentRuleListStoreError)
        -> ContentRuleList
    {
        let path = path(for: identifier)
        if StoredFile.isHashed(StoredFile.fileName(for: identifier)),
            case .success(let stored)? = try? storedIdentifier(at: path), stored != identifier
        {
            throw .io(
                path: path, operation: "store",
                message: "the file of identifier '\(stored)' has the same name (a hash collision): remove it first")
        }
        do {
            try AtomicFile.write(bytes, to: path)
            let mapped = try MappedRuleList(contentsOfFile: path, prefix: binaryLength, loading: loading)
            return ContentRuleList(identifier: identifier, rules: mapped)
        } catch {
            throw Self.storeError(error, identifier: identifier, path: path)
        }
    }

    // MARK: Look up

    /// The list stored as `identifier`, mapped (or read, per ``loading``) and validated. A list stored by
    /// another binary rule list version is compiled again from its stored source and stored in its place.
    ///
    /// - Throws: ``ContentRuleListStoreError/notFound(identifier:)``,
    ///   ``ContentRuleListStoreError/damaged(identifier:path:reason:)``,
    ///   ``ContentRuleListStoreError/versionMismatch(identifier:found:diagnostics:)``,
    ///   ``ContentRuleListStoreError/io(path:operation:message:)``.
    /// - Complexity: O(file size) (the checksum and validation of the binary rule list).
    public func lookUpContentRuleList(forIdentifier identifier: String) throws(ContentRuleListStoreError)
        -> ContentRuleList
    {
        let path = path(for: identifier)
        let found: UInt32
        do {
            let lock = try StoreLock(directory: directory, exclusive: false)
            defer { lock.release() }
            switch try openList(identifier, path) {
            case .list(let list): return list
            case .otherVersion(let version): found = version
            }
        }
        // Another version's list: compile its source again, once (another process may have done it).
        let lock = try StoreLock(directory: directory, exclusive: true)
        defer { lock.release() }
        if case .list(let list) = try openList(identifier, path) { return list }
        let source = try sourceBytes(identifier, path)
        let result = RuleListCompiler.compile(json: source)
        guard let compiled = result.list else {
            throw .versionMismatch(identifier: identifier, found: found, diagnostics: result.errors)
        }
        let (bytes, binaryLength) = try encode(compiled, identifier: identifier, source: source)
        return try write(bytes, binaryLength: binaryLength, identifier: identifier)
    }

    /// The list at `path`, or the binary rule list version it was stored with when that is not this
    /// build's. Under the store's lock.
    private func openList(_ identifier: String, _ path: String) throws(ContentRuleListStoreError) -> Opened {
        let layout = try storedLayout(identifier, path)
        do {
            let mapped = try MappedRuleList(contentsOfFile: path, prefix: layout.binaryLength, loading: loading)
            return .list(ContentRuleList(identifier: identifier, rules: mapped))
        } catch {
            if case .unsupportedVersion(let version, _) = error { return .otherVersion(version) }
            throw Self.storeError(error, identifier: identifier, path: path)
        }
    }

    // MARK: Remove, list, source

    /// Removes the list stored as `identifier`, damaged or not. Lists already looked up keep working.
    /// - Throws: ``ContentRuleListStoreError/notFound(identifier:)``,
    ///   ``ContentRuleListStoreError/io(path:operation:message:)``.
    public func removeContentRuleList(forIdentifier identifier: String) throws(ContentRuleListStoreError) {
        let lock = try StoreLock(directory: directory, exclusive: true)
        defer { lock.release() }
        let path = path(for: identifier)
        guard unlink(path) == 0 else {
            if errno == ENOENT { throw .notFound(identifier: identifier) }
            throw .io(path: path, operation: "remove", message: StoreLock.errorText())
        }
    }

    /// The identifiers of the stored lists, sorted by their UTF-8 bytes. A damaged file whose name does
    /// not spell its identifier (a long identifier's hashed name) is left out.
    /// - Throws: ``ContentRuleListStoreError/io(path:operation:message:)`` when the directory cannot be read.
    public func availableContentRuleListIdentifiers() throws(ContentRuleListStoreError) -> [String] {
        let lock = try StoreLock(directory: directory, exclusive: false)
        defer { lock.release() }
        guard let stream = opendir(directory) else {
            throw .io(path: directory, operation: "read directory", message: StoreLock.errorText())
        }
        defer { closedir(stream) }
        var identifiers: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if let identifier = StoredFile.identifier(spelledBy: name) {
                identifiers.append(identifier)
            } else if StoredFile.isHashed(name),
                case .success(let identifier)? = try? storedIdentifier(
                    at: directory + "/" + name)
            {
                identifiers.append(identifier)
            }
        }
        return identifiers.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// The JSON the list stored as `identifier` was compiled from, byte for byte (WebKit's
    /// `getContentRuleListSourceForIdentifier`).
    /// - Throws: as ``lookUpContentRuleList(forIdentifier:)``, but a list of another version is not a failure.
    public func contentRuleListSource(forIdentifier identifier: String) throws(ContentRuleListStoreError) -> [UInt8] {
        let lock = try StoreLock(directory: directory, exclusive: false)
        defer { lock.release() }
        return try sourceBytes(identifier, path(for: identifier))
    }

    // MARK: Files

    /// The path of `identifier`'s file.
    public func path(for identifier: String) -> String { directory + "/" + StoredFile.fileName(for: identifier) }

    /// The footer of `identifier`'s file at `path`, checked to be that identifier's.
    private func storedLayout(_ identifier: String, _ path: String) throws(ContentRuleListStoreError)
        -> StoredFile.Layout
    {
        switch try storedIdentifier(at: path) {
        case .success(let stored) where stored == identifier: break
        case .success(let stored):
            throw .damaged(identifier: identifier, path: path, reason: "it holds the list of '\(stored)'")
        case .failure(let damage): throw .damaged(identifier: identifier, path: path, reason: damage.reason)
        }
        let layout = try withFile(path, identifier: identifier) { descriptor, size in
            StoredFile.layout(descriptor, size: size)
        }
        switch layout {
        case .success(let layout): return layout
        case .failure(let damage): throw .damaged(identifier: identifier, path: path, reason: damage.reason)
        }
    }

    /// A stored file opened: its list, or the binary rule list version it was stored with when that is
    /// not this build's.
    private enum Opened {
        case list(ContentRuleList)
        case otherVersion(UInt32)
    }

    /// The identifier stored in the file at `path`, or why the file cannot say.
    /// - Throws: ``ContentRuleListStoreError/notFound(identifier:)`` (with the file name) when it does
    ///   not exist, `io` when it cannot be opened.
    private func storedIdentifier(at path: String) throws(ContentRuleListStoreError) -> Result<
        String, StoredFile.Damage
    > {
        try withFile(path, identifier: nil) { descriptor, size in
            StoredFile.layout(descriptor, size: size).flatMap { layout in
                guard let bytes = StoredFile.read(descriptor, at: layout.binaryLength, count: layout.identifierLength)
                else { return .failure(StoredFile.Damage("the identifier cannot be read")) }
                return .success(String(decoding: bytes, as: UTF8.self))
            }
        }
    }

    private func sourceBytes(_ identifier: String, _ path: String) throws(ContentRuleListStoreError) -> [UInt8] {
        let layout = try storedLayout(identifier, path)
        let bytes = try withFile(path, identifier: identifier) { descriptor, _ in
            StoredFile.read(descriptor, at: layout.sourceRange.lowerBound, count: layout.sourceLength)
        }
        guard let bytes else {
            throw .damaged(identifier: identifier, path: path, reason: "the source cannot be read")
        }
        return bytes
    }

    /// `body` of the file at `path`, open for reading, and its size.
    private func withFile<T>(_ path: String, identifier: String?, _ body: (Int32, Int) -> T)
        throws(ContentRuleListStoreError) -> T
    {
        let descriptor = SystemCall.retryingOnInterrupt { open(path, O_RDONLY | O_CLOEXEC) }
        guard descriptor >= 0 else {
            if errno == ENOENT {
                throw .notFound(identifier: identifier ?? StoredFile.identifier(spelledBy: basename(path)) ?? path)
            }
            throw .io(path: path, operation: "open", message: StoreLock.errorText())
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw .io(path: path, operation: "stat", message: StoreLock.errorText())
        }
        return body(descriptor, Int(status.st_size))
    }

    private func basename(_ path: String) -> String { String(path.split(separator: "/").last ?? "") }

    /// `error` as the store reports it for `identifier`'s file at `path`.
    private static func storeError(_ error: BinaryRuleListError, identifier: String, path: String)
        -> ContentRuleListStoreError
    {
        switch error {
        case .io(let path, let operation, let message): return .io(path: path, operation: operation, message: message)
        case .tooLarge(let limit): return .tooLarge(identifier: identifier, limit: limit)
        default: return .damaged(identifier: identifier, path: path, reason: error.description)
        }
    }

    /// `mkdir -p`: creates `path` and its missing parents (mode 0777 less the umask).
    private static func makeDirectories(_ path: String) throws(ContentRuleListStoreError) {
        var status = stat()
        if stat(path, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFDIR else {
                throw .io(path: path, operation: "open store", message: "not a directory")
            }
            return
        }
        let parent = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        if !parent.isEmpty && parent != path { try makeDirectories(parent) }
        guard mkdir(path, 0o777) == 0 || errno == EEXIST else {
            throw .io(path: path, operation: "create store directory", message: StoreLock.errorText())
        }
    }
}
