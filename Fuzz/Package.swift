// swift-tools-version:6.0
// libFuzzer targets for swift-content-blocker (hostile input, SECURITY.md). Not part of the root package:
// build and run them with `scripts/fuzz TARGET [SECONDS]`, which passes `-sanitize=fuzzer,address` to
// every module (the root package's too) so coverage reaches the code under test.
import PackageDescription

let package = Package(
    name: "content-blocker-fuzz",
    dependencies: [.package(name: "swift-content-blocker", path: "..")],
    targets: [
        // Declares LLVMFuzzerRunDriver: SwiftPM renames an executable's `main`, so libFuzzer's own `main`
        // is not used; each target's main.swift runs the driver with its check.
        .target(name: "CFuzzer"),
        .target(
            name: "FuzzSupport",
            dependencies: [
                .product(name: "ContentRuleMatcher", package: "swift-content-blocker"),
                .product(name: "ContentRuleCompiler", package: "swift-content-blocker"),
            ]),
        .executableTarget(name: "FuzzRuleListParser", dependencies: ["FuzzSupport", "CFuzzer"]),
        .executableTarget(name: "FuzzURLFilter", dependencies: ["FuzzSupport", "CFuzzer"]),
        .executableTarget(name: "FuzzMatcher", dependencies: ["FuzzSupport", "CFuzzer"]),
        .executableTarget(name: "FuzzDifferential", dependencies: ["FuzzSupport", "CFuzzer"]),
        .executableTarget(name: "FuzzBinaryLoader", dependencies: ["FuzzSupport", "CFuzzer"]),
    ]
)
