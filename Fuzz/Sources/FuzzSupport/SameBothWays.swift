import PriceWatchCore

/// Stops the fuzzer (a finding) when a decoder's fast reading of an answer (`scanning: true`)
/// says anything other than its general reading: the scanner may only ever give up, never differ.
public func expectSameBothWays(_ name: String,
                               _ decode: (Bool) throws(ProviderError) -> [String: Result<Quote, ProviderError>]) {
    func outcome(_ scanning: Bool) -> String {
        do {
            let answers = try decode(scanning)
            return answers.keys.sorted().map { "\($0): \(answers[$0].map { "\($0)" } ?? "-")" }.joined(separator: "\n")
        } catch {
            return "throws \(error)"
        }
    }
    let scanned = outcome(true)
    let general = outcome(false)
    if scanned != general {
        fatalError("\(name): the scanned reading differs from the general one:\n\(scanned)\n---\n\(general)")
    }
}
