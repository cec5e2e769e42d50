import ContentRuleMatcher
import ContentRuleModel
import ContentRuleURL
import Dispatch
import Foundation
import Locking
import RequestBatch
import RuleListParser

/// `content-blocker match`: its declaration is in MatchCommand+Configuration.swift.
struct MatchCommand: Command {
    /// Where the requests come from.
    enum Requests {
        /// One request, from the flags.
        case single(RequestFields)
        /// JSON Lines from a file or standard input (`-`).
        case lines(path: String)
    }

    /// Where the rule lists come from.
    enum Lists {
        /// Files named on the command line (binary or JSON rule lists).
        case files([String])
        /// Identifiers of lists in a store (`store match`), looked up by the caller.
        case stored([String])
    }

    var lists: Lists
    var requests: Requests
    var activeActions: [URLMatchPattern] = []
    var engine: MatchingEngine
    /// Threads for a batch; nil for the number of processors.
    var jobs: Int?
    var style: BatchMatching.ResultStyle
    /// --strict: a request line with an error or a warning stops the batch (exit 1).
    var strict: Bool
    /// --input-format: what --requests holds.
    var format: RequestFormat

    init(_ arguments: ParsedArguments) throws(UsageError) {
        try self.init(arguments, lists: .files(arguments[Self.listsArgument]))
    }

    /// Reads the match options of `arguments` (the declarations of ``configuration``, which `store
    /// match` shares) for `lists`.
    init(_ arguments: ParsedArguments, lists: Lists) throws(UsageError) {
        self.lists = lists
        for text in arguments.all(Self.activeActionsOption) {
            guard let pattern = URLMatchPattern(text) else { throw UsageError("invalid match pattern '\(text)'") }
            activeActions.append(pattern)
        }
        let requestsPath = arguments[Self.requestsOption]
        if arguments[Self.briefFlag] && arguments[Self.fullFlag] {
            throw UsageError("--brief and --full exclude each other")
        }
        // With --requests the results are brief unless --full: a list's global stylesheet and its
        // selectors would make every line of a batch hundreds of KB.
        let brief = arguments[Self.briefFlag] || requestsPath != nil && !arguments[Self.fullFlag]
        style = BatchMatching.ResultStyle(brief: brief, firedRules: arguments[Self.firedRulesFlag])
        if let text = arguments[Self.fieldsOption] {
            switch BatchMatching.ResultFields.parse(text) {
            case .success(let fields): style.fields = fields
            case .failure(let error): throw UsageError(error.message)
            }
        }
        strict = arguments[Self.strictFlag]
        format = arguments[Self.inputFormatOption] ?? .request
        if requestsPath == nil {
            // What only a batch reads: silently ignored with --url, it would not do what was asked.
            for (given, name) in [
                (arguments[Self.inputFormatOption] != nil, "--input-format"),
                (arguments[Self.jobsOption] != nil, "--jobs"),
                (arguments[Self.strictFlag], "--strict"),
            ] where given {
                throw UsageError("\(name) applies to --requests")
            }
        }
        engine = arguments[Self.engineOption] ?? .fast
        jobs = arguments[Self.jobsOption]?.value
        var paths: [String] = []
        if case .files(let files) = lists { paths = files }
        try RuleListInput.readStandardInputOnce(paths + [requestsPath].compactMap { $0 })
        let requestOptions = Self.requestFields.compactMap { field in
            field.option.map { (key: field.key, option: $0) }
        }
        if let requestsPath {
            // The request flags describe one request: with --requests each line says its own.
            if let given = requestOptions.first(where: { arguments.text($0.option) != nil }) {
                throw UsageError("\(given.option.name) describes a single request: use either it or --requests")
            }
            requests = .lines(path: requestsPath)
            return
        }
        guard arguments[Self.urlOption] != nil else { throw UsageError("needs --url or --requests") }
        var fields = RequestFields()
        for (key, option) in requestOptions {
            if let value = arguments.text(option) { fields.set(key, to: value) }
        }
        do {
            _ = try BatchMatching.load(from: fields)
        } catch {
            throw UsageError("invalid request: \(error.message)")
        }
        requests = .single(fields)
    }

    func run() throws -> Int32 {
        guard case .files(let paths) = lists else { preconditionFailure("stored lists are looked up by store match") }
        var loaded: [ContentRuleList] = []
        for (path, identifier) in zip(paths, RuleListInput.identifiers(for: paths)) {
            loaded.append(try RuleListInput.load(path, identifier: identifier))
        }
        return try run(with: loaded)
    }

    /// Decides the requests against `loaded`, in order.
    func run(with loaded: [ContentRuleList]) throws -> Int32 {
        let blocker = ContentBlocker(
            lists: loaded, activeActions: ActiveActionPolicy(patternsForAllLists: activeActions), engine: engine)
        switch requests {
        case .lines(let path):
            let jobs = jobs ?? ProcessInfo.processInfo.activeProcessorCount
            let summary = try Self.runBatch(
                blocker, requestsPath: path, jobs: jobs, style: style, strict: strict, format: format)
            if let (line, message) = summary.stoppedAt {
                Console.err("content-blocker match: \(summary.unit) \(line): \(message) (--strict: stopped)")
                return 1
            }
            let report = summary.report
            for line in report { Console.err("content-blocker match: \(line)") }
            return summary.errorLines > 0 ? 1 : 0
        case .single(let fields):
            for warning in BatchMatching.warnings(for: fields) {
                Console.err("content-blocker match: warning: \(warning)")
            }
            var writer = JSONWriter()
            BatchMatching.writeResponse(
                to: fields, blocker: blocker, style: style, warningsInResult: false, into: &writer)
            writer.bytes.append(0x0A)
            Console.outBytes(writer.bytes)
        }
        return 0
    }
}
