import PriceWatchCore
@testable import PriceWatchProviders
import PriceWatchTestKit
import Testing

/// The fast reading of batch answers (``JSONRecordScanner``) holds to the general one: for
/// recorded answers, every odd value a field can take, malformed and truncated documents and
/// thousands of random mutations, the Yahoo and Binance decoders say exactly the same with the
/// scanner as without it; and the scanner does read the plain answers (so this is not two
/// runs of the general decoder).
@Suite("Scanned decoding")
struct ScannedDecodingTests {
    static let yahooSymbols = ["AAPL", "BABA", "BTC-USD", "MSFT"]
    static let binanceSymbols = ["BNBBTC", "LTCBTC", "ETHBTC"]

    static let yahooPlain = #"""
    {"quoteResponse":{"result":[{"language":"en-US","quoteType":"EQUITY","currency":"USD","priceHint":2,"regularMarketPrice":173.5,"regularMarketTime":1732000000,"regularMarketPreviousClose":170.25,"regularMarketVolume":51234567,"exchange":"NMS","exchangeTimezoneName":"America/New_York","marketState":"REGULAR","symbol":"AAPL","tags":["a",{"b":[1,2,{"c":"d\"e\\u00e9"}]}],"empty":{},"none":[]},{"symbol":"BABA","currency":"HKD","regularMarketPrice":{"raw":81.2,"fmt":"81.20"},"regularMarketTime":1732000001,"priceHint":3}],"error":null}}
    """#

    static let binancePlain = #"""
    [{"symbol":"BNBBTC","lastPrice":"4.00000200","prevClosePrice":"3.9","closeTime":1499869899040,"count":76,"x":{"y":[true,false,null]}},{"symbol":"LTCBTC","lastPrice":"0.07000000","closeTime":1656994592899}]
    """#

    static func yahoo(_ body: [UInt8], scanning: Bool, headers: [HTTPHeader] = []) -> String {
        outcome { () throws(ProviderError) in
            try YahooQuoteDecoder.decode(HTTPResponse(status: 200, headers: headers, body: body), requested: yahooSymbols, scanning: scanning)
        }
    }

    static func binance(_ body: [UInt8], scanning: Bool) -> String {
        outcome { () throws(ProviderError) in
            try BinanceDecoder.decode(HTTPResponse(status: 200, body: body), requested: binanceSymbols, scanning: scanning)
        }
    }

    static func outcome(_ decode: () throws(ProviderError) -> [String: Result<Quote, ProviderError>]) -> String {
        do {
            let answers = try decode()
            return answers.keys.sorted().map { "\($0): \(answers[$0].map { "\($0)" } ?? "-")" }.joined(separator: "\n")
        } catch {
            return "throws \(error)"
        }
    }

    static func expectSame(_ body: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let bytes = Array(body.utf8)
        #expect(yahoo(bytes, scanning: true) == yahoo(bytes, scanning: false), "yahoo: \(body)", sourceLocation: sourceLocation)
        #expect(binance(bytes, scanning: true) == binance(bytes, scanning: false), "binance: \(body)", sourceLocation: sourceLocation)
    }

    @Test("the plain answers are read by the scanner, with the general decoder's result")
    func plainAnswersAreScanned() throws {
        #expect(YahooWire.QuoteEntry.scanned(Array(Self.yahooPlain.utf8))?.count == 2)
        #expect(BinanceDecoder.Tickers.scanned(Array(Self.binancePlain.utf8))?.count == 2)
        for file in ["quote_AAPL.json", "quote_AAPL_BABA_multi.json", "quote_BTC-USD.json", "quote_NONEXIST_empty_result.json"] {
            let body = try ProviderFixtures.bytes("yahoo", file)
            #expect(YahooWire.QuoteEntry.scanned(body) != nil, "\(file) is read by the scanner")
            #expect(Self.yahoo(body, scanning: true) == Self.yahoo(body, scanning: false), "\(file)")
        }
        let tickers = try ProviderFixtures.bytes("binance", "ticker_24hr_MINI_list_docs.json")
        #expect(BinanceDecoder.Tickers.scanned(tickers)?.count == 2)
        #expect(Self.binance(tickers, scanning: true) == Self.binance(tickers, scanning: false))
        let quotes = Self.yahoo(Array(Self.yahooPlain.utf8), scanning: true)
        #expect(quotes.contains("173.5"), "\(quotes)")
        #expect(quotes.contains("81.2"), "\(quotes)")
    }

    @Test("every odd value of a wanted field is worded as the general decoder words it")
    func oddValues() {
        let values = [#""text""#, "12", "-0", "1.5e3", "null", "true", "false", "[]", "[1]", "{}", #"{"raw":2.5,"fmt":"2.50"}"#,
                      #"{"raw":"2.5"}"#, #"{"fmt":"x"}"#, #""\u00e9t\u00e9""#, #""a\"b""#, "1e400", "-1e400", "01", "1.", ".5",
                      "9007199254740993", #""é""#, #""\#(String(repeating: "x", count: 200))""#]
        for value in values {
            for field in ["symbol", "currency", "priceHint", "regularMarketPrice", "regularMarketTime", "regularMarketPreviousClose",
                          "regularMarketVolume", "exchange", "marketState", "exchangeTimezoneName"] {
                Self.expectSame(#"{"quoteResponse":{"result":[{"symbol":"MSFT","regularMarketPrice":1,"regularMarketTime":2,"\#(field)":\#(value)}]}}"#)
            }
            for field in ["symbol", "lastPrice", "prevClosePrice", "closeTime"] {
                Self.expectSame(#"[{"symbol":"ETHBTC","lastPrice":"1.5","closeTime":2,"\#(field)":\#(value)}]"#)
                Self.expectSame(#"{"symbol":"ETHBTC","lastPrice":"1.5","closeTime":2,"\#(field)":\#(value)}"#)
            }
        }
    }

    @Test("odd documents: other shapes, duplicates, escaped keys, deep nesting, bad bytes")
    func oddDocuments() {
        let deepArrays: String = #"{"quoteResponse":{"result":[{"symbol":"AAPL","regularMarketPrice":1,"regularMarketTime":2,"deep":"#
            + String(repeating: "[", count: 70) + String(repeating: "]", count: 70) + "}]}}"
        let deepObjects: String = #"{"quoteResponse":{"result":[{"symbol":"AAPL","regularMarketPrice":1,"regularMarketTime":2,"deep":"#
            + String(repeating: #"{"a":"#, count: 40) + "1" + String(repeating: "}", count: 40) + "}]}}"
        // A wanted number as Yahoo's `{"raw": …}` nested far deeper than the stack would allow.
        let deepRaw: String = #"{"quoteResponse":{"result":[{"symbol":"AAPL","regularMarketTime":2,"regularMarketPrice":"#
            + String(repeating: #"{"raw":"#, count: 100_000) + "1" + String(repeating: "}", count: 100_000) + "}]}}"
        let shallowRaw: String = #"{"quoteResponse":{"result":[{"symbol":"AAPL","regularMarketTime":2,"regularMarketPrice":{"raw":{"raw":1}}}]}}"#
        let documents: [String] = [
            deepRaw, shallowRaw, deepArrays, deepObjects, "", " ", "null", "[]", "{}", "[1]", "[null]", #"{"quoteResponse":null}"#, #"{"quoteResponse":{"result":null}}"#,
            #"{"quoteResponse":{"result":[1,{"symbol":"AAPL"}]}}"#, #"{"quoteResponse":{"result":[]},"quoteResponse":{"result":[]}}"#,
            #"{"quoteResponse":{"result":[{"symbol":"AAPL","symbol":"MSFT","regularMarketPrice":1,"regularMarketTime":2}]}}"#,
            #"{"quoteResponse":{"result":[{"symb\u006fl":"AAPL","regularMarketPrice":1,"regularMarketTime":2}]}}"#,
            #"{"quoteResponse":{"result":[{"symbol":"AAPL","regularMarketPrice":1,"regularMarketTime":2}]}} x"#,
            #"{"quoteResponse":{"result":[{"symbol":"AAPL","regularMarketPrice":1,"regularMarketTime":2,}]}}"#,
            #"{"quoteResponse":{"result":[{"symbol":"AAPL" "regularMarketPrice":1}]}}"#,
            #"{"quoteResponse":{"result":[{"symbol":"AAPL","x":"\q","regularMarketPrice":1,"regularMarketTime":2}]}}"#,
            #"{"quoteResponse":{"result":[{"symbol":"AAPL","x":"\u12","regularMarketPrice":1,"regularMarketTime":2}]}}"#,
            #"{"quoteResponse":{"result":[{"symbol":"AAPL","x":[1,,2],"regularMarketPrice":1,"regularMarketTime":2}]}}"#,
            #"{"quoteResponse":{"result":[{"symbol":"AAPL","x":{"a" 1},"regularMarketPrice":1,"regularMarketTime":2}]}}"#,
            #"{"quoteResponse":{"result":[{"symbol":"AAPL","x":{"a":1]},"regularMarketPrice":1,"regularMarketTime":2}]}}"#,
            #"{"quoteResponse":{"result":[{"symbol":"AAPL","x":tru,"regularMarketPrice":1,"regularMarketTime":2}]}}"#,
            "{\"quoteResponse\":{\"result\":[{\"symbol\":\"AAPL\",\"x\":\"\u{1}\",\"regularMarketPrice\":1,\"regularMarketTime\":2}]}}",
            "\t{\"quoteResponse\" :\r\n{ \"result\" : [ { \"symbol\" : \"AAPL\" , \"regularMarketPrice\" : 1 , \"regularMarketTime\" : 2 } ] } }\n",
            #"[{"symbol":"BNBBTC","lastPrice":"1","closeTime":2},7]"#, #"{"lastPrice":"1","closeTime":2}"#,
            #"[{"symbol":"BNBBTC","lastPrice":"1","closeTime":2}"#, #"[{"symbol":"BNBBTC","lastPrice":"1","closeTime":2}]]"#,
        ]
        for document in documents { Self.expectSame(document) }
        // Invalid UTF-8 inside a skipped string and inside a wanted one.
        for broken in [[0xC3, 0x28], [0xFF], [0xED, 0xA0, 0x80]] as [[UInt8]] {
            for template in [#"{"quoteResponse":{"result":[{"symbol":"AAPL","x":"#, #"{"quoteResponse":{"result":[{"regularMarketPrice":1,"regularMarketTime":2,"symbol":"#] {
                let body = Array(template.utf8) + [0x22] + broken + Array(#""}]}}"#.utf8)
                #expect(Self.yahoo(body, scanning: true) == Self.yahoo(body, scanning: false), "\(body)")
            }
        }
    }

    @Test("an HTML content type is refused before the body is read, by either path")
    func htmlIsNeverRead() {
        let headers = [HTTPHeader("Content-Type", "text/html; charset=utf-8")]
        let body = Array(Self.yahooPlain.utf8)
        let scanned = Self.yahoo(body, scanning: true, headers: headers)
        #expect(scanned == Self.yahoo(body, scanning: false, headers: headers))
        #expect(scanned.contains("HTML"), "\(scanned)")
    }

    @Test("every truncation and thousands of random mutations decode alike both ways")
    func truncationsAndMutations() {
        for plain in [Self.yahooPlain, Self.binancePlain] {
            let bytes = Array(plain.utf8)
            for end in 0..<bytes.count {
                let body = Array(bytes[..<end])
                #expect(Self.yahoo(body, scanning: true) == Self.yahoo(body, scanning: false), "prefix \(end) of \(plain)")
                #expect(Self.binance(body, scanning: true) == Self.binance(body, scanning: false), "prefix \(end) of \(plain)")
            }
            var generator = SeededRandom(seed: 2026)
            let alphabet = Array(#"{}[]",:\ 0123456789.-+eEtrufalsn"#.utf8) + [0x00, 0x1F, 0x80, 0xC3, 0xFF]
            for _ in 0..<3_000 {
                let body = generator.mutated(bytes, alphabet: alphabet)
                let text = String(decoding: body, as: UTF8.self)
                #expect(Self.yahoo(body, scanning: true) == Self.yahoo(body, scanning: false), "\(text)")
                #expect(Self.binance(body, scanning: true) == Self.binance(body, scanning: false), "\(text)")
            }
        }
    }
}
