import Logging
import PriceWatchCore

/// The rule evaluator is a consumer of the quote stream: each poll is evaluated and committed;
/// its receipt names the symbols whose quotes it accepted (fresh data for data health).
extension RuleEvaluator: QuoteConsumer {
    public func receive(_ poll: PolledQuotes) async -> QuoteReceipt {
        do {
            let report = try await ingest(poll)
            return QuoteReceipt(acceptedSymbols: report.acceptedSymbols)
        } catch let kept as PollKeptForLater where kept.interrupted {
            logger.info("\(kept)", metadata: ["provider": "\(poll.provider)"])
            return .none
        } catch {
            logger.error("evaluation failed: \(error)", metadata: ["provider": "\(poll.provider)"])
            return .none
        }
    }
}
