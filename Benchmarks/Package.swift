// swift-tools-version:6.0
// Benchmarks for swift-content-blocker: a nested package, so the root package stays free of
// benchmark-only code. Build: swift build -c release --package-path Benchmarks --scratch-path /tmp/build-bench
// Run everything (peers included): Benchmarks/run [--quick]
import PackageDescription

let package = Package(
    name: "content-blocker-benchmarks",
    dependencies: [.package(name: "swift-content-blocker", path: "..")],
    targets: [
        .target(name: "CCallgrind"),
        .executableTarget(
            name: "content-blocker-bench",
            dependencies: [
                .product(name: "ContentRuleMatcher", package: "swift-content-blocker"),
                .product(name: "ContentRuleCompiler", package: "swift-content-blocker"),
                "CCallgrind",
            ],
            swiftSettings: [.enableUpcomingFeature("MemberImportVisibility")]
        ),
    ]
)
