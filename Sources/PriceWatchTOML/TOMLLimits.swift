/// Bounds the parser enforces so that no document, however hostile, costs more than time
/// linear in its size or more stack than a fixed depth.
///
/// Each limit, when exceeded, is a `TOMLError` at the place where it was exceeded. The
/// defaults are far above what a hand-written configuration needs.
public struct TOMLLimits: Sendable, Hashable {
    /// The largest document, in bytes (UTF-8).
    public var maximumDocumentBytes: Int
    /// How deeply arrays and inline tables may nest inside one value (`[[[1]]]` is 3).
    public var maximumNestingDepth: Int
    /// The most parts one dotted key or table header may have (`a.b.c` has 3).
    public var maximumKeyParts: Int
    /// The longest key part, in bytes (UTF-8) after escapes are decoded.
    public var maximumKeyBytes: Int
    /// The most syntax errors reported for one document: the first, and those found after
    /// resynchronising at a later table header (`TOMLParseResult.laterErrors`).
    public var maximumErrors: Int

    public init(maximumDocumentBytes: Int = 1 << 20, maximumNestingDepth: Int = 32,
                maximumKeyParts: Int = 32, maximumKeyBytes: Int = 256, maximumErrors: Int = 50) {
        self.maximumDocumentBytes = maximumDocumentBytes
        self.maximumNestingDepth = maximumNestingDepth
        self.maximumKeyParts = maximumKeyParts
        self.maximumKeyBytes = maximumKeyBytes
        self.maximumErrors = maximumErrors
    }

    /// 1 MiB documents, 32 levels of nesting, 32 key parts, 256-byte keys, 50 errors.
    public static let `default` = TOMLLimits()
}
