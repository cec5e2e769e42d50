// swift-tools-version:6.0
// swift-content-blocker: WebKit content rule lists (Safari content blockers) on Linux.
// Layers, each a module, data flowing one way:
//   ContentRuleModel → RuleListParser (JSON) → URLFilterSyntax → ContentRuleCompiler
//   → ContentRuleFormat (binary rule list) → ContentRuleMatcher (what other tools link).
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "swift-content-blocker",
    products: [
        // Each product lists the modules it re-exports (`Exports.swift`): the modules its public API
        // names (a load's `WebURL`s, the model's `ResourceType` and `Action`, the compiled list), so
        // that `scripts/api-check` compares their API too.
        .library(
            name: "ContentRuleMatcher",
            targets: ["ContentRuleMatcher", "ContentRuleURL", "ContentRuleModel", "ContentRuleFormat"]),
        .library(name: "ContentRuleCompiler", targets: ["ContentRuleCompiler", "RuleListParser"]),
        .library(name: "RuleListStore", targets: ["RuleListStore"]),
        .executable(name: "content-blocker", targets: ["ContentBlockerCLI"]),
        // A shared library with a C ABI (Sources/ContentBlockerC/include/content_blocker.h), which the
        // Python package (python/) loads.
        .library(name: "ContentBlockerC", type: .dynamic, targets: ["ContentBlockerC"]),
    ],
    targets: [
        // C libraries from Debian, through pkg-config.
        .systemLibrary(name: "CPCRE2", pkgConfig: "libpcre2-8", providers: [.apt(["libpcre2-dev"])]),
        .systemLibrary(name: "CLibPSL", pkgConfig: "libpsl", providers: [.apt(["libpsl-dev"])]),
        .systemLibrary(name: "CIDN2", pkgConfig: "libidn2", providers: [.apt(["libidn2-dev"])]),
        // gzip'd request files (`match --requests`).
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),

        // Layer 1: vocabulary (rules, triggers, actions, flags, errors).
        .target(name: "ContentRuleModel", swiftSettings: strict),
        // Layer 2: JSON rule list → rules, with WebKit's validation and errors.
        .target(name: "RuleListParser", dependencies: ["ContentRuleModel", "Locking"], swiftSettings: strict),
        // Layer 3: the url-filter regular-expression subset.
        .target(name: "URLFilterSyntax", swiftSettings: strict),
        // Threads: a lock Thread Sanitizer sees (Synchronization.Mutex's is invisible to it on Linux),
        // per-thread objects, work split over threads.
        .target(name: "Locking", swiftSettings: strict),
        // POSIX reads and writes retried on EINTR.
        .target(name: "SystemCalls", swiftSettings: strict),
        // The only Swift module that touches libpcre2-8.
        .target(name: "PCRE2Support", dependencies: ["CPCRE2", "Locking"], swiftSettings: strict),
        // WHATWG URL canonicalization and registrable domains (libpsl, libidn2).
        .target(name: "ContentRuleURL", dependencies: ["CLibPSL", "CIDN2", "Locking"], swiftSettings: strict),
        // Layer 5: the binary rule list (compiled form, writer and validating reader).
        .target(name: "ContentRuleFormat", dependencies: ["ContentRuleModel", "SystemCalls"], swiftSettings: strict),
        // Layer 4: rules → compiled rule list (action slots, global stylesheet, PCRE2 patterns, search
        // plans, index keys and templates).
        .target(
            name: "ContentRuleCompiler",
            dependencies: [
                "ContentRuleModel", "RuleListParser", "URLFilterSyntax", "ContentRuleFormat", "Locking", "PCRE2Support",
            ],
            swiftSettings: strict),
        // Layer 6: the matcher. Does not depend on the JSON parser or the compiler (URLFilterSyntax only
        // to spell the pattern of a domain entry the domain hash table holds, when a request first needs it).
        .target(
            name: "ContentRuleMatcher",
            dependencies: [
                "ContentRuleModel", "ContentRuleFormat", "PCRE2Support", "ContentRuleURL", "Locking", "URLFilterSyntax",
            ],
            swiftSettings: strict),
        // Layer 7: a directory of compiled lists keyed by identifier (WKContentRuleListStore's shape).
        .target(
            name: "RuleListStore",
            dependencies: [
                "ContentRuleCompiler", "ContentRuleMatcher", "ContentRuleFormat", "ContentRuleModel", "SystemCalls",
            ],
            swiftSettings: strict),
        // Layer 7: requests of `match --requests` and the C ABI read once from their bytes (JSON Lines,
        // tsurlfilter, adblock-rust, HAR), decided, and their results written as bytes, over threads.
        .target(
            name: "RequestBatch",
            dependencies: ["ContentRuleMatcher", "ContentRuleModel", "ContentRuleURL", "RuleListParser", "Locking"],
            swiftSettings: strict),
        // Layer 7: warnings about what WebKit accepts without a word (`content-blocker lint`).
        .target(
            name: "RuleListLint",
            dependencies: ["ContentRuleCompiler", "ContentRuleFormat", "ContentRuleModel", "RuleListParser"],
            swiftSettings: strict),
        .executableTarget(
            name: "ContentBlockerCLI",
            dependencies: [
                "ContentRuleCompiler", "ContentRuleMatcher", "RuleListParser", "ContentRuleModel", "Locking",
                "SystemCalls", "RuleListStore", "CZlib", "RequestBatch", "RuleListLint",
            ],
            swiftSettings: strict),
        // The C ABI: `@_cdecl` functions; the header is the contract (excluded from the Swift sources).
        .target(
            name: "ContentBlockerC",
            dependencies: [
                "ContentRuleCompiler", "ContentRuleMatcher", "ContentRuleFormat", "ContentRuleModel", "ContentRuleURL",
                "RuleListParser", "RequestBatch",
            ],
            exclude: ["include"], swiftSettings: strict),

        // Test data locations, tiers, and rule lists compiled in memory for the test targets.
        .target(
            name: "TestSupport",
            dependencies: [
                "ContentRuleModel", "ContentRuleCompiler", "ContentRuleMatcher", "ContentRuleURL", "RequestBatch",
            ],
            path: "Tests/TestSupport", swiftSettings: strict),
        // A test target per layer: white-box tests of the format, the compiler and the matcher.
        .testTarget(
            name: "ContentRuleFormatTests",
            dependencies: [
                "ContentRuleFormat", "ContentRuleCompiler", "ContentRuleMatcher", "ContentRuleModel", "ContentRuleURL",
                "URLFilterSyntax", "TestSupport",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "ContentRuleCompilerTests",
            dependencies: [
                "ContentRuleCompiler", "ContentRuleFormat", "ContentRuleModel", "Locking", "RuleListParser",
                "TestSupport",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "ContentRuleMatcherTests",
            dependencies: [
                "ContentRuleMatcher", "ContentRuleFormat", "ContentRuleCompiler", "ContentRuleModel", "ContentRuleURL",
                "TestSupport",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "URLFilterSyntaxTests", dependencies: ["URLFilterSyntax", "PCRE2Support", "Locking", "TestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "RuleListParserTests", dependencies: ["RuleListParser", "ContentRuleModel", "TestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "ContentRuleURLTests", dependencies: ["ContentRuleURL", "TestSupport"], exclude: ["Fixtures"],
            swiftSettings: strict),
        .testTarget(
            name: "ConformanceTests",
            dependencies: [
                "ContentRuleCompiler", "ContentRuleMatcher", "ContentRuleFormat", "RuleListParser",
                "ContentRuleModel", "URLFilterSyntax", "PCRE2Support", "TestSupport",
            ],
            swiftSettings: strict),
        // Golden: the CLI's expected output, read by GoldenTests.
        .testTarget(
            name: "RuleListStoreTests",
            dependencies: [
                "RuleListStore", "ContentRuleMatcher", "ContentRuleModel", "ContentRuleURL", "Locking", "TestSupport",
            ],
            swiftSettings: strict),
        .testTarget(name: "CLITests", dependencies: ["TestSupport"], exclude: ["Golden"], swiftSettings: strict),
        .testTarget(
            name: "RuleListLintTests",
            dependencies: ["RuleListLint", "ContentRuleModel", "ContentRuleMatcher", "TestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "RequestBatchTests", dependencies: ["RequestBatch", "RuleListParser", "TestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "RobustnessTests",
            dependencies: [
                "ContentRuleCompiler", "ContentRuleFormat", "ContentRuleMatcher", "ContentRuleModel", "ContentRuleURL",
                "PCRE2Support", "RuleListParser", "URLFilterSyntax", "TestSupport",
            ],
            swiftSettings: strict),
    ]
)
