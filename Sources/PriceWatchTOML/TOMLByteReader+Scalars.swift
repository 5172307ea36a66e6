/// Integers, floats and the four kinds of date-times.
extension TOMLByteReader {
    private static func isDigit(_ byte: UInt8?) -> Bool {
        guard let byte else { return false }
        return byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        isBareKeyByte(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".")
    }

    mutating func numberOrDateTime() throws(TOMLError) -> TOMLValue {
        if (0..<4).allSatisfy({ Self.isDigit(peek($0)) }) && peekIs("-", 4) { return try dateOrDateTime() }
        if Self.isDigit(peek()) && Self.isDigit(peek(1)) && peekIs(":", 2) { return .time(try time()) }
        let start = position()
        let from = offset
        while let byte = peek(), Self.isTokenByte(byte) { offset += 1 }
        let token = bytes[from..<offset]
        guard let value = Self.number(token) else {
            let written = String(decoding: token, as: UTF8.self)
            if written.isEmpty { throw syntaxError("error while parsing value: could not determine value type", at: start) }
            throw syntaxError("invalid number '\(written)'", at: start)
        }
        if case .integer(nil) = value {
            throw syntaxError("the integer '\(String(decoding: token, as: UTF8.self))' does not fit in 64 bits", at: start)
        }
        switch value {
        case .integer(let integer?): return .integer(integer)
        case .float(let double): return .float(TOMLFloat(value: double, literal: String(decoding: token, as: UTF8.self)))
        case .integer(nil): preconditionFailure("handled above")
        }
    }

    private enum Number {
        /// `nil` when out of range.
        case integer(Int?)
        case float(Double)
    }

    /// Reads digits (of `radix`) with single underscores between them, from `index`; returns
    /// the index after them, or `nil` when there are none or an underscore is misplaced.
    private static func digits(_ token: ArraySlice<UInt8>, from index: Int, radix: UInt8 = 10) -> Int? {
        var index = index
        var previousWasDigit = false
        let start = index
        while index < token.endIndex {
            let byte = token[index]
            if byte == UInt8(ascii: "_") {
                guard previousWasDigit else { return nil }
                previousWasDigit = false
            } else if let value = hexValue(byte), value < radix {
                previousWasDigit = true
            } else {
                break
            }
            index += 1
        }
        guard index > start, previousWasDigit else { return nil }
        return index
    }

    private static func number(_ token: ArraySlice<UInt8>) -> Number? {
        var index = token.startIndex
        guard index < token.endIndex else { return nil }
        var negative = false
        let signed = token[index] == UInt8(ascii: "+") || token[index] == UInt8(ascii: "-")
        if signed {
            negative = token[index] == UInt8(ascii: "-")
            index += 1
        }
        let rest = token[index...]
        if rest.elementsEqual("inf".utf8) { return .float(negative ? -.infinity : .infinity) }
        if rest.elementsEqual("nan".utf8) { return .float(negative ? -.nan : .nan) }

        if !signed, rest.count > 2, rest.first == UInt8(ascii: "0") {
            let radix: UInt8? = switch rest[index + 1] {
            case UInt8(ascii: "x"): 16
            case UInt8(ascii: "o"): 8
            case UInt8(ascii: "b"): 2
            default: nil
            }
            if let radix {
                guard let end = digits(token, from: index + 2, radix: radix), end == token.endIndex else { return nil }
                var value: UInt64 = 0
                for byte in token[(index + 2)..<end] where byte != UInt8(ascii: "_") {
                    guard let digit = hexValue(byte) else { return nil }
                    let (shifted, overflow) = value.multipliedReportingOverflow(by: UInt64(radix))
                    guard !overflow, shifted <= UInt64(Int64.max) - UInt64(digit) else { return .integer(nil) }
                    value = shifted + UInt64(digit)
                }
                return .integer(Int(value))
            }
        }

        guard let integerEnd = digits(token, from: index) else { return nil }
        // No leading zeros: `0` alone, or a first digit from 1 to 9.
        if token[index] == UInt8(ascii: "0"), integerEnd - index > 1 { return nil }
        var end = integerEnd
        var isFloat = false
        if end < token.endIndex, token[end] == UInt8(ascii: ".") {
            guard let fractionEnd = digits(token, from: end + 1) else { return nil }
            end = fractionEnd
            isFloat = true
        }
        if end < token.endIndex, token[end] == UInt8(ascii: "e") || token[end] == UInt8(ascii: "E") {
            var exponent = end + 1
            if exponent < token.endIndex, token[exponent] == UInt8(ascii: "+") || token[exponent] == UInt8(ascii: "-") {
                exponent += 1
            }
            guard let exponentEnd = digits(token, from: exponent) else { return nil }
            end = exponentEnd
            isFloat = true
        }
        guard end == token.endIndex else { return nil }
        if isFloat {
            // From contiguous bytes: decoding a lazy filter goes through the generic path,
            // with a runtime type check per number.
            let plain = token.contains(UInt8(ascii: "_"))
                ? String(decoding: token.filter { $0 != UInt8(ascii: "_") }, as: UTF8.self)
                : String(decoding: token, as: UTF8.self)
            guard let value = Double(plain) else { return nil }
            return .float(value)
        }
        // Decimal integers (most numbers of a configuration) straight from the digits, without
        // making a string to parse: the magnitude, then the sign; nil when out of 64 bits.
        var magnitude: UInt64 = 0
        for byte in token[index..<end] where byte != UInt8(ascii: "_") {
            let (shifted, overflow) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, carry) = shifted.addingReportingOverflow(UInt64(byte &- UInt8(ascii: "0")))
            guard !overflow, !carry else { return .integer(nil) }
            magnitude = sum
        }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { return .integer(nil) }
            return .integer(magnitude == UInt64(Int64.max) + 1 ? Int.min : -Int(magnitude))
        }
        guard magnitude <= UInt64(Int64.max) else { return .integer(nil) }
        return .integer(Int(magnitude))
    }

    // MARK: - Date-times

    /// `n` decimal digits at the cursor.
    private mutating func fixedDigits(_ count: Int, _ what: String, start: TOMLPosition) throws(TOMLError) -> Int {
        var value = 0
        for _ in 0..<count {
            guard let byte = peek(), Self.isDigit(byte) else {
                throw syntaxError("invalid \(what): expected \(count) digits, found \(found())", at: start)
            }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
            offset += 1
        }
        return value
    }

    private mutating func expect(_ separator: Unicode.Scalar, in what: String, start: TOMLPosition) throws(TOMLError) {
        guard peekIs(separator) else {
            throw syntaxError("invalid \(what): expected '\(separator)', found \(found())", at: start)
        }
        offset += 1
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// `1979-05-27`, optionally followed by a time (after `T`, `t` or a space) and an offset.
    private mutating func dateOrDateTime() throws(TOMLError) -> TOMLValue {
        let start = position()
        let year = try fixedDigits(4, "date", start: start)
        try expect("-", in: "date", start: start)
        let month = try fixedDigits(2, "date", start: start)
        try expect("-", in: "date", start: start)
        let day = try fixedDigits(2, "date", start: start)
        guard (1...12).contains(month), (1...Self.daysIn(month: month, year: year)).contains(day) else {
            throw syntaxError("invalid date: \(String(decoding: bytes[(offset - 10)..<offset], as: UTF8.self)) does not exist", at: start)
        }
        let date = TOMLDate(year: year, month: month, day: day)
        let hasTime = peekIs("T") || peekIs("t") || (peekIs(" ") && Self.isDigit(peek(1)))
        guard hasTime else { return .date(date) }
        offset += 1
        let time = try time(start: start)
        var offsetMinutes: Int?
        if peekIs("Z") || peekIs("z") {
            offset += 1
            offsetMinutes = 0
        } else if peekIs("+") || peekIs("-") {
            let sign = peekIs("-") ? -1 : 1
            offset += 1
            let hours = try fixedDigits(2, "time offset", start: start)
            try expect(":", in: "time offset", start: start)
            let minutes = try fixedDigits(2, "time offset", start: start)
            guard hours < 24, minutes < 60 else {
                throw syntaxError("invalid time offset: hours must be below 24 and minutes below 60", at: start)
            }
            offsetMinutes = sign * (hours * 60 + minutes)
        }
        return .dateTime(TOMLDateTime(date: date, time: time, offsetMinutes: offsetMinutes))
    }

    /// `07:32:00` with an optional fraction.
    private mutating func time(start: TOMLPosition? = nil) throws(TOMLError) -> TOMLTime {
        let start = start ?? position()
        let hour = try fixedDigits(2, "time", start: start)
        try expect(":", in: "time", start: start)
        let minute = try fixedDigits(2, "time", start: start)
        try expect(":", in: "time (TOML 1.0 requires seconds)", start: start)
        let second = try fixedDigits(2, "time", start: start)
        guard hour < 24, minute < 60, second <= 60 else {
            throw syntaxError("invalid time: hours must be below 24, minutes below 60 and seconds at most 60", at: start)
        }
        var nanosecond = 0
        if peekIs(".") {
            offset += 1
            guard Self.isDigit(peek()) else {
                throw syntaxError("invalid time: expected digits after '.', found \(found())", at: start)
            }
            var digits = 0
            while let byte = peek(), Self.isDigit(byte) {
                if digits < 9 { nanosecond = nanosecond * 10 + Int(byte - UInt8(ascii: "0")) }
                digits += 1
                offset += 1
            }
            for _ in digits..<max(digits, 9) { nanosecond *= 10 }
        }
        return TOMLTime(hour: hour, minute: minute, second: second, nanosecond: nanosecond)
    }
}
