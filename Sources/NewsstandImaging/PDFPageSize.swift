/// A PDF page's size in points as libvips gives it (at scale 1, rounded to whole points), and
/// what its rendering at a width must come out as, so that a render that is not what was asked
/// is refused rather than written.
///
/// libvips cannot hold a dimension over 10,000,000 pixels: it logs a GLib warning and leaves the
/// image's default of 1 pixel there (a 1 × 200,000 point page rendered 1536 wide came out as a
/// 1536 × 1 strip). So the rows a page will have are worked out before it is rendered, a page
/// too large for the limit is refused then, and the render is checked against them.
struct PDFPageSize: Equatable {
    /// Whole points.
    let width: Int
    let height: Int

    /// Whether libvips gave a size at all: 1 is what it leaves for a dimension it could not
    /// hold, and no page anyone reads is under 2 points (0.7 mm) either way.
    var isUsable: Bool { width >= 2 && height >= 2 }

    /// The rows of the page rendered `pixels` wide (before the height is made even).
    func rows(atWidth pixels: Int) -> Int {
        Int((Double(pixels) * Double(height) / Double(width)).rounded())
    }

    /// The rows a render `pixels` wide may have: rounding each dimension to whole points (up to
    /// half a point) moves the proportion, and poppler's own rounding adds a row.
    func acceptedRows(atWidth pixels: Int) -> ClosedRange<Int> {
        let low = (Double(pixels) * (Double(height) - 0.5) / (Double(width) + 0.5)).rounded(.down) - 1
        let high = (Double(pixels) * (Double(height) + 0.5) / (Double(width) - 0.5)).rounded(.up) + 1
        return max(1, Int(low))...max(1, Int(min(high, 1e15)))
    }
}
