import ContentRuleMatcher
import Foundation
import RequestBatch
import RuleListStore

/// `content-blocker store …`: WebKit's content rule list store (``ContentRuleListStore``) from the
/// command line. Each subcommand takes `--store DIR`.
enum Store {
    static let group = CommandGroup(
        name: "store",
        abstract: "Compile, look up, list and remove rule lists in a store (WKContentRuleListStore).",
        discussion: """
            A store is a directory of compiled rule lists keyed by identifier, as WebKit's
            WKContentRuleListStore keeps them: each list in one file (ContentRuleList- and the identifier),
            holding the binary rule list and the JSON it was compiled from. A list stored by another binary
            rule list version is compiled again from that JSON when it is looked up. Several processes may
            use one store at once.
            """,
        commands: [
            StoreCompileCommand.self, StoreListCommand.self, StoreMatchCommand.self, StoreExplainCommand.self,
            StoreSourceCommand.self, StoreRemoveCommand.self,
        ])

    static let storeOption = Option<String>(
        "--store", valueName: "DIR",
        help: """
            The store's directory (created by store compile when missing). Default: $XDG_DATA_HOME/content-blocker, else
            ~/.local/share/content-blocker.
            """)
    static let identifierArgument = Positional(
        valueName: "ID", noun: "identifier", help: "The list's identifier (any string).", count: .one)

    static let exitStatuses: [(status: Int32, meaning: String)] = [
        (0, "done"),
        (1, "the store refused: no list stored as ID, a damaged stored list, or (compile) an invalid rule list"),
        (2, "usage error or I/O error"),
    ]

    /// The directory `--store` names, or the default one.
    static func directory(_ arguments: ParsedArguments) throws(RuntimeError) -> String {
        guard let directory = arguments[storeOption] ?? ContentRuleListStore.defaultDirectory else {
            throw RuntimeError("no store directory: set --store, XDG_DATA_HOME or HOME")
        }
        return directory
    }

    /// The store `--store` names, or the default one, created when missing (`store compile`).
    static func open(_ arguments: ParsedArguments) throws(RuntimeError) -> ContentRuleListStore {
        let directory = try directory(arguments)
        do {
            return try ContentRuleListStore(directory: directory)
        } catch {
            throw RuntimeError(error.description)
        }
    }

    /// The store `--store` names when its directory exists, else nil: a command that only reads does
    /// not create a store (a mistyped `--store` would leave an empty directory and answer as if it
    /// were one).
    static func existing(_ arguments: ParsedArguments) throws(RuntimeError) -> ContentRuleListStore? {
        var isDirectory: ObjCBool = false
        let path = try directory(arguments)
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return nil }
        return try open(arguments)
    }

    /// For a command on stored lists when there is no store: the first identifier is not stored.
    static func noStore(_ arguments: ParsedArguments, identifier: String) -> Int32 {
        let directory = (try? directory(arguments)) ?? ""
        Console.err("content-blocker: no content rule list is stored as '\(identifier)' (no store at \(directory))")
        return 1
    }

    /// The configuration of `store NAME ID…`: `base`'s (a command on list files) with the stored
    /// lists' identifiers for arguments and `--store` first among the options.
    static func configuration(
        wrapping base: CommandConfiguration, name: String, abstract: String, lead: String,
        exitStatuses: [(status: Int32, meaning: String)]
    ) -> CommandConfiguration {
        var configuration = base
        configuration.name = name
        configuration.abstract = abstract
        configuration.discussion = lead + "\n\n" + base.discussion
        configuration.arguments = [StoreMatchCommand.identifiersArgument]
        configuration.options = [storeOption.declaration] + base.options
        configuration.exitStatuses = exitStatuses
        return configuration
    }

    /// `read` of each identifier given, in order, from the store `--store` names; nil and the exit
    /// status when the store refused one (the error printed, as ``run(_:)`` does).
    static func each<T>(
        _ arguments: ParsedArguments, _ read: (ContentRuleListStore, String) throws(ContentRuleListStoreError) -> T
    ) throws(RuntimeError) -> (values: [T]?, status: Int32) {
        guard let store = try existing(arguments) else {
            return (nil, noStore(arguments, identifier: arguments[StoreMatchCommand.identifiersArgument][0]))
        }
        var values: [T] = []
        let status = run { () throws(ContentRuleListStoreError) in
            for identifier in arguments[StoreMatchCommand.identifiersArgument] {
                values.append(try read(store, identifier))
            }
        }
        return (status == 0 ? values : nil, status)
    }

    /// Runs `body`; a store error is printed and gives exit status 1 (2 for an I/O error).
    static func run(_ body: () throws(ContentRuleListStoreError) -> Void) -> Int32 {
        do {
            try body()
            return 0
        } catch {
            Console.err("content-blocker: \(error.description)")
            if case .io = error { return 2 }
            return 1
        }
    }
}

struct StoreCompileCommand: Command {
    static let listArgument = Positional(
        valueName: "LIST.json", noun: "rule list", help: "The JSON rule list, or `-` for standard input.",
        count: .one)
    static let configuration = CommandConfiguration(
        name: "store compile", abstract: "Compile a JSON rule list and store it as ID, replacing the list there.",
        discussion: """
            An invalid list prints every error (as `check` does), exits 1 and leaves the stored list as it
            was.
            """,
        arguments: [Store.identifierArgument, listArgument],
        options: [Store.storeOption.declaration, CheckCommand.maxErrorsOption.declaration],
        exitStatuses: Store.exitStatuses)

    let arguments: ParsedArguments
    let identifier: String
    let list: String
    let maxErrors: Int?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        self.arguments = arguments
        identifier = arguments[Store.identifierArgument][0]
        list = arguments[Self.listArgument][0]
        maxErrors = arguments[CheckCommand.maxErrorsOption]?.value
    }

    func run() throws -> Int32 {
        let store = try Store.open(arguments)
        let json = try RuleListInput.read(list)
        return Store.run { () throws(ContentRuleListStoreError) in
            do throws(ContentRuleListStoreError) {
                _ = try store.compileContentRuleList(forIdentifier: identifier, json: json)
                Console.err("\(identifier): stored in \(store.directory)")
            } catch {
                if case .compileFailed(_, let diagnostics) = error {
                    RuleListInput.report(diagnostics, file: list, limit: maxErrors)
                }
                throw error
            }
        }
    }
}

struct StoreListCommand: Command {
    static let jsonFlag = Flag(
        "--json",
        help: "Print one JSON array of the identifiers instead (an identifier may hold a newline or any character).")
    static let configuration = CommandConfiguration(
        name: "store list", abstract: "Print the identifiers of the stored lists, one per line, sorted.",
        arguments: [], options: [Store.storeOption.declaration, jsonFlag.declaration],
        exitStatuses: Store.exitStatuses)

    let arguments: ParsedArguments

    init(_ arguments: ParsedArguments) throws(UsageError) { self.arguments = arguments }

    func run() throws -> Int32 {
        let store = try Store.existing(arguments)
        if store == nil {
            Console.err("content-blocker: no store at \(try Store.directory(arguments)) (nothing listed)")
        }
        return Store.run { () throws(ContentRuleListStoreError) in
            let identifiers = try store?.availableContentRuleListIdentifiers() ?? []
            guard arguments[Self.jsonFlag] else {
                for identifier in identifiers { Console.out(identifier) }
                return
            }
            var writer = JSONWriter()
            writer.strings(identifiers)
            Console.out(String(decoding: writer.bytes, as: UTF8.self))
        }
    }
}

/// A store subcommand of one identifier (`store source ID`, `store remove ID`): its declaration and run
/// follow from its name, abstract and work.
protocol StoreIdentifierCommand: Command {
    static var name: String { get }
    static var abstract: String { get }
    var arguments: ParsedArguments { get }
    init(arguments: ParsedArguments)
    /// The work on `identifier`'s list in `store`.
    static func perform(_ store: ContentRuleListStore, _ identifier: String) throws(ContentRuleListStoreError)
}

extension StoreIdentifierCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: name, abstract: abstract, arguments: [Store.identifierArgument],
            options: [Store.storeOption.declaration], exitStatuses: Store.exitStatuses)
    }

    init(_ arguments: ParsedArguments) throws(UsageError) { self.init(arguments: arguments) }

    func run() throws -> Int32 {
        let identifier = arguments[Store.identifierArgument][0]
        guard let store = try Store.existing(arguments) else { return Store.noStore(arguments, identifier: identifier) }
        return Store.run { () throws(ContentRuleListStoreError) in try Self.perform(store, identifier) }
    }
}

struct StoreSourceCommand: StoreIdentifierCommand {
    static let name = "store source"
    static let abstract = "Print the JSON rule list ID was compiled from, byte for byte."
    let arguments: ParsedArguments

    static func perform(_ store: ContentRuleListStore, _ identifier: String) throws(ContentRuleListStoreError) {
        _ = Console.outBytes(try store.contentRuleListSource(forIdentifier: identifier))
    }
}

struct StoreRemoveCommand: StoreIdentifierCommand {
    static let name = "store remove"
    static let abstract = "Remove the list stored as ID (a damaged one too)."
    let arguments: ParsedArguments

    static func perform(_ store: ContentRuleListStore, _ identifier: String) throws(ContentRuleListStoreError) {
        try store.removeContentRuleList(forIdentifier: identifier)
    }
}

/// `store match ID…`: `match` with stored lists (``MatchCommand``, the same options and output).
struct StoreMatchCommand: Command {
    static let identifiersArgument = Positional(
        valueName: "ID", noun: "identifier",
        help: "The identifiers of stored lists, in the order WebKit would have them installed.", count: .oneOrMore)
    static let configuration = Store.configuration(
        wrapping: MatchCommand.configuration, name: "store match",
        abstract: "Decide loads against stored rule lists (as `match` does).",
        lead: "`match` with the lists stored as ID… (each list's \"list\" in results is its identifier).",
        exitStatuses: [
            (0, "done (with --requests, even if some request lines were bad)"),
            (1, "no list stored as one of the IDs, or a damaged stored list"),
            (2, "usage error (including a bad --url, --type, … value) or I/O error"),
        ])

    let arguments: ParsedArguments
    let match: MatchCommand

    init(_ arguments: ParsedArguments) throws(UsageError) {
        self.arguments = arguments
        match = try MatchCommand(arguments, lists: .stored(arguments[Self.identifiersArgument]))
    }

    func run() throws -> Int32 {
        let (lists, status) = try Store.each(arguments) { store, identifier throws(ContentRuleListStoreError) in
            try store.lookUpContentRuleList(forIdentifier: identifier)
        }
        guard let lists else { return status }
        return try match.run(with: lists)
    }
}

/// `store explain ID…`: `explain` with stored lists, from the JSON each keeps (``ExplainCommand``,
/// the same options and output; rules are placed by line and column in that JSON).
struct StoreExplainCommand: Command {
    static let configuration = Store.configuration(
        wrapping: ExplainCommand.configuration, name: "store explain",
        abstract: "Show which rules of stored lists matched a load (as `explain` does).",
        lead:
            "`explain` with the lists stored as ID…, read from the JSON each keeps (`store source ID`); each list is named by its identifier.",
        exitStatuses: [
            (0, "explained"), (1, "no list stored as one of the IDs, a damaged stored list, or a bad request line"),
            (2, "usage or I/O error"),
        ])

    let arguments: ParsedArguments
    let explain: ExplainCommand

    init(_ arguments: ParsedArguments) throws(UsageError) {
        self.arguments = arguments
        explain = try ExplainCommand(arguments, lists: arguments[StoreMatchCommand.identifiersArgument])
    }

    func run() throws -> Int32 {
        let (lists, status) = try Store.each(arguments) { store, identifier throws(ContentRuleListStoreError) in
            (identifier, identifier, try store.contentRuleListSource(forIdentifier: identifier))
        }
        guard let lists else { return status }
        return try explain.run(with: lists)
    }
}
