/// Wraps bytes in a valid gzip stream made of stored (uncompressed) deflate blocks.
///
/// The test server only needs to exercise the client's `Content-Encoding: gzip` decoding, not
/// to compress, so this avoids linking zlib into the test kit: any inflater (libcurl's zlib)
/// must accept stored blocks, and the CRC-32 trailer is checked by it.
enum LoopbackGzip {
    static func encode(_ data: [UInt8]) -> [UInt8] {
        // RFC 1952 header: magic, CM=deflate, no flags, no mtime, no extra flags, OS=unknown.
        var out: [UInt8] = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255]
        var offset = 0
        repeat {
            let length = min(65_535, data.count - offset)
            let isFinal = offset + length == data.count
            // RFC 1951 stored block: BFINAL bit, BTYPE=00, then LEN and its one's complement.
            out.append(isFinal ? 1 : 0)
            let len = UInt16(length)
            out += [UInt8(len & 0xff), UInt8(len >> 8), UInt8(~len & 0xff), UInt8(~len >> 8)]
            out += data[offset..<offset + length]
            offset += length
        } while offset < data.count
        out += littleEndian(crc32(data))
        out += littleEndian(UInt32(truncatingIfNeeded: data.count))
        return out
    }

    private static func littleEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value & 0xff), UInt8(value >> 8 & 0xff), UInt8(value >> 16 & 0xff), UInt8(value >> 24)]
    }

    private static func crc32(_ data: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xffff_ffff
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xedb8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
