import CFuzzDriver
import Foundation

/// Runs libFuzzer on `target` with the process's arguments (`-max_total_time=`, corpus folders,
/// or crash files to replay) and exits with its status.
public func runLibFuzzer(_ target: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> Never {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, target))
}
