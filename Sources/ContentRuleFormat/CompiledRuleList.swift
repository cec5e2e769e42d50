package import ContentRuleModel

/// A url-filter or condition pattern after compilation.
///
/// `pcre2Pattern == nil` means the pattern matches every URL (WebKit's `MatchesEverything`, spec §3.5).
package struct CompiledPattern: Sendable, Hashable {
    /// The pattern as written in the rule list (for a domain condition, the domain).
    package var source: String
    /// PCRE2 source with WebKit's semantics (see URLFilterSyntax), or `nil` for "matches everything".
    package var pcre2Pattern: String?
    package var caseSensitive: Bool
    /// When the whole pattern is a literal: the literal (lower-cased unless case-sensitive) and its
    /// anchors. The matcher then needs no PCRE2 call.
    package var literal: LiteralPattern?
    /// The literal the matcher checks first and the literal index files the rule under: one every URL
    /// the pattern matches contains (or, for a host-anchored pattern, holds after the host anchor),
    /// lower-cased ASCII, chosen by the compiler; `nil` when there is none.
    package var requiredLiteral: String?
    /// The pattern begins with WebKit's host anchor `^[htpsw]+://([a-z0-9-]+\.)?` and then spells
    /// ``requiredLiteral`` (`URLFilterParseResult.hostAnchorHead` begins with it): every URL it
    /// matches holds that literal just after `://` or just after the first label and its dot. The
    /// compiler decides it, and files such a rule in the host index (``IndexKey/host(_:)``) unless the
    /// host index cannot hold the list.
    package var hostAnchored: Bool
    /// How the matcher searches ``pcre2Pattern`` (``RegexSearchPlan``); `nil` when it matches everything.
    package var searchPlan: RegexSearchPlan?
    /// Where the scaffolding ends and begins in ``pcre2Pattern`` (``ScaffoldCut``); `nil` when it has
    /// no run of three letters or digits, or is not a regex pattern.
    package var scaffold: ScaffoldCut?

    package init(
        source: String, pcre2Pattern: String?, caseSensitive: Bool, literal: LiteralPattern? = nil,
        requiredLiteral: String? = nil, hostAnchored: Bool = false, searchPlan: RegexSearchPlan? = nil,
        scaffold: ScaffoldCut? = nil
    ) {
        self.searchPlan = searchPlan
        self.scaffold = scaffold
        self.source = source
        self.pcre2Pattern = pcre2Pattern
        self.caseSensitive = caseSensitive
        self.literal = literal
        self.requiredLiteral = requiredLiteral
        self.hostAnchored = hostAnchored
    }

    package var matchesEverything: Bool { pcre2Pattern == nil }
}

/// How the matcher searches one PCRE2 pattern: the checks it makes before PCRE2 runs and the spelling
/// and limits PCRE2 runs with. The compiler makes it from the url-filter's search facts
/// (`URLFilterSyntax.URLFilterSearchFacts`, read from the url-filter's terms); the binary rule list
/// stores it (SRCH section) and the matcher reads it, so no layer reads the PCRE2 text to find it.
package struct RegexSearchPlan: Sendable, Hashable {
    /// The spelling to search subjects of bytes 1–127 with (canonical URLs), or `nil` when it is the
    /// pattern's own text.
    package var asciiSubjectPattern: String?
    /// ``mandatory``, ``suffix`` and ``byteDemand`` are lower-cased and are compared with the
    /// lower-cased URL.
    package var caseless: Bool
    /// At most two literals (2–255 bytes each) every match contains besides the pattern's required
    /// literal, longest first: a URL without one of them is not searched.
    package var mandatory: [[UInt8]]
    /// At most 255 bytes every match ends the URL with (often none).
    package var suffix: [UInt8]
    /// Bytes (ASCII lower-cased, ascending) the lower-cased URL must hold at least `count` (1–255) times.
    package var byteDemand: [ByteDemand]
    /// The pattern repeats a group (`(?:…)*`, `(?:…)+`): its backtracking searches get
    /// `PCRE2Regex.repeatedGroupMatchLimit` before the DFA algorithm takes over.
    package var repeatsAGroup: Bool
    /// Where the scaffolding ends and begins in ``asciiSubjectPattern`` (``ScaffoldCut``).
    package var asciiSubjectScaffold: ScaffoldCut?

    /// A byte and how many times a URL must hold it (in the lower-cased URL).
    package struct ByteDemand: Sendable, Hashable {
        package var byte: UInt8
        package var count: UInt8

        package init(byte: UInt8, count: UInt8) {
            self.byte = byte
            self.count = count
        }
    }

    /// The longest literal, suffix and list the format stores (one-byte lengths and counts).
    package static let maximumLength = 255

    package init(
        asciiSubjectPattern: String?, caseless: Bool, mandatory: [[UInt8]], suffix: [UInt8],
        byteDemand: [ByteDemand], repeatsAGroup: Bool, asciiSubjectScaffold: ScaffoldCut? = nil
    ) {
        self.asciiSubjectScaffold = asciiSubjectScaffold
        self.asciiSubjectPattern = asciiSubjectPattern
        self.caseless = caseless
        self.mandatory = mandatory
        self.suffix = suffix
        self.byteDemand = byteDemand
        self.repeatsAGroup = repeatsAGroup
    }
}

/// Where the translator's scaffolding ends and begins in a PCRE2 text (`URLFilterSyntax.ScaffoldCuts`):
/// the text before `prefixEnd` and the text from `suffixStart` on (byte offsets, `prefixEnd` ≤
/// `suffixStart` ≤ the text's length) are stored once per list as templates when the compiler chose
/// them (``TextTemplates``).
package struct ScaffoldCut: Sendable, Hashable {
    package var prefixEnd: Int
    package var suffixStart: Int

    package init(prefixEnd: Int, suffixStart: Int) {
        self.prefixEnd = prefixEnd
        self.suffixStart = suffixStart
    }
}

/// The beginnings and endings of PCRE2 texts (``ScaffoldCut``) that the binary rule list stores once
/// (TMPL section), chosen per list by the compiler: a text whose scaffolding before its cut is one of
/// ``prefixes`` stores only the rest, likewise for ``suffixes``.
package struct TextTemplates: Sendable, Hashable {
    /// Prefix templates, most used first (TMPL ids from 0).
    package var prefixes: [[UInt8]]
    /// Suffix templates, most used first (TMPL ids after the prefixes).
    package var suffixes: [[UInt8]]
    /// The most templates a list can have (12-bit TMPL ids, one value meaning none).
    package static let maximumCount = 0xFFE

    package init(prefixes: [[UInt8]] = [], suffixes: [[UInt8]] = []) {
        self.prefixes = prefixes
        self.suffixes = suffixes
    }
}

/// How the fast matcher reaches a rule (the RULE record's entry field).
package enum RuleEntry: UInt8, Sendable, Hashable {
    /// Filed in the literal index under a 4-byte gram of its required literal, or, for a host-anchored
    /// pattern, in the host index under the beginning of that literal. Needs a required literal of at
    /// least 4 bytes without a NUL.
    case literal = 0
    /// Reached through its `if-domain` entries (no usable literal).
    case domain = 1
    /// Checked on every request.
    case always = 2
    /// The url-filter matches every URL: decided once per top URL and flag combination.
    case universal = 3
}

/// Where an index files a rule reached through its literal (``RuleEntry/literal``), chosen by the
/// compiler: the format lays the keys out in its hash tables, the matcher looks them up.
package enum IndexKey: Sendable, Hashable {
    /// The literal index (LGRM): a 4-byte gram of the rule's required literal (its bytes as a
    /// little-endian `u32`, never 0) and the neighbour code the matcher checks where the gram occurs
    /// once in a URL (`IndexHash.neighbourAllows`): `IndexHash.neighbourAfter` | the low 6 bits of
    /// the byte after the gram in the literal, or the low 6 bits of the byte before it, or 0 for no check.
    case gram(UInt32, neighbourCode: UInt8)
    /// The host index (HGRM): the `IndexHash.hostKey` hash of the longest prefix of the required
    /// literal in `IndexHash.hostKeyLengths`; for a host-anchored pattern (``CompiledPattern/hostAnchored``).
    case host(UInt64)
}

/// A pattern that is a plain string, possibly anchored at the start (`^`) or end (`$`) of the URL.
package struct LiteralPattern: Sendable, Hashable {
    package var text: String
    package var anchoredAtStart: Bool
    package var anchoredAtEnd: Bool
    package init(text: String, anchoredAtStart: Bool, anchoredAtEnd: Bool) {
        self.text = text
        self.anchoredAtStart = anchoredAtStart
        self.anchoredAtEnd = anchoredAtEnd
    }
}

/// A rule's condition after compilation: its kind and one compiled pattern per value.
package struct CompiledCondition: Sendable, Hashable {
    package var kind: TriggerCondition.Kind
    package var patterns: [CompiledPattern]
    package init(kind: TriggerCondition.Kind, patterns: [CompiledPattern]) {
        self.kind = kind
        self.patterns = patterns
    }
}

/// One rule of a compiled rule list: what must hold for it to fire, and the action slot it fires.
package struct CompiledRule: Sendable, Hashable {
    /// Index of the rule in the source JSON array.
    package var sourceIndex: UInt32
    package var urlFilter: CompiledPattern
    /// Empty means every resource type (likewise for load types and load contexts).
    package var resourceTypes: ResourceType
    package var loadTypes: LoadTypes
    package var loadContexts: LoadContexts
    package var requestMethod: RequestMethod?
    package var condition: CompiledCondition?
    /// Index into ``CompiledRuleList/actionSlots``.
    package var actionSlot: UInt32
    /// How the fast matcher reaches the rule, decided by the compiler.
    package var entry: RuleEntry
    /// Where the literal or host index files the rule; set for a ``RuleEntry/literal`` entry, `nil`
    /// otherwise (a literal entry without a key is stored as ``RuleEntry/always``).
    package var indexKey: IndexKey?

    package init(
        sourceIndex: UInt32, urlFilter: CompiledPattern, resourceTypes: ResourceType, loadTypes: LoadTypes,
        loadContexts: LoadContexts, requestMethod: RequestMethod?, condition: CompiledCondition?, actionSlot: UInt32,
        entry: RuleEntry, indexKey: IndexKey? = nil
    ) {
        self.entry = entry
        self.indexKey = indexKey
        self.sourceIndex = sourceIndex
        self.urlFilter = urlFilter
        self.resourceTypes = resourceTypes
        self.loadTypes = loadTypes
        self.loadContexts = loadContexts
        self.requestMethod = requestMethod
        self.condition = condition
        self.actionSlot = actionSlot
    }
}

/// A compiled content rule list: the rules that can fire per request, their action slots in
/// WebKit's order, and the list's global display-none stylesheet.
///
/// This is what the binary rule list stores (``BinaryRuleList/encode(_:)``) and what the matcher runs
/// (`ContentRuleList(identifier:compiled:)`). Its rules, patterns and index keys belong to the
/// package and are not public API: a tool reads the counts and the global stylesheet. Action slots mirror
/// WebKit's action locations (`serializeActions` in `ContentExtensionCompiler.cpp`, spec §4.8):
/// slot order is rule order, rules that WebKit merges share a slot, and `css-display-none` rules with
/// identical triggers share one slot whose selector joins theirs with `,`.
public struct CompiledRuleList: Sendable, Hashable {
    /// Rules in source order; universal css-display-none rules that went to the global stylesheet are not here.
    package var rules: [CompiledRule]
    /// Actions by slot index, including `ignore-previous-rules` and `ignore-following-rules` slots.
    package var actionSlots: [Action]
    /// Selectors of the global display-none stylesheet, joined with `,` (spec §4.9), or `nil` when the list has none.
    public package(set) var globalStylesheet: String?
    /// Number of elements of the source JSON array.
    public package(set) var sourceRuleCount: Int
    /// The PCRE2 texts' shared beginnings and endings, stored once (none: every text whole).
    package var templates: TextTemplates

    package init(
        rules: [CompiledRule], actionSlots: [Action], globalStylesheet: String?, sourceRuleCount: Int,
        templates: TextTemplates = TextTemplates()
    ) {
        self.templates = templates
        self.rules = rules
        self.actionSlots = actionSlots
        self.globalStylesheet = globalStylesheet
        self.sourceRuleCount = sourceRuleCount
    }

    /// Number of rules that can fire per request (universal css-display-none rules that went to the
    /// global stylesheet, and rules that can never fire, are not counted); ``MappedRuleList/ruleCount``
    /// of the stored list.
    public var ruleCount: Int { rules.count }
    /// Number of action slots (rules that WebKit merges share one); ``MappedRuleList/actionSlotCount``
    /// of the stored list.
    public var actionSlotCount: Int { actionSlots.count }
}
