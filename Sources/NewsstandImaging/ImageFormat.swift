/// The file formats the engine reads or writes.
public enum ImageFormat: String, Sendable, Equatable, Codable, CaseIterable {
    case png
    case jpeg
    case webp
    case heif
    case pdf

    /// The usual file name extension, without the dot.
    public var fileExtension: String {
        switch self {
        case .png: return "png"
        case .jpeg: return "jpg"
        case .webp: return "webp"
        case .heif: return "heic"
        case .pdf: return "pdf"
        }
    }

    /// The name for messages: "PNG", "JPEG", …
    public var name: String {
        switch self {
        case .png: return "PNG"
        case .jpeg: return "JPEG"
        case .webp: return "WebP"
        case .heif: return "HEIF"
        case .pdf: return "PDF"
        }
    }

    /// The format of a libvips loader, by nickname ("pngload_source") or class name
    /// ("VipsForeignLoadPngSource"); nil for any other.
    init?(loader: String) {
        switch Self.loaderKind(loader) {
        case "png": self = .png
        case "jpeg": self = .jpeg
        case "webp": self = .webp
        case "heif": self = .heif
        case "pdf": self = .pdf
        default: return nil
        }
    }

    /// "svg" for "svgload_source" or "VipsForeignLoadSvgSource".
    static func loaderKind(_ loader: String) -> String {
        var name = loader
        if name.hasPrefix("VipsForeignLoad") {
            name = String(name.dropFirst("VipsForeignLoad".count))
            for suffix in ["Source", "File", "Buffer"] where name.hasSuffix(suffix) {
                name = String(name.dropLast(suffix.count))
                break
            }
        } else if let range = name.range(of: "load") {
            name = String(name[..<range.lowerBound])
        }
        return name.lowercased()
    }
}
