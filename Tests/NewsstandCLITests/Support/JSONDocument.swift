import Foundation
import Testing

/// A `--format json` document read as the type the guides name for it, and written again:
/// the same text means the type is the document's whole shape (no member missing or extra,
/// nulls where they are promised, keys in the same order).
enum JSONDocument {
    static func decode<Document: Codable>(
        _ type: Document.Type, from text: String, escapesSlashes: Bool = true, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Document {
        let document = try JSONDecoder().decode(Document.self, from: Data(text.utf8))
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            escapesSlashes ? [.prettyPrinted, .sortedKeys] : [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let again = String(decoding: try encoder.encode(document), as: UTF8.self) + "\n"
        #expect(again == text, "\(Document.self) does not write the document it read", sourceLocation: sourceLocation)
        return document
    }
}
