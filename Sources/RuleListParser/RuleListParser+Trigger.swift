import ContentRuleModel

extension RuleListParser {
    /// `loadTrigger` (`ContentExtensionParser.cpp`): keys in WebKit's fixed order — url-filter,
    /// the three case-sensitivity flags, resource-type, load-type, load-context, request-method,
    /// then the six condition keys. Unknown keys are ignored.
    static func loadTrigger(_ rule: JSONObject) throws(RuleFailure) -> Trigger {
        guard let trigger = rule.object("trigger") else {
            throw RuleFailure(.jsonInvalidTrigger, "trigger")
        }
        guard let urlFilter = trigger.string("url-filter"), !urlFilter.isEmpty else {
            throw RuleFailure(.jsonInvalidURLFilterInTrigger, "trigger.url-filter")
        }
        var result = Trigger(urlFilter: urlFilter)
        if let flag = trigger.bool("url-filter-is-case-sensitive") { result.urlFilterIsCaseSensitive = flag }
        if let flag = trigger.bool("top-url-filter-is-case-sensitive") { result.topURLFilterIsCaseSensitive = flag }
        if let flag = trigger.bool("frame-url-filter-is-case-sensitive") {
            result.frameURLFilterIsCaseSensitive = flag
        }

        var resourceTypes: ResourceType = []
        try readFlags(trigger, "resource-type", valid: ResourceType.triggerNames) { name in
            guard let type = ResourceType(triggerName: name) else { return false }
            resourceTypes.formUnion(type)
            return true
        }
        result.resourceTypes = resourceTypes
        var loadTypes: LoadTypes = []
        try readFlags(trigger, "load-type", valid: LoadType.allCases.map(\.rawValue)) { name in
            guard let type = LoadType(rawValue: name) else { return false }
            loadTypes.formUnion(LoadTypes(type))
            return true
        }
        result.loadTypes = loadTypes
        var loadContexts: LoadContexts = []
        try readFlags(trigger, "load-context", valid: LoadContext.allCases.map(\.rawValue)) { name in
            guard let context = LoadContext(rawValue: name) else { return false }
            loadContexts.formUnion(LoadContexts(context))
            return true
        }
        result.loadContexts = loadContexts
        if trigger["request-method"] != nil {
            guard let name = trigger.string("request-method"),
                let method = RequestMethod(caseInsensitiveName: name)
            else {
                throw RuleFailure(.jsonInvalidRequestMethod, "trigger.request-method")
            }
            result.requestMethod = method
        }

        for kind in TriggerCondition.Kind.allCases {
            guard let value = trigger[kind.rawValue] else { continue }
            let keyPath = "trigger.\(kind.rawValue)"
            if let earlier = result.condition {
                throw RuleFailure(
                    .jsonMultipleConditions, keyPath, detail: "the trigger already has \(earlier.kind.rawValue)")
            }
            guard case .array(let elements) = value else {
                throw RuleFailure(.jsonInvalidConditionList, keyPath, detail: "not an array")
            }
            var strings: [String] = []
            strings.reserveCapacity(elements.count)
            for (position, element) in elements.enumerated() {
                guard let string = element.stringValue, !string.isEmpty else {
                    throw RuleFailure(
                        .jsonInvalidConditionList, "\(keyPath)[\(position)]", detail: "not a non-empty string")
                }
                strings.append(string)
            }
            if kind.isDomain {
                for (position, domain) in strings.enumerated() where !isLowerCaseASCII(domain) {
                    throw RuleFailure(.jsonDomainNotLowerCaseASCII, "\(keyPath)[\(position)]")
                }
            }
            if strings.isEmpty {
                throw RuleFailure(.jsonInvalidConditionList, keyPath, detail: "empty array")
            }
            result.condition = TriggerCondition(kind: kind, values: strings)
        }
        return result
    }

    /// Reads a flag array (`resource-type`, `load-type`, `load-context`) when present, handing each
    /// name to `accept` (which returns false for an unknown name). Present but not an array →
    /// `JSONInvalidTriggerFlagsArray`; an element that is not a string or not a known name →
    /// `JSONInvalidStringInTriggerFlagsArray` (WebKit `getTypeFlags`), whose detail names the value,
    /// the likely name and the `valid` ones. An empty array is accepted.
    private static func readFlags(
        _ trigger: JSONObject, _ key: String, valid: [String], _ accept: (String) -> Bool
    ) throws(RuleFailure) {
        guard let value = trigger[key] else { return }
        guard case .array(let elements) = value else {
            throw RuleFailure(.jsonInvalidTriggerFlagsArray, "trigger.\(key)", detail: "not an array")
        }
        for (position, element) in elements.enumerated() {
            guard let name = element.stringValue else {
                throw RuleFailure(
                    .jsonInvalidStringInTriggerFlagsArray, "trigger.\(key)[\(position)]", detail: "not a string")
            }
            guard accept(name) else {
                var detail = "\"\(name)\" is not a \(key) value"
                if let likely = likelyName(name, among: valid) { detail += "; did you mean \"\(likely)\"?" }
                detail += " (valid: \(valid.joined(separator: ", ")))"
                throw RuleFailure(.jsonInvalidStringInTriggerFlagsArray, "trigger.\(key)[\(position)]", detail: detail)
            }
        }
    }

    /// The name of `names` closest to `text` (case-insensitively, at most a third of its length in
    /// edits, and at most 3), or nil.
    package static func likelyName(_ text: String, among names: [String]) -> String? {
        let typed = Array(text.lowercased().utf8)
        var best: (name: String, distance: Int)?
        for name in names {
            let distance = editDistance(typed, Array(name.utf8))
            if distance <= min(3, max(1, typed.count / 3)), distance < (best?.distance ?? .max) {
                best = (name, distance)
            }
        }
        return best?.name
    }

    /// Levenshtein distance of two byte strings.
    static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, y) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }

    /// WebKit `containsOnlyASCIIWithNoUppercase`, over UTF-16 code units.
    static func isLowerCaseASCII(_ domain: String) -> Bool {
        for unit in domain.utf16 where unit >= 0x80 || (unit >= 0x41 && unit <= 0x5A) { return false }
        return true
    }
}
