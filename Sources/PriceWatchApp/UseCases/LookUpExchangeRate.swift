import PriceWatchCore
import PriceWatchCurl
import PriceWatchProviders

/// `pricewatch fx FROM TO`: the reference rate between two currencies, fetched now from the
/// ECB or Frankfurter, directly or triangulated through EUR (docs/currencies.md).
public enum LookUpExchangeRate {
    /// Where reference rates are fetched from: the ECB's daily file, or Frankfurter's JSON.
    public enum Reference: String, Sendable, CaseIterable {
        case ecb, frankfurter

        var source: ReferenceRates.Source { self == .ecb ? .ecb : .frankfurter }
    }

    /// A rate older than this (the newest reference rates are a business day old at most; a
    /// long weekend makes four days) is marked stale.
    public static let staleAfterMilliseconds: Int64 = 4 * 86_400_000

    /// What the lookup found.
    public enum Outcome: Sendable {
        /// The rate, and whether it is older than ``staleAfterMilliseconds`` at `now`.
        case found(ExchangeRate, stale: Bool)
        /// The source answered, but no rate between the two currencies can be made from it.
        case unknownPair(known: [String])
        /// The source could not be read: why.
        case failed(String)
    }

    /// The reference rates of `source` now, as a book to convert with (the paper leaderboard's
    /// `--rates`); the failure's message names the source.
    public static func book(source: Reference, url: String? = nil) async -> Result<ExchangeRateBook, Failure> {
        do {
            return .success(ExchangeRateBook(try await ReferenceRates.fetch(source.source, url: url, transport: CurlHTTPTransport())))
        } catch {
            return .failure(Failure(description: error.description))
        }
    }

    /// Why the rates could not be fetched: names the source.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    public static func run(from: String, to: String, source: Reference, url: String?, now: Timestamp) async -> Outcome {
        let rates: [ExchangeRate]
        do {
            rates = try await ReferenceRates.fetch(source.source, url: url, transport: CurlHTTPTransport())
        } catch {
            return .failed(error.description)
        }
        let book = ExchangeRateBook(rates)
        guard let rate = book.convert(from: from, to: to, at: now) else {
            return .unknownPair(known: Array(Set(rates.flatMap { [$0.base, $0.quote] })).sorted())
        }
        return .found(rate, stale: now.milliseconds - rate.time.milliseconds > staleAfterMilliseconds)
    }
}
