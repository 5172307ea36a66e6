import Foundation

/// Reads a child process's output pipe on a thread of its own until end of file, handing each
/// chunk read to `onData`.
///
/// Used instead of `FileHandle.readabilityHandler`: on Linux that handler is a libdispatch read
/// source, and setting up and tearing down such sources from several threads at once leaves a
/// freed epoll muxnote reachable (swift-corelibs-libdispatch issue 949); it crashed the test
/// process once in CI in `_dispatch_event_loop_drain`. A blocking `read(2)` on a thread that
/// owns the handle until end of file registers nothing with libdispatch, and the descriptor is
/// closed only after the last read returned.
public enum PipeDrain {
    /// Starts draining `pipe`'s read end. Call before launching the process; end of file comes
    /// when every writer (the child and anything it started) has exited.
    public static func start(_ pipe: Pipe, name: String, onData: @escaping @Sendable (Data) -> Void) {
        let handle = pipe.fileHandleForReading
        let thread = Thread {
            // The closure holds `handle`, so its descriptor stays open until the loop ends.
            let descriptor = handle.fileDescriptor
            var buffer = [UInt8](repeating: 0, count: 16_384)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count > 0 {
                    onData(Data(buffer[0..<count]))
                } else if count < 0 && errno == EINTR {
                    continue
                } else {
                    break
                }
            }
            withExtendedLifetime(handle) {}
        }
        thread.name = "drain \(name)"
        thread.start()
    }
}
