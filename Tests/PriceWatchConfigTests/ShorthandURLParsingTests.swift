import PriceWatchCore
import Testing

/// `ShorthandURL`: Apprise's URLs split as Apprise writes them, where a web URL parser would
/// go wrong (a token with `:` where the host is, `#` in a Matrix room alias), and its
/// description never shows more than the scheme.
@Suite struct ShorthandURLParsingTests {
    @Test func aTelegramTokenIsTheWholeAuthority() throws {
        let url = try ShorthandURL("tgram://123456:AbC-dEf_9/-100123:7?silent=Yes&topic=8")
        #expect(url.scheme == "tgram")
        #expect(url.authority == "123456:AbC-dEf_9")
        #expect(url.host == "123456:AbC-dEf_9")
        #expect(url.user == nil)
        #expect(url.path == ["-100123:7"])
        #expect(try url.queryFlag("SILENT") == true)
        #expect(url.queryValue("topic") == "8")
    }

    @Test func userPasswordHostPortPathAndQueryAreDecoded() throws {
        let url = try ShorthandURL("MAILTOS://me%40example.com:p%40ss:w@smtp.example.com:465/a%2Fb//c?to=x%40y.z,w@v.u&from=A+B")
        #expect(url.scheme == "mailtos")
        #expect(url.user == "me@example.com")
        #expect(url.password == "p@ss:w")
        #expect(url.host == "smtp.example.com:465")
        #expect(url.hostAndPort.host == "smtp.example.com")
        #expect(url.hostAndPort.port == 465)
        #expect(url.path == ["a/b", "c"])
        #expect(url.queryValue("to") == "x@y.z,w@v.u")
        #expect(url.queryValue("from") == "A B")
    }

    @Test func aMatrixAliasIsAPathSegmentNotAFragment() throws {
        let url = try ShorthandURL("matrixs://syt_token@[::1]:8448/#prices:example.org")
        #expect(url.user == "syt_token")
        #expect(url.hostAndPort.host == "[::1]")
        #expect(url.hostAndPort.port == 8448)
        #expect(url.path == ["#prices:example.org"])
    }

    @Test func problemsAndTheDescriptionShowNoPartOfTheURL() throws {
        for text in ["tgram//SecretToken/1", "tg ram://SecretToken/1", "://SecretToken", "t_g://SecretToken/1"] {
            #expect(throws: ShorthandURL.Problem.self) { try ShorthandURL(text) }
            do {
                _ = try ShorthandURL(text)
            } catch {
                #expect(!error.message.contains("SecretToken"), "\(error.message)")
            }
        }
        let url = try ShorthandURL("pover://user@SecretToken")
        #expect("\(url)" == "pover://…")
        #expect(String(reflecting: url) == "pover://…")
        #expect(throws: ShorthandURL.Problem.self) { try ShorthandURL("tgram://t/1?silent=maybe").queryFlag("silent") }
    }
}
