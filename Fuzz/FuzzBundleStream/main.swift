// libFuzzer on the target FuzzBundleStream: see Fuzz/README.md. Built only with NEWSSTAND_FUZZ (`make fuzz`).
import Foundation
import FuzzChecks

@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
exit(
    runFuzzerDriver(&argc, &argv) { bytes, count in
        FuzzTarget.bundleStream.fuzz(bytes, count)
        return 0
    })
