import FuzzSupport
import PriceWatchCore

/// The body of `POST /api/silences` (`SilenceRequest`, linked from PriceWatchHTTP: the
/// endpoint itself needs Hummingbird). Never a crash, whatever the bytes; and what is accepted is
/// what the daemon may store and print: no control character in the target or the comment, no
/// member given twice, a comment within its bound; a refusal is one line.
@main
enum FuzzSilencesTarget {
    static func main() {
        runFuzzer { data, size in
            guard let data else { return 0 }
            return fuzzSilences(data, size)
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSilences(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = FuzzInput(data, size).bytes
    guard bytes.count <= SilenceRequest.maximumBodyBytes else { return 0 }
    do {
        let request = try SilenceRequest(body: bytes, now: FuzzInput.now)
        let target: String
        switch request.target {
        case .rule(let id): target = id
        case .symbol(let symbol): target = symbol
        }
        if target.isEmpty || ControlCharacters.contains(target) || ControlCharacters.contains(request.comment) {
            fatalError("accepted a control character or an empty target: \(ControlCharacters.quoted(target))")
        }
        if request.comment.count > SilenceRequest.maximumCommentLength { fatalError("accepted a comment of \(request.comment.count) characters") }
        if let repeated = SilenceRequest.repeatedMember(in: bytes) { fatalError("accepted the member \(repeated) twice") }
        if request.endsAt <= FuzzInput.now { fatalError("accepted a silence that has already ended") }
    } catch {
        if ControlCharacters.contains(error.description) { fatalError("a refusal with a raw control character: \(ControlCharacters.quoted(error.description))") }
    }
    return 0
}
