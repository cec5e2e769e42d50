// swift-tools-version:6.0
// An example tool built on swift-content-blocker's public products only (a nested package, as a tool
// author's package would depend on this one). Run: swift run --package-path Examples -c release
//   store-and-match RULES.json REQUESTS.jsonl
import PackageDescription

let package = Package(
    name: "content-blocker-examples",
    dependencies: [.package(name: "swift-content-blocker", path: "..")],
    targets: [
        .executableTarget(
            name: "store-and-match",
            dependencies: [.product(name: "RuleListStore", package: "swift-content-blocker")],
            path: "Sources/StoreAndMatch",
            swiftSettings: [.enableUpcomingFeature("MemberImportVisibility")]
        )
    ]
)
