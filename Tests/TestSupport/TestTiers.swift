import Foundation
public import Testing

/// The two tiers of the test suite. The fast tier (every test without ``Trait/slowTier``) runs in
/// about a minute in a debug build: `scripts/test`. The slow tier — corpus-scale sweeps, lists of
/// 65,536 rules, many-thread runs, subprocess kills — runs too when `CONTENT_BLOCKER_TEST_TIER=all`:
/// `scripts/test --all` (what CI runs), in a release build with testing enabled.
public enum TestTier {
    /// Whether the slow tier runs.
    public static let includesSlow = ProcessInfo.processInfo.environment["CONTENT_BLOCKER_TEST_TIER"] == "all"
}

extension Tag {
    /// Corpus-scale sweeps (real lists, thousands of requests).
    @Tag public static var corpus: Self
    /// Tests that take seconds to minutes in a debug build.
    @Tag public static var slow: Self
}

extension Trait where Self == ConditionTrait {
    /// Runs the test only in the slow tier (`scripts/test --all`); skipped with that message otherwise.
    public static var slowTier: Self {
        .enabled(if: TestTier.includesSlow, "slow tier: runs with scripts/test --all (as on CI)")
    }
}
