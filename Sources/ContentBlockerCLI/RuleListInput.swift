import ContentRuleCompiler
import ContentRuleFormat
import ContentRuleMatcher
import ContentRuleModel
import RuleListParser

/// Reading rule lists named on the command line: a JSON rule list or a compiled binary rule list,
/// a path or `-` for standard input.
enum RuleListInput {
    /// The bytes of a file, or of standard input for `-`.
    static func read(_ path: String) throws(RuntimeError) -> [UInt8] {
        do {
            return try AtomicFile.read(path == "-" ? "/dev/stdin" : path)
        } catch {
            throw RuntimeError(error.description)
        }
    }

    /// Refuses `-` (standard input) named more than once among `paths`: the second reader would get nothing.
    static func readStandardInputOnce(_ paths: [String]) throws(UsageError) {
        if paths.filter({ $0 == "-" }).count > 1 { throw UsageError("standard input (-) can be read only once") }
    }

    /// The list's identifier: its file name without directory and extension (`stdin` for `-`).
    static func identifier(for path: String) -> String {
        if path == "-" { return "stdin" }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }

    /// The identifiers of the lists at `paths`, in order: each path's ``identifier(for:)``, made unique
    /// (results name lists by identifier): a name that an earlier path already has gets the first
    /// free suffix `-2`, `-3`, … (`a/list.json b/list.json` → `list`, `list-2`).
    static func identifiers(for paths: [String]) -> [String] {
        let names = paths.map(identifier(for:))
        var taken = Set(names)
        var given: Set<String> = []
        return names.map { name in
            guard given.contains(name) else {
                given.insert(name)
                return name
            }
            var suffix = 2
            while taken.contains("\(name)-\(suffix)") { suffix += 1 }
            let unique = "\(name)-\(suffix)"
            taken.insert(unique)
            given.insert(unique)
            return unique
        }
    }

    static func isBinaryRuleList(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 4 && bytes[0] == 0x89 && bytes[1] == 0x43 && bytes[2] == 0x42 && bytes[3] == 0x52
    }

    /// Prints `diagnostics` on standard error, one a line (``line(_:file:)``), at most `limit` of them
    /// and then how many were left out.
    static func report(_ diagnostics: [RuleListDiagnostic], file: String, limit: Int? = nil) {
        for diagnostic in diagnostics.prefix(limit ?? diagnostics.count) {
            Console.err(line(diagnostic, file: file))
        }
        if let limit, diagnostics.count > limit {
            Console.err("\(file): \(diagnostics.count - limit) more not shown (--max-errors \(limit))")
        }
    }

    /// `FILE:LINE:COLUMN: error: rule N: KEY: message (detail)` (`warning:` for a warning; without a
    /// rule, `byte N` in its place): the form compilers print, which `lint`'s warnings share.
    static func line(_ diagnostic: RuleListDiagnostic, file: String) -> String {
        let position = diagnostic.line.map { ":\($0):\(diagnostic.column ?? 1)" } ?? ""
        var parts = [diagnostic.severity == .warning ? "warning" : "error"]
        if let rule = diagnostic.ruleIndex { parts.append("rule \(rule)") }
        if let keyPath = diagnostic.keyPath { parts.append(keyPath) }
        if let byte = diagnostic.byteOffset, diagnostic.ruleIndex == nil { parts.append("byte \(byte)") }
        var text = diagnostic.error?.message ?? diagnostic.detail ?? ""
        if diagnostic.error != nil, let detail = diagnostic.detail { text += " (\(detail))" }
        parts.append(text)
        return "\(file)\(position): " + parts.joined(separator: ": ")
    }

    /// Loads a list for matching: reads a binary rule list into memory (a `match --requests` process
    /// may run for long: a copy is immune to the file being rewritten in place meanwhile, which a map
    /// is not), or compiles JSON in memory. Standard input, a pipe (`<(…)`) or a device is read to its
    /// end first.
    static func load(_ path: String, identifier: String) throws(RuntimeError) -> ContentRuleList {
        if path != "-" && !isStream(path) {
            do {
                return ContentRuleList(
                    identifier: identifier, rules: try MappedRuleList(contentsOfFile: path, loading: .copied))
            } catch BinaryRuleListError.notARuleList {
                // Not a binary rule list: read it as JSON below.
            } catch {
                // An I/O error names the path already.
                if case .io = error { throw RuntimeError(error.description) }
                throw RuntimeError("\(path): \(error)")
            }
        }
        let bytes = try read(path)
        // Say so rather than report an empty JSON document (a failed download of a binary list).
        guard !bytes.isEmpty else { throw RuntimeError("\(path): empty file: neither a binary nor a JSON rule list") }
        do {
            if isBinaryRuleList(bytes) {
                return ContentRuleList(identifier: identifier, rules: try MappedRuleList(bytes: bytes))
            }
            let result = RuleListCompiler.compile(json: bytes)
            guard let list = result.list else {
                report(result.errors, file: path)
                throw RuntimeError(
                    "\(path): the rule list is invalid (\(result.errors.count) error\(result.errors.count == 1 ? "" : "s"))"
                )
            }
            return try ContentRuleList(identifier: identifier, compiled: list)
        } catch let error as RuntimeError {
            throw error
        } catch {
            throw RuntimeError("\(path): \(error)")
        }
    }
}
