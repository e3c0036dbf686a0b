import Foundation

/// How every `--format json` document is written: pretty-printed, keys sorted by their bytes,
/// so that a document's shape is its Codable type and its text the same on every run.
enum JSONOutput {
    /// Prints `document` on standard output. `escapesSlashes` keeps the `\/` that `validate`,
    /// `build`, `preview` and `import` have always printed; `library` prints `/`.
    static func print(_ document: some Encodable, to console: Console, escapesSlashes: Bool = true) {
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            escapesSlashes ? [.prettyPrinted, .sortedKeys] : [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Our documents hold strings, numbers, Booleans and arrays of them: encoding cannot fail.
        guard let data = try? encoder.encode(document) else { return }
        console.out(String(decoding: data, as: UTF8.self))
    }
}
