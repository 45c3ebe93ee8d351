#if canImport(Glibc)
import Glibc
#endif

/// Converts between text encodings with glibc's iconv, the kept converter every Linux has
/// (it knows all the Windows, DOS, KOI8 and ISO-8859 code pages song files come in).
public enum IconvConverter {
    /// Decodes `bytes` from the iconv encoding `name`. A byte the code page leaves undefined
    /// (0x81 in CP1252 …) does not fail the whole file: it becomes the C1 control of the same
    /// value, as browsers do, and is counted in `undefinedBytes`. Nil when iconv does not know
    /// `name`.
    public static func decode(_ bytes: ArraySlice<UInt8>, from name: String) -> (text: String, undefinedBytes: Int)? {
        guard let output = convert(bytes, from: name, to: "UTF-8", replacingInvalidWith: { byte in
            // U+0080…U+009F in UTF-8: the C1 control with the byte's value.
            [0xC2, byte]
        }) else { return nil }
        return (String(decoding: output.bytes, as: UTF8.self), output.replaced)
    }

    /// Encodes `text` into the iconv encoding `name`; nil when a character has no byte there.
    public static func encode(_ text: String, to name: String) -> [UInt8]? {
        guard let output = convert(Array(text.utf8)[...], from: "UTF-8", to: name, replacingInvalidWith: nil),
              output.replaced == 0 else { return nil }
        return output.bytes
    }

    /// Runs iconv over the whole input. On an invalid input byte, `replacement` gives what to
    /// write instead (nil: stop and report failure by a replaced count of 1).
    private static func convert(_ input: ArraySlice<UInt8>, from: String, to: String,
                                replacingInvalidWith replacement: ((UInt8) -> [UInt8])?) -> (bytes: [UInt8], replaced: Int)? {
        let cd = iconv_open(to, from)
        guard cd != iconv_t(bitPattern: -1) else { return nil }
        defer { iconv_close(cd) }
        var source = Array(input)
        var result: [UInt8] = []
        result.reserveCapacity(source.count * 2)
        var replaced = 0
        var chunk = [UInt8](repeating: 0, count: 16_384)
        source.withUnsafeMutableBufferPointer { sourceBuffer in
            var inPointer: UnsafeMutablePointer<CChar>? = sourceBuffer.baseAddress.map {
                UnsafeMutableRawPointer($0).assumingMemoryBound(to: CChar.self)
            }
            var inLeft = sourceBuffer.count
            while true {
                let (status, error, produced): (Int, Int32, Int) = chunk.withUnsafeMutableBufferPointer { out in
                    var outPointer: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(out.baseAddress!).assumingMemoryBound(to: CChar.self)
                    var outLeft = out.count
                    // At the end of the input, flush any shift state (nil input).
                    let status = inLeft > 0 ? iconv(cd, &inPointer, &inLeft, &outPointer, &outLeft)
                                            : iconv(cd, nil, nil, &outPointer, &outLeft)
                    return (status, status == -1 ? errno : 0, out.count - outLeft)
                }
                result.append(contentsOf: chunk[..<produced])
                if status != -1 {
                    if inLeft == 0 { break }
                    continue
                }
                switch error {
                case E2BIG:
                    continue  // the chunk was full; go on with a fresh one
                case EILSEQ, EINVAL:
                    // Undefined or truncated sequence at the input pointer.
                    guard let replacement, inLeft > 0, let bad = inPointer else { replaced += 1; return }
                    replaced += 1
                    result.append(contentsOf: replacement(UInt8(bitPattern: bad.pointee)))
                    inPointer = bad + 1
                    inLeft -= 1
                    if inLeft == 0 { return }
                default:
                    replaced += 1
                    return
                }
            }
        }
        return (result, replaced)
    }
}
