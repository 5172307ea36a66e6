import Foundation
import PriceWatchCore

/// One fuzzer input, and the forms the targets feed it in.
public struct FuzzInput {
    public let bytes: [UInt8]

    public init(_ data: UnsafePointer<UInt8>, _ size: Int) {
        bytes = Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// The input as the body of an answer with `status` (decoders read success and error
    /// answers differently).
    public func response(status: Int) -> HTTPResponse {
        HTTPResponse(status: status, headers: [HTTPHeader("Content-Type", "application/json")], body: bytes)
    }

    /// The statuses every provider target tries each input with.
    public static let statuses = [200, 400, 401, 404, 429, 500]

    /// A fixed time for decoders that need "now".
    public static let now = Timestamp(seconds: 1_727_875_800)
}

/// A directory of this fuzzing process's own, for targets that read files.
public let fuzzDirectory: String = {
    let path = NSTemporaryDirectory() + "pricewatch-fuzz-\(getpid())"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}()

/// libFuzzer's driver (compiler-rt), which `main` calls with the target's input function.
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ target: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// Runs libFuzzer with this process's arguments on `target` and exits with its status.
/// (SwiftPM names an executable's entry point itself, so a target has a `@main` that calls
/// this rather than relying on libFuzzer's own `main`.)
public func runFuzzer(_ target: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> Never {
    var argc = CommandLine.argc
    var argv = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, target))
}
