import Foundation
import Testing
import PriceWatchConfig
import PriceWatchCore

/// Golden diagnostics: one configuration mistake per case, and the exact lines
/// `pricewatch check` prints for it (`docs/commands.md`, "Diagnostics").
@Suite struct GoldenDiagnosticsTests {
    static let rule = GoldenCase.rule

    static let cases: [GoldenCase] = [
        // MARK: Rule ids
        GoldenCase(name: "duplicate id across files", files: [
            "rules.d/a.toml": rule("id = \"dup\"\nsymbol = \"AAPL\"\nabove = 200"),
            "rules.d/b.toml": "# second file\n\n" + rule("id = \"dup\"\nsymbol = \"AAPL\"\nbelow = 100"),
        ], expected: [
            "$DIR/rules.d/b.toml:4:1: error: rule 'dup': duplicate id; first defined at $DIR/rules.d/a.toml:2",
        ]),
        GoldenCase(name: "bad id", files: [
            "rules.d/a.toml": rule("id = \"AAPL 200\"\nsymbol = \"AAPL\"\nabove = 200"),
        ], expected: [
            "$DIR/rules.d/a.toml:2:1: error: rule 'AAPL 200': id: expected lowercase letters, digits, '_', '.' or '-', "
                + "starting with a letter or digit ([a-z0-9][a-z0-9_.-]*), found \"AAPL 200\"",
        ]),
        GoldenCase(name: "missing id", files: [
            "rules.d/a.toml": rule("symbol = \"AAPL\"\nabove = 200"),
        ], expected: [
            "$DIR/rules.d/a.toml:1:1: error: rule #1: missing required key 'id'",
        ]),

        // MARK: Conditions
        GoldenCase(name: "two conditions", files: [
            "rules.d/a.toml": rule("id = \"x\"\nsymbol = \"AAPL\"\nabove = 200\nbelow = 100"),
        ], expected: [
            "$DIR/rules.d/a.toml:5:1: error: rule 'x': expected exactly one condition, found 'above' and 'below'",
        ]),
        GoldenCase(name: "no condition", files: [
            "rules.d/a.toml": rule("id = \"x\"\nsymbol = \"AAPL\""),
        ], expected: [
            "$DIR/rules.d/a.toml:1:1: error: rule 'x': missing a condition; expected one of "
                + "'above', 'below', 'rise', 'fall', 'move' or 'crosses'",
        ]),
        GoldenCase(name: "unknown key with a suggestion", files: [
            "rules.d/a.toml": rule("id = \"x\"\nsymbol = \"AAPL\"\nabvoe = 200"),
        ], expected: [
            // Not also "missing a condition": that is the typo's knock-on (issue 11 item 5).
            "$DIR/rules.d/a.toml:4:1: error: unknown key 'abvoe' in rule 'x'; did you mean 'above'?",
        ]),
        GoldenCase(name: "unknown key without a close match", files: [
            "rules.d/a.toml": rule("id = \"x\"\nsymbol = \"AAPL\"\nabove = 200\nwhatever = true"),
        ], expected: [
            "$DIR/rules.d/a.toml:5:1: error: unknown key 'whatever' in rule 'x' (expected one of: id, symbol, symbols, "
                + "provider, above, below, rise, fall, move, crosses, from, rearm, cooldown, once, expires, enabled, "
                + "notify, message, market, session, urgent, portfolio, measure, position, timeframe, of, trigger, event, before, match)",
        ]),
        GoldenCase(name: "wrong type for a price", files: [
            "rules.d/a.toml": rule("id = \"x\"\nsymbol = \"AAPL\"\nabove = \"200\""),
        ], expected: [
            "$DIR/rules.d/a.toml:4:1: error: rule 'x': above: expected a number, found a string; write above = 200 "
                + "(a number, without quotes)",
        ]),
        GoldenCase(name: "a percent written as a string", files: [
            "rules.d/a.toml": rule("id = \"x\"\nsymbol = \"AAPL\"\nfall = \"5%\""),
        ], expected: [
            "$DIR/rules.d/a.toml:4:1: error: rule 'x': fall: expected a number, found a string; write fall = 5 "
                + "(a number, without quotes or '%')",
        ]),
        GoldenCase(name: "a misspelt key is not also reported missing", main: """
            [providers.demo]
            tpye = "replay"
            file = "quotes.csv"

            [sinks.console]
            type = "stdout"
            """, files: [
            "rules.d/a.toml": rule("id = \"x\"\nsymbl = \"AAPL\"\nabove = 200"),
        ], expected: [
            "$DIR/pricewatch.toml:2:1: error: unknown key 'tpye' in providers.demo; did you mean 'type'?",
            "$DIR/rules.d/a.toml:3:1: error: unknown key 'symbl' in rule 'x'; did you mean 'symbol'?",
        ]),
        GoldenCase(name: "a missing key without a misspelling is still reported", files: [
            "rules.d/a.toml": rule("id = \"x\"\nabove = 200\nwhatever = 1"),
        ], expected: [
            "$DIR/rules.d/a.toml:1:1: error: rule 'x': missing required key 'symbol' or 'symbols'",
            "$DIR/rules.d/a.toml:4:1: error: unknown key 'whatever' in rule 'x' (expected one of: id, symbol, symbols, "
                + "provider, above, below, rise, fall, move, crosses, from, rearm, cooldown, once, expires, enabled, "
                + "notify, message, market, session, urgent, portfolio, measure, position, timeframe, of, trigger, event, before, match)",
        ]),
        GoldenCase(name: "a service name as a sink type", main: GoldenCase.main + """


            [sinks.phone]
            type = "ntfy"
            url = "https://ntfy.sh/my-alerts"
            """, files: [
            "rules.d/a.toml": rule("id = \"x\"\nsymbol = \"AAPL\"\nabove = 200"),
        ], expected: [
            "$DIR/pricewatch.toml:9:1: error: sinks.phone.type: unknown sink type 'ntfy'; ntfy is a format of the webhook "
                + "sink: write type = \"webhook\" and format = \"ntfy\" (known types: stdout, webhook, email, telegram, pushover, gotify, matrix, desktop, mqtt)",
        ]),
        GoldenCase(name: "an unterminated string", files: [
            "rules.d/a.toml": rule("id = \"x\"\nsymbol = \"AAPL\nabove = 200"),
        ], expected: [
            "$DIR/rules.d/a.toml:3:10: error: invalid TOML: unterminated string: the closing '\"' is missing on this line "
                + "(a \"...\" string ends on the line it starts; use \"\"\"...\"\"\" for several lines)",
        ]),
        GoldenCase(name: "negative price", files: [
            "rules.d/a.toml": rule("id = \"x\"\nsymbol = \"AAPL\"\nbelow = -5"),
        ], expected: [
            "$DIR/rules.d/a.toml:4:1: error: rule 'x': below: expected a price greater than 0, found -5",
        ]),
        GoldenCase(name: "zero price and zero percent", files: [
            "rules.d/a.toml": rule("id = \"x\"\nsymbol = \"AAPL\"\nabove = 0.0")
                + rule("id = \"y\"\nsymbol = \"AAPL\"\nrise = 0"),
        ], expected: [
            "$DIR/rules.d/a.toml:4:1: error: rule 'x': above: expected a price greater than 0, found 0",
            "$DIR/rules.d/a.toml:8:1: error: rule 'y': rise: expected a percent greater than 0, found 0",
        ]),
        GoldenCase(name: "more than 8 fractional digits", files: [
            "rules.d/a.toml": rule("id = \"x\"\nsymbol = \"AAPL\"\nabove = 1.123456789"),
        ], expected: [
            "$DIR/rules.d/a.toml:4:1: error: rule 'x': above: expected at most 8 fractional digits, found 9 in 1.123456789",
        ]),
        GoldenCase(name: "exponent in a price", files: [
            "rules.d/a.toml": rule("id = \"x\"\nsymbol = \"AAPL\"\nabove = 2e2"),
        ], expected: [
            "$DIR/rules.d/a.toml:4:1: error: rule 'x': above: expected a decimal number, found '2e2'",
        ]),
        GoldenCase(name: "from on a price rule", files: [
            "rules.d/a.toml": rule("id = \"x\"\nsymbol = \"AAPL\"\nabove = 200\nfrom = \"1h\""),
        ], expected: [
            "$DIR/rules.d/a.toml:5:1: error: rule 'x': 'from' applies only to 'rise', 'fall' and 'move', not to 'above'",
        ]),
        GoldenCase(name: "bad from", files: [
            "rules.d/a.toml": rule("id = \"x\"\nsymbol = \"AAPL\"\nrise = 2\nfrom = \"yesterday\""),
        ], expected: [
            "$DIR/rules.d/a.toml:5:1: error: rule 'x': from: expected \"previous_close\", \"open\" or a duration such as "
                + "\"30s\", \"5m\", \"1h30m\" or \"7d\", found \"yesterday\" (unknown unit 'y'; units are s, m, h, d)",
        ]),

        GoldenCase(name: "a fall of 100% or more never fires", files: [
            "rules.d/a.toml": rule("id = \"x\"\nsymbol = \"AAPL\"\nfall = 100"),
        ], expected: [
            "$DIR/rules.d/a.toml:4:1: warning: rule 'x': fall: a price cannot fall by 100%, so this rule never fires",
        ]),

        // MARK: rearm
        GoldenCase(name: "rearm with crosses", files: [
            "rules.d/a.toml": rule("id = \"x\"\nsymbol = \"AAPL\"\ncrosses = 200\nrearm = 1"),
        ], expected: [
            "$DIR/rules.d/a.toml:5:1: error: rule 'x': 'rearm' does not apply to 'crosses' (every crossing fires)",
        ]),
        GoldenCase(name: "rearm not below the percent", files: [
            "rules.d/tech.toml": rule("id = \"aapl-200\"\nsymbol = \"AAPL\"\nrise = 5\nrearm = 6"),
        ], expected: [
            "$DIR/rules.d/tech.toml:5:1: error: rule 'aapl-200': 'rearm' must be smaller than 'rise' (5), got 6",
        ]),
        GoldenCase(name: "rearm equal to the percent", files: [
            "rules.d/a.toml": rule("id = \"x\"\nsymbol = \"AAPL\"\nfall = 2.5\nrearm = 2.50"),
        ], expected: [
            "$DIR/rules.d/a.toml:5:1: error: rule 'x': 'rearm' must be smaller than 'fall' (2.5), got 2.5",
        ]),
        GoldenCase(name: "rearm of a price rule not below 100", files: [
            "rules.d/a.toml": rule("id = \"x\"\nsymbol = \"AAPL\"\nabove = 200\nrearm = 100"),
        ], expected: [
            "$DIR/rules.d/a.toml:5:1: error: rule 'x': 'rearm' must be smaller than 100 (it is a percent of the price), got 100",
        ]),
        GoldenCase(name: "negative rearm", files: [
            "rules.d/a.toml": rule("id = \"x\"\nsymbol = \"AAPL\"\nabove = 200\nrearm = -0.5"),
        ], expected: [
            "$DIR/rules.d/a.toml:5:1: error: rule 'x': rearm: expected a number of at least 0, found -0.5",
        ]),

        // MARK: Durations
        GoldenCase(name: "duration without a unit", files: [
            "rules.d/a.toml": rule("id = \"x\"\nsymbol = \"AAPL\"\nabove = 200\ncooldown = \"30\""),
        ], expected: [
            "$DIR/rules.d/a.toml:5:1: error: rule 'x': cooldown: expected a duration such as \"30s\", \"5m\", "
                + "\"1h30m\" or \"7d\", found \"30\" (the last number has no unit)",
        ]),
        GoldenCase(name: "duration with an unknown unit", files: [
            "rules.d/a.toml": rule("id = \"x\"\nsymbol = \"AAPL\"\nabove = 200\ncooldown = \"2w\""),
        ], expected: [
            "$DIR/rules.d/a.toml:5:1: error: rule 'x': cooldown: expected a duration such as \"30s\", \"5m\", "
                + "\"1h30m\" or \"7d\", found \"2w\" (unknown unit 'w'; units are s, m, h, d)",
        ]),
        GoldenCase(name: "duration with units out of order", files: [
            "rules.d/a.toml": rule("id = \"x\"\nsymbol = \"AAPL\"\nabove = 200\ncooldown = \"30m1h\""),
        ], expected: [
            "$DIR/rules.d/a.toml:5:1: error: rule 'x': cooldown: expected a duration such as \"30s\", \"5m\", "
                + "\"1h30m\" or \"7d\", found \"30m1h\" (units must go from largest to smallest, each once)",
        ]),
        GoldenCase(name: "zero and number durations in the main file", main: "interval = \"0s\"\nretention = 7\n" + GoldenCase.main, files: [
            "rules.d/a.toml": rule("id = \"x\"\nsymbol = \"AAPL\"\nabove = 200"),
        ], expected: [
            "$DIR/pricewatch.toml:1:1: error: interval: expected a duration such as \"30s\", \"5m\", \"1h30m\" or \"7d\", "
                + "found \"0s\" (must be longer than zero)",
            "$DIR/pricewatch.toml:2:1: error: retention: expected a duration such as \"30s\", \"5m\", \"1h30m\" or \"7d\", "
                + "found an integer",
        ]),

        // MARK: Symbols
        GoldenCase(name: "symbol and symbols together", files: [
            "rules.d/a.toml": rule("id = \"x\"\nsymbol = \"AAPL\"\nsymbols = [\"MSFT\"]\nabove = 200"),
        ], expected: [
            "$DIR/rules.d/a.toml:4:1: error: rule 'x': 'symbol' and 'symbols' are both given; use one of them",
        ]),
        GoldenCase(name: "no symbol", files: [
            "rules.d/a.toml": rule("id = \"x\"\nabove = 200"),
        ], expected: [
            "$DIR/rules.d/a.toml:1:1: error: rule 'x': missing required key 'symbol' or 'symbols'",
        ]),
        GoldenCase(name: "bad symbols", files: [
            "rules.d/a.toml": rule("id = \"x\"\nsymbols = [\n  \"AAPL\",\n  \"MS FT\",\n  \"AAPL\",\n  \"\",\n]\nabove = 200")
                + rule("id = \"y\"\nsymbols = []\nabove = 200"),
        ], expected: [
            "$DIR/rules.d/a.toml:5:3: error: rule 'x': symbols: expected a symbol without whitespace, found \"MS FT\"",
            "$DIR/rules.d/a.toml:6:3: error: rule 'x': symbols: symbol 'AAPL' is listed twice",
            "$DIR/rules.d/a.toml:7:3: error: rule 'x': symbols: expected a symbol such as \"AAPL\", found an empty string",
            "$DIR/rules.d/a.toml:12:1: error: rule 'y': symbols: expected at least one symbol, found an empty array",
        ]),

        // MARK: Other rule keys
        GoldenCase(name: "wrong types of booleans and arrays", files: [
            "rules.d/a.toml": rule("id = \"x\"\nsymbol = \"AAPL\"\nabove = 200\nonce = \"yes\"\nenabled = 1\nnotify = \"console\""),
        ], expected: [
            "$DIR/rules.d/a.toml:5:1: error: rule 'x': once: expected a boolean (true or false), found a string",
            "$DIR/rules.d/a.toml:6:1: error: rule 'x': enabled: expected a boolean (true or false), found an integer",
            "$DIR/rules.d/a.toml:7:1: error: rule 'x': notify: expected an array of sink names, found a string",
        ]),
        GoldenCase(name: "local date-time expires", files: [
            "rules.d/a.toml": rule("id = \"x\"\nsymbol = \"AAPL\"\nabove = 200\nexpires = 2027-06-30T09:30:00"),
        ], expected: [
            "$DIR/rules.d/a.toml:5:1: error: rule 'x': expires: expected a date-time with a UTC offset, found the local "
                + "date-time 2027-06-30T09:30:00; add 'Z' for UTC (2027-06-30T09:30:00Z) or an offset such as '-04:00'",
        ]),
        GoldenCase(name: "quoted expires", files: [
            "rules.d/a.toml": rule("id = \"x\"\nsymbol = \"AAPL\"\nabove = 200\nexpires = \"2027-06-30T00:00:00Z\""),
        ], expected: [
            "$DIR/rules.d/a.toml:5:1: error: rule 'x': expires: expected a TOML date-time such as 2027-06-30T00:00:00Z "
                + "(without quotes), found a string",
        ]),
        GoldenCase(name: "bad template placeholder", files: [
            "rules.d/a.toml": rule("id = \"x\"\nsymbol = \"AAPL\"\nabove = 200\nmessage = \"{{symbol}} at {{prise}}\""),
        ], expected: [
            "$DIR/rules.d/a.toml:5:1: error: rule 'x': message: unknown placeholder '{{prise}}'; did you mean "
                + "'{{price}}'? (known: {{rule}} {{symbol}} {{price}} {{currency}} {{condition}} {{time}} {{base}} {{change}} {{local_time}})",
        ]),
        GoldenCase(name: "unknown sink", files: [
            "rules.d/a.toml": rule("id = \"x\"\nsymbol = \"AAPL\"\nabove = 200\nnotify = [\"console\", \"consle\"]"),
        ], expected: [
            "$DIR/rules.d/a.toml:5:22: error: rule 'x': notify: unknown sink 'consle'; did you mean 'console'?",
        ]),
        GoldenCase(name: "sink listed twice", files: [
            "rules.d/a.toml": rule("id = \"x\"\nsymbol = \"AAPL\"\nabove = 200\nnotify = [\"console\", \"console\"]"),
        ], expected: [
            "$DIR/rules.d/a.toml:5:22: error: rule 'x': notify: sink 'console' is listed twice",
        ]),
        GoldenCase(name: "unknown provider", files: [
            "rules.d/a.toml": rule("id = \"x\"\nsymbol = \"AAPL\"\nprovider = \"dmeo\"\nabove = 200"),
        ], expected: [
            "$DIR/rules.d/a.toml:4:1: error: rule 'x': provider: unknown provider 'dmeo'; did you mean 'demo'?",
        ]),
        GoldenCase(name: "no provider to choose", main: GoldenCase.main + "\n[providers.other]\ntype = \"replay\"\nfile = \"quotes.csv\"\n", files: [
            "rules.d/a.toml": rule("id = \"x\"\nsymbol = \"AAPL\"\nabove = 200"),
        ], expected: [
            "$DIR/rules.d/a.toml:1:1: error: rule 'x': no provider: name one with 'provider', or set a default "
                + "'provider' in $DIR/pricewatch.toml (providers: demo, other)",
        ]),

        // MARK: Rule files
        GoldenCase(name: "TOML syntax error", files: [
            "rules.d/a.toml": rule("id = \"x\"\nsymbol = \"AAPL\"\nabove = = 200"),
        ], expected: [
            "$DIR/rules.d/a.toml:4:9: error: invalid TOML: error while parsing value: could not determine value type",
        ]),
        GoldenCase(name: "a [rule] table instead of [[rule]]", files: [
            "rules.d/a.toml": "[rule]\nid = \"x\"\nsymbol = \"AAPL\"\nabove = 200\n",
        ], expected: [
            "$DIR/rules.d/a.toml:1:1: error: rule: expected an array of tables ([[rule]]), found a table",
        ]),
        GoldenCase(name: "unknown top-level key in a rule file", files: [
            "rules.d/a.toml": "[[rules]]\nid = \"x\"\n",
        ], expected: [
            "$DIR/rules.d/a.toml:1:1: error: unknown key 'rules'; did you mean 'rule'?",
        ]),

        // MARK: Main file
        GoldenCase(name: "unknown main key", main: "intervall = \"5m\"\n" + GoldenCase.main, files: [
            "rules.d/a.toml": rule("id = \"x\"\nsymbol = \"AAPL\"\nabove = 200"),
        ], expected: [
            "$DIR/pricewatch.toml:1:1: error: unknown key 'intervall'; did you mean 'interval'?",
        ]),
        GoldenCase(name: "missing replay file", main: """
            [providers.demo]
            type = "replay"
            file = "replay/missing.csv"

            [sinks.console]
            type = "stdout"
            """, files: [
            "rules.d/a.toml": rule("id = \"x\"\nsymbol = \"AAPL\"\nabove = 200"),
        ], expected: [
            "$DIR/pricewatch.toml:3:1: error: providers.demo.file: cannot read '$DIR/replay/missing.csv': no such file",
        ]),
        GoldenCase(name: "unknown provider type", main: """
            [providers.demo]
            type = "replai"
            file = "quotes.csv"

            [sinks.console]
            type = "stdout"
            """, files: [
            "rules.d/a.toml": rule("id = \"x\"\nsymbol = \"AAPL\"\nabove = 200"),
        ], expected: [
            "$DIR/pricewatch.toml:2:1: error: providers.demo.type: unknown provider type 'replai'; did you mean "
                + "'replay'? (known types: replay, yahoo, finnhub, twelvedata, coinbase, binance, kraken, coingecko, nasdaq)",
        ]),
        GoldenCase(name: "missing provider keys", main: """
            [providers.demo]
            file = "quotes.csv"

            [providers.other]
            type = "replay"

            [sinks.console]
            type = "stdout"
            format = "xml"
            """, files: [
            "rules.d/a.toml": rule("id = \"x\"\nsymbol = \"AAPL\"\nprovider = \"demo\"\nabove = 200"),
        ], expected: [
            "$DIR/pricewatch.toml:1:1: error: providers.demo: missing required key 'type' (known types: replay, yahoo, finnhub, twelvedata, coinbase, binance, kraken, coingecko, nasdaq)",
            "$DIR/pricewatch.toml:4:1: error: providers.other: missing required key 'file' for type 'replay' "
                + "(the CSV to replay, in the backtest format)",
            "$DIR/pricewatch.toml:9:1: error: sinks.console.format: expected \"text\" or \"json\", found \"xml\"",
        ]),
        GoldenCase(name: "bad fallbacks and defaults", main: """
            provider = "dem"
            notify = ["console", "ops"]

            [providers.demo]
            type = "replay"
            file = "quotes.csv"
            fallback = ["demo", "backup"]
            base_url = "ftp://example.com"

            [sinks.console]
            type = "stdout"
            """, files: [
            "rules.d/a.toml": rule("id = \"x\"\nsymbol = \"AAPL\"\nabove = 200"),
        ], expected: [
            "$DIR/pricewatch.toml:1:1: error: provider: unknown provider 'dem'; did you mean 'demo'?",
            "$DIR/pricewatch.toml:2:22: error: notify: unknown sink 'ops' (sinks: console)",
            "$DIR/pricewatch.toml:7:13: error: providers.demo.fallback: a provider cannot fall back to itself ('demo')",
            "$DIR/pricewatch.toml:7:21: error: providers.demo.fallback: unknown provider 'backup' (providers: demo)",
            "$DIR/pricewatch.toml:8:1: error: providers.demo.base_url: expected an http:// or https:// URL, found \"ftp://example.com\"",
        ]),
        GoldenCase(name: "missing rules path", main: "rules = \"rulez\"\n" + GoldenCase.main, expected: [
            "$DIR/pricewatch.toml:1:1: error: rules: no such file or directory '$DIR/rulez'",
        ]),
        GoldenCase(name: "no providers and no sinks", main: "interval = \"1m\"\n", files: [
            "rules.d/a.toml": rule("id = \"x\"\nsymbol = \"AAPL\"\nabove = 200"),
        ], expected: [
            "$DIR/pricewatch.toml: error: no providers are defined; rules need at least one [providers.NAME] table",
            "$DIR/pricewatch.toml: error: no sinks are defined; alerts need at least one [sinks.NAME] table",
        ]),

        // MARK: Secrets
        GoldenCase(name: "unknown secret source", main: GoldenCase.main + "\n[providers.demo.api_key]\nenvv = \"KEY\"\n", files: [
            "rules.d/a.toml": rule("id = \"x\"\nsymbol = \"AAPL\"\nabove = 200"),
        ], expected: [
            "$DIR/pricewatch.toml:8:1: error: providers.demo.api_key: unknown secret source 'envv'; did you mean "
                + "'env'? (expected a secret as { file = \"PATH\" }, { credential = \"NAME\" } or { env = \"VAR\" })",
        ]),
        GoldenCase(name: "secret source in an inline table", main: """
            [providers.demo]
            type = "replay"
            file = "quotes.csv"
            api_key = { env = "DEMO_KEY", file = "key.txt" }

            [sinks.console]
            type = "stdout"
            """, files: [
            "rules.d/a.toml": rule("id = \"x\"\nsymbol = \"AAPL\"\nabove = 200"),
        ], expected: [
            "$DIR/pricewatch.toml:4:1: error: providers.demo.api_key: expected exactly one of 'file', 'credential' "
                + "or 'env', found 'env' and 'file'",
        ]),
        GoldenCase(name: "missing credential", main: """
            [providers.demo]
            type = "replay"
            file = "quotes.csv"
            api_key = { credential = "demo-key" }

            [sinks.console]
            type = "stdout"
            """, files: [
            "rules.d/a.toml": rule("id = \"x\"\nsymbol = \"AAPL\"\nabove = 200"),
            "credentials/other": "x\n",
        ], environment: ["CREDENTIALS_DIRECTORY": "$DIR/credentials"], expected: [
            "$DIR/pricewatch.toml:4:13: error: providers.demo.api_key: cannot read credential 'demo-key' "
                + "($DIR/credentials/demo-key): no such file",
        ]),
        GoldenCase(name: "credential without CREDENTIALS_DIRECTORY", main: """
            [providers.demo]
            type = "replay"
            file = "quotes.csv"
            api_key = { credential = "demo-key" }

            [sinks.console]
            type = "stdout"
            """, files: [
            "rules.d/a.toml": rule("id = \"x\"\nsymbol = \"AAPL\"\nabove = 200"),
        ], expected: [
            "$DIR/pricewatch.toml:4:13: error: providers.demo.api_key: credential 'demo-key': $CREDENTIALS_DIRECTORY "
                + "is not set (systemd sets it for a unit with LoadCredential=demo-key:PATH)",
        ]),
        GoldenCase(name: "unset environment variable and empty secret file", main: """
            [providers.demo]
            type = "replay"
            file = "quotes.csv"
            api_key = { env = "DEMO_KEY" }

            [providers.other]
            type = "replay"
            file = "quotes.csv"
            api_key = { file = "secrets/empty" }

            [sinks.console]
            type = "stdout"
            """, files: [
            "rules.d/a.toml": rule("id = \"x\"\nsymbol = \"AAPL\"\nprovider = \"demo\"\nabove = 200"),
            "secrets/empty": "\n",
        ], expected: [
            "$DIR/pricewatch.toml:4:13: error: providers.demo.api_key: environment variable 'DEMO_KEY' is not set",
            "$DIR/pricewatch.toml:9:13: error: providers.other.api_key: secret file '$DIR/secrets/empty' is empty",
        ]),
        GoldenCase(name: "finnhub without api_key, yahoo options of the wrong kind", main: """
            provider = "stocks"

            [providers.stocks]
            type = "finnhub"

            [providers.yahoo]
            type = "yahoo"
            session_url = "fc.yahoo.com"
            user_agent = ""

            [sinks.console]
            type = "stdout"
            """, files: [
            "rules.d/a.toml": rule("id = \"x\"\nsymbol = \"AAPL\"\nabove = 200"),
        ], expected: [
            "$DIR/pricewatch.toml:3:1: error: providers.stocks: missing required key 'api_key' for type 'finnhub' "
                + "(the service's API key, as a secret)",
            "$DIR/pricewatch.toml:8:1: error: providers.yahoo.session_url: expected an http:// or https:// URL, found \"fc.yahoo.com\"; add \"https://\" in front",
            "$DIR/pricewatch.toml:9:1: error: providers.yahoo.user_agent: expected a string, found an empty string",
        ]),
    ]

    @Test(arguments: cases)
    func golden(_ golden: GoldenCase) throws {
        try golden.expectDiagnostics()
    }

    @Test func atLeastTwentyFiveDistinctMistakes() {
        #expect(Self.cases.count >= 25)
        #expect(Set(Self.cases.map(\.name)).count == Self.cases.count)
    }
}
