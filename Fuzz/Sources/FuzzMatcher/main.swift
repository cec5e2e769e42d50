import CFuzzer
import FuzzSupport

#if canImport(Glibc)
    import Glibc
#endif

// libFuzzer driver with `checkMatcher` (Tests/RobustnessTests/FuzzChecks) as the test function: a reported
// broken invariant traps, so libFuzzer saves the input under the artifact prefix.
prepareMatcherCheck()
var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(
    LLVMFuzzerRunDriver(&argc, &argv) { data, size in
        let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        if let failure = checkMatcher(bytes) { fatalError(failure) }
        return 0
    })
