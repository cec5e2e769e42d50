import ContentRuleCompiler
import ContentRuleFormat
import ContentRuleMatcher
import ContentRuleModel
import Dispatch
import RequestBatch
import RuleListParser

#if canImport(Glibc)
    import Glibc
#endif

// The C functions of include/content_blocker.h (the contract: ownership, errors, threads). Handles
// are retained Swift objects; every object they reach is immutable and Sendable, so any function may
// be called from any thread at once, except that a handle must not be freed while another call uses it.

/// Status codes (`cb_status`).
enum Status: Int32 {
    case ok = 0
    case argument = 1
    case io = 2
    case binary = 3
    case compile = 4
    case request = 5
}

/// A `cb_rule_list`: a list ready to match and, when compiled in memory, its binary rule list.
final class RuleListHandle {
    let list: ContentRuleList
    /// The binary rule list (compiled lists), or nil for a list loaded from a file.
    let bytes: [UInt8]?
    let path: String?
    let identifier: UnsafeMutablePointer<CChar>

    init(list: ContentRuleList, bytes: [UInt8]?, path: String?) {
        self.list = list
        self.bytes = bytes
        self.path = path
        identifier = strdup(list.identifier)
    }

    deinit { free(identifier) }
}

/// A `cb_matcher`: rule lists installed together, in order.
final class MatcherHandle {
    let blocker: ContentBlocker
    init(_ blocker: ContentBlocker) { self.blocker = blocker }
}

public typealias CString = UnsafePointer<CChar>
public typealias StringOut = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>

/// A `malloc`ed copy of `bytes` with a NUL after them (`cb_string_free` frees it).
func cString(_ bytes: some Collection<UInt8>) -> UnsafeMutablePointer<CChar> {
    let buffer = malloc(bytes.count + 1)!.bindMemory(to: UInt8.self, capacity: bytes.count + 1)
    _ = UnsafeMutableBufferPointer(start: buffer, count: bytes.count).initialize(from: bytes)
    buffer[bytes.count] = 0
    return UnsafeMutableRawPointer(buffer).assumingMemoryBound(to: CChar.self)
}

/// Stores a copy of `text` in `out` when `out` is not NULL.
func give(_ text: String, to out: StringOut?) {
    out?.pointee = cString(Array(text.utf8))
}

/// Returns `status` after storing `message` in `error`.
func fail(_ status: Status, _ message: String, _ errorOut: StringOut?) -> Int32 {
    give(message, to: errorOut)
    return status.rawValue
}

func listHandle(_ pointer: OpaquePointer) -> RuleListHandle {
    Unmanaged<RuleListHandle>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue()
}

func matcherHandle(_ pointer: OpaquePointer) -> MatcherHandle {
    Unmanaged<MatcherHandle>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue()
}

/// The status of a binary rule list error.
func status(of error: BinaryRuleListError) -> Status {
    if case .io = error { return .io }
    return .binary
}

@_cdecl("cb_version")
public func cbVersion() -> CString { UnsafeRawPointer(versionText).assumingMemoryBound(to: CChar.self) }

nonisolated(unsafe) let versionText: UnsafeMutablePointer<CChar> = strdup("0.2.0")

@_cdecl("cb_binary_format_version")
public func cbBinaryFormatVersion() -> UInt32 { BinaryRuleList.version }

@_cdecl("cb_string_free")
public func cbStringFree(_ text: UnsafeMutablePointer<CChar>?) { free(text) }

@_cdecl("cb_rule_list_load")
public func cbRuleListLoad(
    _ path: CString?, _ identifier: CString?, _ flags: UInt32, _ out: UnsafeMutablePointer<OpaquePointer?>?,
    _ errorOut: StringOut?
) -> Int32 {
    out?.pointee = nil
    errorOut?.pointee = nil
    guard let path, let out else { return fail(.argument, "path and out must not be NULL", errorOut) }
    guard flags & ~1 == 0 else { return fail(.argument, "unknown flags \(flags)", errorOut) }
    let pathText = String(cString: path)
    let name = identifier.map { String(cString: $0) } ?? defaultIdentifier(for: pathText)
    do {
        let list = try ContentRuleList(
            identifier: name, contentsOfFile: pathText, loading: flags & 1 != 0 ? .copied : .memoryMapped)
        out.pointee = OpaquePointer(
            Unmanaged.passRetained(RuleListHandle(list: list, bytes: nil, path: pathText)).toOpaque())
        return Status.ok.rawValue
    } catch {
        guard case .binary(let binary) = error else { return fail(.binary, error.description, errorOut) }
        // An I/O error names the path already.
        if case .io = binary { return fail(.io, binary.description, errorOut) }
        return fail(.binary, "\(pathText): \(binary.description)", errorOut)
    }
}

/// The CLI's identifier for a path: the file name without directory and extension.
func defaultIdentifier(for path: String) -> String {
    let name = path.split(separator: "/").last.map(String.init) ?? path
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
    return String(name[..<dot])
}

@_cdecl("cb_rule_list_compile")
public func cbRuleListCompile(
    _ json: CString?, _ length: Int, _ identifier: CString?, _ out: UnsafeMutablePointer<OpaquePointer?>?,
    _ diagnostics: StringOut?, _ errorOut: StringOut?
) -> Int32 {
    out?.pointee = nil
    diagnostics?.pointee = nil
    errorOut?.pointee = nil
    guard let json, let out, length >= 0 else {
        return fail(.argument, "json and out must not be NULL, length not negative", errorOut)
    }
    let bytes = UnsafeRawBufferPointer(start: json, count: length)
    let result = RuleListCompiler.compile(json: bytes)
    if let diagnostics { diagnostics.pointee = cString(diagnosticsJSON(result.diagnostics)) }
    guard let compiled = result.list else {
        let count = result.errors.count
        let first = result.errors.first.map { ": \($0)" } ?? ""
        return fail(.compile, "the rule list is invalid (\(count) error\(count == 1 ? "" : "s"))\(first)", errorOut)
    }
    do {
        let encoded = try BinaryRuleList.encode(compiled)
        let list = ContentRuleList(
            identifier: identifier.map { String(cString: $0) } ?? "list", rules: try MappedRuleList(bytes: encoded))
        out.pointee = OpaquePointer(
            Unmanaged.passRetained(RuleListHandle(list: list, bytes: encoded, path: nil)).toOpaque())
        return Status.ok.rawValue
    } catch {
        return fail(.binary, error.description, errorOut)
    }
}

/// Diagnostics as `content-blocker check --json` lists them.
func diagnosticsJSON(_ diagnostics: [RuleListDiagnostic]) -> [UInt8] {
    var writer = JSONWriter()
    writer.openArray()
    for diagnostic in diagnostics {
        writer.element()
        writer.diagnostic(diagnostic)
    }
    writer.closeArray()
    return writer.bytes
}

@_cdecl("cb_rule_list_save")
public func cbRuleListSave(_ list: OpaquePointer?, _ path: CString?, _ errorOut: StringOut?) -> Int32 {
    errorOut?.pointee = nil
    guard let list, let path else { return fail(.argument, "list and path must not be NULL", errorOut) }
    let handle = listHandle(list)
    do {
        let bytes: [UInt8]
        if let encoded = handle.bytes {
            bytes = encoded
        } else {
            // A loaded list: its file, validated again (it may have been replaced since).
            bytes = try AtomicFile.read(handle.path ?? "")
            _ = try MappedRuleList(bytes: bytes)
        }
        try AtomicFile.write(bytes, to: String(cString: path))
        return Status.ok.rawValue
    } catch {
        return fail(status(of: error), error.description, errorOut)
    }
}

@_cdecl("cb_rule_list_identifier")
public func cbRuleListIdentifier(_ list: OpaquePointer?) -> CString? {
    list.map { UnsafePointer(listHandle($0).identifier) }
}

@_cdecl("cb_rule_list_rule_count")
public func cbRuleListRuleCount(_ list: OpaquePointer?) -> Int {
    list.map { listHandle($0).list.rules.sourceRuleCount } ?? 0
}

@_cdecl("cb_rule_list_free")
public func cbRuleListFree(_ list: OpaquePointer?) {
    guard let list else { return }
    Unmanaged<RuleListHandle>.fromOpaque(UnsafeRawPointer(list)).release()
}

@_cdecl("cb_matcher_new")
public func cbMatcherNew(
    _ lists: UnsafePointer<OpaquePointer?>?, _ count: Int, _ patterns: UnsafePointer<CString?>?, _ patternCount: Int,
    _ flags: UInt32, _ out: UnsafeMutablePointer<OpaquePointer?>?, _ errorOut: StringOut?
) -> Int32 {
    out?.pointee = nil
    errorOut?.pointee = nil
    guard let out, count >= 0, patternCount >= 0, count == 0 || lists != nil, patternCount == 0 || patterns != nil
    else { return fail(.argument, "out must not be NULL; lists and patterns must hold their counts", errorOut) }
    guard flags & ~1 == 0 else { return fail(.argument, "unknown flags \(flags)", errorOut) }
    var installed: [ContentRuleList] = []
    for index in 0..<count {
        guard let list = lists![index] else { return fail(.argument, "lists[\(index)] is NULL", errorOut) }
        installed.append(listHandle(list).list)
    }
    var matchPatterns: [URLMatchPattern] = []
    for index in 0..<patternCount {
        guard let text = patterns![index] else { return fail(.argument, "patterns[\(index)] is NULL", errorOut) }
        let string = String(cString: text)
        guard let pattern = URLMatchPattern(string) else {
            return fail(.argument, "invalid match pattern '\(string)'", errorOut)
        }
        matchPatterns.append(pattern)
    }
    let blocker = ContentBlocker(
        lists: installed, activeActions: ActiveActionPolicy(patternsForAllLists: matchPatterns),
        engine: flags & 1 != 0 ? .reference : .fast)
    out.pointee = OpaquePointer(Unmanaged.passRetained(MatcherHandle(blocker)).toOpaque())
    return Status.ok.rawValue
}

@_cdecl("cb_matcher_free")
public func cbMatcherFree(_ matcher: OpaquePointer?) {
    guard let matcher else { return }
    Unmanaged<MatcherHandle>.fromOpaque(UnsafeRawPointer(matcher)).release()
}

/// The result style of match flags (`CB_MATCH_BRIEF`, `CB_MATCH_FIRED_RULES`), nil for unknown flags.
func style(_ flags: UInt32) -> BatchMatching.ResultStyle? {
    guard flags & ~3 == 0 else { return nil }
    return BatchMatching.ResultStyle(brief: flags & 1 != 0, firedRules: flags & 2 != 0)
}

@_cdecl("cb_match")
public func cbMatch(
    _ matcher: OpaquePointer?, _ request: CString?, _ length: Int, _ flags: UInt32, _ result: StringOut?,
    _ resultLength: UnsafeMutablePointer<Int>?, _ errorOut: StringOut?
) -> Int32 {
    result?.pointee = nil
    resultLength?.pointee = 0
    errorOut?.pointee = nil
    guard let matcher, let request, let result, length >= 0 else {
        return fail(.argument, "matcher, request and result must not be NULL", errorOut)
    }
    guard let style = style(flags) else { return fail(.argument, "unknown flags \(flags)", errorOut) }
    let line = ArraySlice(
        UnsafeBufferPointer(start: UnsafeRawPointer(request).assumingMemoryBound(to: UInt8.self), count: length))
    let fields: RequestFields
    if let flat = RequestFields.parseFlat(line) {
        fields = flat
    } else {
        switch BatchMatching.parseSlowly(line) {
        case .success(let parsed): fields = parsed
        case .failure(let error): return fail(.request, error.message, errorOut)
        }
    }
    var writer = JSONWriter()
    let blocker = matcherHandle(matcher).blocker
    if let message = BatchMatching.writeResponse(to: fields, blocker: blocker, style: style, into: &writer) {
        return fail(.request, message, errorOut)
    }
    resultLength?.pointee = writer.bytes.count
    result.pointee = cString(writer.bytes)
    return Status.ok.rawValue
}

@_cdecl("cb_match_many")
public func cbMatchMany(
    _ matcher: OpaquePointer?, _ requests: CString?, _ length: Int, _ flags: UInt32, _ jobs: Int,
    _ results: StringOut?, _ resultsLength: UnsafeMutablePointer<Int>?, _ errorOut: StringOut?
) -> Int32 {
    results?.pointee = nil
    resultsLength?.pointee = 0
    errorOut?.pointee = nil
    guard let matcher, let results, length >= 0, length == 0 || requests != nil, jobs >= 0 else {
        return fail(.argument, "matcher and results must not be NULL; requests must hold length bytes", errorOut)
    }
    guard let style = style(flags) else { return fail(.argument, "unknown flags \(flags)", errorOut) }
    let blocker = matcherHandle(matcher).blocker
    // The lines as `match --requests` reads them, answered as it answers them (line N out for line N in).
    let bytes = Array(
        UnsafeBufferPointer(
            start: requests.map { UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self) }, count: length))
    let lines = bytes.withUnsafeBufferPointer { BatchMatching.lineRanges(in: $0) }
    var output: [UInt8] = []
    var summary = BatchMatching.BatchSummary()
    _ = BatchMatching.matchWindows(
        count: lines.count, jobs: jobs == 0 ? processorCount : jobs, strict: false, summary: &summary,
        write: { window in
            output += window
            return true
        },
        respond: { index, writer in
            BatchMatching.respond(
                to: bytes[lines[index]], lineNumber: index + 1, blocker: blocker, style: style, into: &writer)
        })
    resultsLength?.pointee = output.count
    results.pointee = cString(output)
    return Status.ok.rawValue
}

let processorCount = max(Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), 1)
