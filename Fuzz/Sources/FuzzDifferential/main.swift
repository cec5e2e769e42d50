import CFuzzer
import FuzzSupport

#if canImport(Glibc)
    import Glibc
#endif

// libFuzzer driver with `checkDifferential` (Tests/RobustnessTests/FuzzChecks) as the test function: a reported
// broken invariant traps, so libFuzzer saves the input under the artifact prefix.
prepareDifferentialCheck()
var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(
    LLVMFuzzerRunDriver(&argc, &argv) { data, size in
        let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        if let failure = checkDifferential(bytes) { fatalError(failure) }
        return 0
    })
