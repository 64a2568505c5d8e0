import Foundation

#if FUZZING
/// libFuzzer's entry point: one input for the target `RELAY_FUZZ_TARGET` names.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzEntry.target(size == 0 || data == nil ? [] : Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

/// libFuzzer's driver (in the fuzzer runtime that -sanitize=fuzzer links).
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(_ argc: UnsafeMutablePointer<CInt>,
                     _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                     _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

/// SwiftPM links an executable's entry point as `<module>_main`: hand control to libFuzzer.
@_cdecl("RelayFuzz_main")
public func relayFuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return runFuzzerDriver(&count, &arguments, fuzzOneInput)
}
#else
/// Built without `-DFUZZING` (by `swift build` with the rest of the package) this program only
/// points at the script that builds it with libFuzzer and AddressSanitizer.
@main
struct RelayFuzzMain {
    static func main() {
        print("relay-fuzz is a libFuzzer target: run ./deploy/fuzz.sh TARGET SECONDS (targets: \(FuzzTargets.all.keys.sorted().joined(separator: ", ")))")
    }
}
#endif

enum FuzzEntry {
    static let target: @Sendable ([UInt8]) -> Void = {
        let name = ProcessInfo.processInfo.environment["RELAY_FUZZ_TARGET"] ?? ""
        guard let target = FuzzTargets.all[name] else {
            FileHandle.standardError.write(Data("RELAY_FUZZ_TARGET must be one of \(FuzzTargets.all.keys.sorted().joined(separator: ", "))\n".utf8))
            exit(2)
        }
        return target
    }()
}
