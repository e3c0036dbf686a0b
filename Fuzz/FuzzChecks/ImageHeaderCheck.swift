import Foundation
import NewsstandBuild
import NewsstandCore

/// `ImageSize.probe` reads a file's head and, for JPEG, walks its segments with `pread`. On
/// any bytes it returns; what it reports matches a second reading of the same bytes in memory
/// (`ReferenceHeader`); a size it accepts is one a decoder accepts (at least 1×1; a PNG side
/// at most 2³¹−1).
enum ImageHeaderCheck {
    static let file: URL = {
        let url = URL(fileURLWithPath: NSTemporaryDirectory(), isDirectory: true)
            .appendingPathComponent("newsstand-fuzz-image-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        atexit { try? FileManager.default.removeItem(at: ImageHeaderCheck.file) }
        return url
    }()

    static func check(_ data: Data) -> String? {
        do {
            try data.write(to: file)
        } catch {
            fatalError("cannot write \(file.path): \(error)")
        }
        let probe: ImageSize.Probe
        do {
            probe = ImageSize.probe(try OpenFile.open(file))
        } catch {
            fatalError("cannot open \(file.path): \(error)")
        }
        let bytes = [UInt8](data)
        let signature = FileSignature.detect(Array(bytes.prefix(32)))
        guard probe.signature == signature else { return "signature \(probe.signature), expected \(signature)" }
        let expected = ReferenceHeader.size(bytes, signature)
        switch (probe.size, expected) {
        case (.success(let size), .some(let reference)):
            guard size.width == reference.width, size.height == reference.height else {
                return "\(signature) read as \(size), the bytes say \(reference.width)×\(reference.height)"
            }
            guard size.width >= 1, size.height >= 1 else { return "accepted a \(size) \(signature)" }
            if signature == .png, size.width > ImageSize.pngMaximumSide || size.height > ImageSize.pngMaximumSide {
                return "accepted a \(size) PNG"
            }
        case (.success(let size), .none):
            return "\(signature) read as \(size), but its header is not whole"
        case (.failure(.unsupportedFormat), _):
            guard ![.png, .gif, .jpeg].contains(signature) else { return "\(signature) called unsupported" }
        case (.failure(.corrupt), .some(let reference)):
            // Refused only for a size no decoder accepts.
            let usable =
                reference.width >= 1 && reference.height >= 1
                && (signature != .png
                    || (reference.width <= ImageSize.pngMaximumSide && reference.height <= ImageSize.pngMaximumSide))
            guard !usable else { return "\(signature) of \(reference.width)×\(reference.height) refused as corrupt" }
        case (.failure(.corrupt), .none):
            break
        }
        return nil
    }
}

/// The header's size read from the bytes in memory, by the formats' specifications: nil when
/// the header is not whole or not there.
enum ReferenceHeader {
    static func size(_ b: [UInt8], _ signature: FileSignature) -> (width: Int, height: Int)? {
        func be(_ at: Int, _ count: Int) -> Int? {
            guard at >= 0, at + count <= b.count else { return nil }
            return b[at..<at + count].reduce(0) { $0 << 8 | Int($1) }
        }
        switch signature {
        case .png:
            guard b.count >= 24, b[12] == 0x49, b[13] == 0x48, b[14] == 0x44, b[15] == 0x52, let w = be(16, 4), let h = be(20, 4)
            else { return nil }
            return (w, h)
        case .gif:
            guard b.count >= 10 else { return nil }
            return (Int(b[6]) + 256 * Int(b[7]), Int(b[8]) + 256 * Int(b[9]))
        case .jpeg:
            var i = 2
            while i < b.count {
                guard b[i] == 0xFF else { return nil }
                while i < b.count, b[i] == 0xFF { i += 1 }
                guard i < b.count else { return nil }
                let marker = b[i]
                i += 1
                switch marker {
                case 0xD8, 0x01, 0xD0...0xD7: continue
                case 0xD9, 0xDA: return nil
                default: break
                }
                guard let length = be(i, 2), length >= 2 else { return nil }
                i += 2
                if (0xC0...0xCF).contains(marker), marker != 0xC4, marker != 0xC8, marker != 0xCC {
                    guard let h = be(i + 1, 2), let w = be(i + 3, 2) else { return nil }
                    return (w, h)
                }
                i += length - 2
            }
            return nil
        default:
            return nil
        }
    }
}
