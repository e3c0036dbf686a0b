/// Bytes as text only when they are valid UTF-8. `String(validating:as:)` does this from
/// iOS 18 / macOS 15 on, above the reader's platforms; decoding (which replaces every invalid
/// sequence with U+FFFD) and comparing the result's bytes with the input is the same test on
/// every platform.
public enum UTF8Text {
    /// The text `bytes` spell, or nil when they are not valid UTF-8.
    public static func decode<Bytes: Collection>(_ bytes: Bytes) -> String? where Bytes.Element == UInt8 {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.utf8.elementsEqual(bytes) ? text : nil
    }
}
