/// Comparison whose duration does not depend on the contents compared.
enum ConstantTime {
    /// Whether `a` and `b` are equal, looking at every byte of the longer whatever differs
    /// (only the lengths' equality can be learnt from the time).
    static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference = UInt8(truncatingIfNeeded: a.count ^ b.count)
        difference |= a.count == b.count ? 0 : 1
        let length = max(a.count, b.count)
        for index in 0..<length {
            let x = index < a.count ? a[index] : 0
            let y = index < b.count ? b[index] : 0
            difference |= x ^ y
        }
        return difference == 0
    }
}
