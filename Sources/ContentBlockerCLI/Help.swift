/// Help text rendered from the declarations (``CommandConfiguration``): OVERVIEW, the discussion,
/// USAGE, ARGUMENTS, OPTIONS, the command's own sections and EXIT STATUS, wrapped to ``width`` columns.
/// Declared texts are prose: their line breaks are reflowed, and a blank line starts a paragraph.
enum Help {
    static let tool = "content-blocker"
    /// The column prose is wrapped at.
    static let width = 100
    /// The widest label beside which a definition's text starts; a longer label has its text start on
    /// the next line.
    static let widestLabel = 28

    /// A subcommand's help. ARGUMENTS and OPTIONS share a column; each other section has its own.
    static func render(_ configuration: CommandConfiguration) -> String {
        var blocks = [wrap(configuration.abstract, prefix: "OVERVIEW: ")]
        if !configuration.discussion.isEmpty { blocks.append(wrap(configuration.discussion)) }
        blocks.append(usage(configuration))
        let arguments = configuration.arguments.map { (label: $0.valueName, text: $0.help) }
        let options = configuration.allOptions.map { (label: label($0), text: help($0)) }
        let column = column(for: arguments + options)
        if !arguments.isEmpty { blocks.append(section("ARGUMENTS", entries: arguments, column: column)) }
        blocks.append(section("OPTIONS", entries: options, column: column))
        for extra in configuration.sections {
            blocks.append(section(extra.title, paragraphs: extra.paragraphs, entries: extra.entries))
        }
        blocks.append(
            section("EXIT STATUS", entries: configuration.exitStatuses.map { (String($0.status), $0.meaning) }))
        return blocks.joined(separator: "\n\n")
    }

    /// The tool's help: its overview, options and subcommands (name and abstract of each declaration).
    static func renderTool(
        abstract: String, options: [OptionDeclaration], subcommands: [(name: String, abstract: String)]
    ) -> String {
        let options = options.map { (label: label($0), text: help($0)) }
        let subcommands = subcommands.map { (label: $0.name, text: $0.abstract) }
        let column = column(for: options + subcommands)
        return [
            wrap(abstract, prefix: "OVERVIEW: "),
            "USAGE: \(tool) SUBCOMMAND [OPTIONS]",
            section("OPTIONS", entries: options, column: column),
            section("SUBCOMMANDS", entries: subcommands, column: column),
            wrap("See '\(tool) help SUBCOMMAND' for a subcommand's arguments and options.", indent: 2),
        ].joined(separator: "\n\n")
    }

    /// A group's help (`content-blocker store --help`): its overview, discussion, usage and subcommands.
    static func renderGroup(_ group: CommandGroup) -> String {
        let subcommands = group.commands.map { type in
            (label: String(type.configuration.name.dropFirst(group.name.count + 1)), text: type.configuration.abstract)
        }
        return [
            wrap(group.abstract, prefix: "OVERVIEW: "), wrap(group.discussion),
            "USAGE: \(tool) \(group.name) SUBCOMMAND [OPTIONS]",
            section("SUBCOMMANDS", entries: subcommands, column: column(for: subcommands)),
            wrap("See '\(tool) help \(group.name) SUBCOMMAND' for a subcommand's arguments and options.", indent: 2),
        ].joined(separator: "\n\n")
    }

    /// `USAGE:` and one line per form of the command: positionals, the form's options (required ones
    /// bare, others in brackets), then the options no form names.
    static func usage(_ configuration: CommandConfiguration) -> String {
        let formOptions = Set(configuration.forms.flatMap { ($0.required + $0.optional).map(\.name) })
        let common = configuration.options.filter { !formOptions.contains($0.name) }
        let forms = configuration.forms.isEmpty ? [UsageForm()] : configuration.forms
        let positionals = configuration.arguments.map { $0.count == .one ? $0.valueName : $0.valueName + "..." }
        let command = "\(tool) \(configuration.name)"
        return forms.enumerated().map { index, form in
            var items = positionals + form.required.map { synopsis($0) }
            items += (form.optional + common).map { $0.isRequired ? synopsis($0) : "[\(synopsis($0))]" }
            let prefix = index == 0 ? "USAGE: " : "       "
            return wrapWords([command] + items, prefix: prefix, indent: prefix.count + command.count + 1)
        }.joined(separator: "\n")
    }

    /// An option as a usage line shows it: its first name and value (`-o OUT`, `--active-actions PAT ...`).
    static func synopsis(_ option: OptionDeclaration) -> String {
        var text = option.names[0]
        if let value = option.valueName { text += " " + value }
        if option.isRepeatable { text += " ..." }
        return text
    }

    /// An option as OPTIONS labels it: every name, then the value (`-o, --output OUT`).
    static func label(_ option: OptionDeclaration) -> String {
        option.names.joined(separator: ", ") + (option.valueName.map { " " + $0 } ?? "")
    }

    /// An option's help, with what the declaration says of its values: `(values: …; default: …)`,
    /// `(repeatable)`, `(required)`.
    static func help(_ option: OptionDeclaration) -> String {
        var notes: [String] = []
        if !option.allowedValues.isEmpty { notes.append("values: " + option.allowedValues.joined(separator: ", ")) }
        if let value = option.defaultValue { notes.append("default: \(value)") }
        if option.isRepeatable { notes.append("repeatable") }
        if option.isRequired { notes.append("required") }
        return notes.isEmpty ? option.help : option.help + " (" + notes.joined(separator: "; ") + ")"
    }

    /// `TITLE:`, then paragraphs indented by 2 and a blank line, then `label  text` entries whose texts
    /// start at `column` (by default, the column for these entries).
    static func section(
        _ title: String, paragraphs: String = "", entries: [(label: String, text: String)] = [], column: Int? = nil
    ) -> String {
        var lines = [title + ":"]
        if !paragraphs.isEmpty { lines.append(wrap(paragraphs, indent: 2) + (entries.isEmpty ? "" : "\n")) }
        let column = column ?? Self.column(for: entries)
        for (label, text) in entries {
            let head = "  " + label
            if head.count + 2 <= column {
                lines.append(wrap(text, prefix: padded(head, to: column), indent: column))
            } else {
                lines.append(head)
                lines.append(wrap(text, indent: column))
            }
        }
        return lines.joined(separator: "\n")
    }

    /// Where the texts of `entries` start: two columns after the longest label (at most ``widestLabel``),
    /// labels being indented by 2.
    static func column(for entries: [(label: String, text: String)]) -> Int {
        2 + min(entries.map(\.label.count).max() ?? 0, widestLabel) + 2
    }

    /// `text` wrapped at ``width``: its paragraphs (separated by blank lines) reflowed, every line
    /// indented by `indent` but the first, which starts with `prefix` (by default, the indentation);
    /// a blank line between paragraphs.
    static func wrap(_ text: String, prefix: String? = nil, indent: Int = 0) -> String {
        let indentation = String(repeating: " ", count: indent)
        let paragraphs = text.split(separator: "\n\n", omittingEmptySubsequences: true)
        return paragraphs.enumerated().map { index, paragraph in
            let words = paragraph.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
            return wrapWords(words, prefix: index == 0 ? prefix ?? indentation : indentation, indent: indent)
        }.joined(separator: "\n\n")
    }

    /// `words` separated by spaces, a line broken before a word that would pass ``width``.
    static func wrapWords(_ words: [String], prefix: String, indent: Int) -> String {
        var lines: [String] = []
        var line = prefix
        var lineHasWord = false
        for word in words {
            if lineHasWord && line.count + 1 + word.count > width {
                lines.append(line)
                line = String(repeating: " ", count: indent)
                lineHasWord = false
            }
            line += (lineHasWord ? " " : "") + word
            lineHasWord = true
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }

    /// `text` with spaces added to `length` characters.
    private static func padded(_ text: String, to length: Int) -> String {
        text.count >= length ? text : text + String(repeating: " ", count: length - text.count)
    }
}
