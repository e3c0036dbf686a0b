import Foundation

/// PDFs written by hand, object by object, for the inputs no drawing tool makes: a page of
/// 1 × 200,000 points, an image of 20,000 × 20,000 pixels whose data is one row, a drawing
/// nested eight forms deep, a page tree naming a page that is not there. The cross-reference
/// table holds each object's real offset, so poppler reads the file as it is written.
public struct HandMadePDF {
    /// One page: its MediaBox (`0 0 595 842`), content stream and resources dictionary.
    public struct Page {
        public var mediaBox: String
        public var content: String
        public var resources: String

        public init(mediaBox: String, content: String, resources: String = HandMadePDF.helvetica) {
            self.mediaBox = mediaBox
            self.content = content
            self.resources = resources
        }

        /// A page of text ("page 2" in Helvetica) and a blue box.
        public static func text(_ label: String, mediaBox: String = "0 0 300 400") -> Page {
            Page(mediaBox: mediaBox, content: "BT /F1 24 Tf 20 40 Td (\(label)) Tj ET 0 0 1 rg 10 10 50 20 re f")
        }
    }

    /// Resources with Helvetica as /F1.
    public static let helvetica = "<< /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >>"

    public var pages: [Page]
    /// Objects after the pages' (numbered from `firstExtraObject`), each a body as written
    /// between `obj` and `endobj`.
    public var extraObjects: [Data] = []
    /// Page objects the page tree lists that do not exist.
    public var missingKids = 0

    public init(pages: [Page]) { self.pages = pages }

    /// The number of the first of `extraObjects`: 1 is the catalog, 2 the page tree, then a
    /// page and its content stream each.
    public var firstExtraObject: Int { 3 + 2 * pages.count }

    /// The file's bytes.
    public func data() -> Data {
        var objects: [Data] = []
        let kids = pages.indices.map { "\(3 + 2 * $0) 0 R" } + (0..<missingKids).map { "\(900 + $0) 0 R" }
        objects.append(Data("<< /Type /Catalog /Pages 2 0 R >>".utf8))
        objects.append(Data("<< /Type /Pages /Kids [\(kids.joined(separator: " "))] /Count \(kids.count) >>".utf8))
        for (index, page) in pages.enumerated() {
            objects.append(
                Data(
                    "<< /Type /Page /Parent 2 0 R /MediaBox [\(page.mediaBox)] /Resources \(page.resources) /Contents \(4 + 2 * index) 0 R >>"
                        .utf8))
            objects.append(Self.stream(dictionary: "", Data(page.content.utf8)))
        }
        objects += extraObjects
        var file = Data("%PDF-1.4\n%\u{E2}\u{E3}\u{CF}\u{D3}\n".utf8)
        var offsets: [Int] = []
        for (index, body) in objects.enumerated() {
            offsets.append(file.count)
            file.append(Data("\(index + 1) 0 obj\n".utf8))
            file.append(body)
            file.append(Data("\nendobj\n".utf8))
        }
        let table = file.count
        file.append(Data("xref\n0 \(objects.count + 1)\n0000000000 65535 f \n".utf8))
        for offset in offsets { file.append(Data(String(format: "%010d 00000 n \n", offset).utf8)) }
        file.append(Data("trailer\n<< /Size \(objects.count + 1) /Root 1 0 R >>\nstartxref\n\(table)\n%%EOF\n".utf8))
        return file
    }

    /// Writes the file.
    public func write(to url: URL) throws { try data().write(to: url) }

    /// A stream object: `dictionary` entries (without `<< >>`) and its length added.
    public static func stream(dictionary: String, _ bytes: Data) -> Data {
        var body = Data("<< \(dictionary) /Length \(bytes.count) >>\nstream\n".utf8)
        body.append(bytes)
        body.append(Data("\nendstream".utf8))
        return body
    }

    /// A4 pages each drawing one RGB image of `side` × `side` pixels over the whole page,
    /// whose data is one row (poppler allocates the whole image before it reads, and leaves the
    /// rows missing blank): 60 KB that ask for `side` × `side` × 4 bytes when drawn.
    public static func hugeImage(side: Int = 20_000, pages count: Int = 1) -> HandMadePDF {
        var pdf = HandMadePDF(
            pages: Array(repeating: Page(mediaBox: "0 0 595 842", content: "q 595 0 0 842 0 0 cm /Im1 Do Q"), count: count))
        let image = pdf.firstExtraObject
        for index in pdf.pages.indices { pdf.pages[index].resources = "<< /XObject << /Im1 \(image) 0 R >> >>" }
        pdf.extraObjects = [
            stream(
                dictionary:
                    "/Type /XObject /Subtype /Image /Width \(side) /Height \(side) /ColorSpace /DeviceRGB /BitsPerComponent 8",
                Data(repeating: 0x80, count: side * 3))
        ]
        return pdf
    }

    /// One A4 page drawing a form that draws the next form `fanOut` times, `levels` deep: the
    /// last form's box is drawn `fanOut`^(`levels` - 1) times (8 levels of 10: 10 million).
    public static func nestedForms(levels: Int, fanOut: Int = 10) -> HandMadePDF {
        var pdf = HandMadePDF(pages: [Page(mediaBox: "0 0 595 842", content: "/X Do")])
        let first = pdf.firstExtraObject
        pdf.pages[0].resources = "<< /XObject << /X \(first) 0 R >> >>"
        for level in 0..<levels {
            let last = level == levels - 1
            let body =
                last
                ? "0 0 1 rg 0 0 10 10 re f" : (0..<fanOut).map { "q 0.9 0 0 0.9 \($0) \($0) cm /X Do Q" }.joined(separator: " ")
            let resources = last ? "<< >>" : "<< /XObject << /X \(first + level + 1) 0 R >> >>"
            pdf.extraObjects.append(
                stream(dictionary: "/Type /XObject /Subtype /Form /BBox [0 0 600 800] /Resources \(resources)", Data(body.utf8)))
        }
        return pdf
    }
}
