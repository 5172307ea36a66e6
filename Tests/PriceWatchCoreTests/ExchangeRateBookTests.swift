import PriceWatchCore
import Testing

/// Conversions from known rates: direct, inverted, triangulated through EUR or USD, the newest
/// at or before the time asked, never invented.
@Suite struct ExchangeRateBookTests {
    static func decimal(_ text: String) -> ExactDecimal { ExactDecimal(text) ?? .zero }
    static func rate(_ base: String, _ quote: String, _ value: String, at seconds: Int64, source: String = "ecb") -> ExchangeRate {
        ExchangeRate(base: base, quote: quote, rate: decimal(value), time: Timestamp(seconds: seconds), source: source)
    }

    @Test func directInvertedAndTriangulatedRatesWithTheirTimeAndSource() throws {
        var book = ExchangeRateBook([Self.rate("EUR", "USD", "1.25", at: 100), Self.rate("EUR", "GBP", "0.8", at: 200)])
        book.add(Self.rate("USD", "JPY", "150", at: 300, source: "yahoo"))
        let now = Timestamp(seconds: 1_000)
        #expect(book.convert(from: "EUR", to: "USD", at: now)?.rate == Self.decimal("1.25"))
        #expect(book.convert(from: "usd", to: "eur", at: now)?.rate == Self.decimal("0.8"), "inverted: 1 / 1.25")
        let gbpUSD = try #require(book.convert(from: "GBP", to: "USD", at: now))
        #expect(gbpUSD.rate == Self.decimal("1.5625"), "through EUR: 1.25 / 0.8")
        #expect(gbpUSD.time == Timestamp(seconds: 100), "the older leg's time")
        #expect(gbpUSD.source == "ecb")
        let eurJPY = try #require(book.convert(from: "EUR", to: "JPY", at: now))
        #expect(eurJPY.rate == Self.decimal("187.5") && eurJPY.source == "ecb + yahoo", "through USD")
        #expect(book.convert(from: "EUR", to: "EUR", at: now)?.rate == Self.decimal("1"))
        #expect(book.convert(from: "EUR", to: "CHF", at: now) == nil, "never invented")
    }

    @Test func theNewestRateAtOrBeforeTheTimeAsked() {
        let book = ExchangeRateBook([Self.rate("EUR", "USD", "1.1", at: 100), Self.rate("EUR", "USD", "1.2", at: 200),
                                     Self.rate("USD", "EUR", "0.5", at: 300)])
        #expect(book.convert(from: "EUR", to: "USD", at: Timestamp(seconds: 50)) == nil)
        #expect(book.convert(from: "EUR", to: "USD", at: Timestamp(seconds: 150))?.rate == Self.decimal("1.1"))
        #expect(book.convert(from: "EUR", to: "USD", at: Timestamp(seconds: 250))?.rate == Self.decimal("1.2"))
        #expect(book.convert(from: "EUR", to: "USD", at: Timestamp(seconds: 350))?.rate == Self.decimal("2"), "a newer inverse wins")
    }
}
