import Foundation
import PriceWatchCore

/// The demo's recorded session (`demo/data/aapl-1m-2024-10-02.csv`: AAPL on 2024-10-02, one
/// price a minute) as quotes, for seeding a state database the way the daemon would have.
public enum DemoSession {
    public struct MalformedRow: Error, CustomStringConvertible {
        public let description: String
    }

    /// Every row of the file as a quote, in file order.
    public static func quotes() throws -> [Quote] {
        let text = try String(contentsOfFile: RepositoryFiles.path("demo/data/aapl-1m-2024-10-02.csv"), encoding: .utf8)
        return try text.split(whereSeparator: \.isNewline).dropFirst().map { line in
            let fields = line.split(separator: ",").map(String.init)
            guard fields.count >= 5, let price = ExactDecimal(fields[2]), let time = Timestamp(parsing: fields[1]) else {
                throw MalformedRow(description: "demo data: expected symbol,time,price,previous_close,currency, found \(line)")
            }
            return Quote(symbol: "AAPL", price: price, time: time, previousClose: ExactDecimal(fields[3]), currency: fields[4])
        }
    }
}
