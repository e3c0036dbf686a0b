/// A compression method's name for a refusal ("bzip2 (12)").
enum ZipMethodName {
    static func of(_ method: UInt16) -> String {
        let names: [UInt16: String] = [
            1: "shrink", 2: "reduce", 3: "reduce", 4: "reduce", 5: "reduce", 6: "implode", 9: "Deflate64",
            10: "PKWARE DCL implode", 12: "bzip2", 14: "LZMA", 18: "IBM TERSE", 19: "IBM LZ77", 93: "Zstandard",
            94: "MP3", 95: "xz", 96: "JPEG", 97: "WavPack", 98: "PPMd", 99: "AES encryption",
        ]
        return "\(names[method] ?? "method") (\(method))"
    }
}
