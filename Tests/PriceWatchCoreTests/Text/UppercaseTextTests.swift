import PriceWatchCore
import Testing

/// Upper case as `uppercased()` gives it, with upper-case text returned as it is.
struct UppercaseTextTests {
    @Test(arguments: ["AAPL", "aapl", "BRK-b", "^gspc", "EURUSD=X", "btcusdt", "", "straße", "Ärger", "ünïcödé", "REGULAR", "z", "Z9"])
    func agreesWithUppercased(text: String) {
        #expect(UppercaseText.uppercased(text) == text.uppercased())
    }
}
