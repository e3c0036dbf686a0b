import CVips

/// One reference to a libvips image, released when this object goes away. Not Sendable: an
/// image is made, used and dropped inside one operation on one thread.
///
/// Use `pointer` only inside a closure that captures this object (`step`, `vipsImage`) or inside
/// `withExtendedLifetime`: an optimised build ends a local's lifetime at its last use, which can
/// be the read of `pointer`, freeing the image before the C call that takes it (a crash seen in
/// release builds only).
final class VipsImageRef {
    let pointer: UnsafeMutablePointer<VipsImage>

    init(_ pointer: UnsafeMutablePointer<VipsImage>) { self.pointer = pointer }

    deinit { cvips_unref(pointer) }

    var width: Int { Int(cvips_image_get_width(pointer)) }
    var height: Int { Int(cvips_image_get_height(pointer)) }
    var bands: Int { Int(cvips_image_get_bands(pointer)) }
    var bandFormat: VipsBandFormat { cvips_image_get_format(pointer) }
    var interpretation: VipsInterpretation { cvips_image_get_interpretation(pointer) }
    var hasAlpha: Bool { cvips_image_hasalpha(pointer) != 0 }

    /// The libvips loader that made it ("pngload_source"), when it was loaded.
    var loader: String? { string("vips-loader") }

    func string(_ field: String) -> String? {
        guard cvips_image_get_typeof(pointer, field) != 0 else { return nil }
        var value: UnsafePointer<CChar>?
        guard cvips_image_get_string(pointer, field, &value) == 0, let value else {
            _ = VipsRuntime.takeError()
            return nil
        }
        return String(cString: value)
    }

    func int(_ field: String) -> Int? {
        guard cvips_image_get_typeof(pointer, field) != 0 else { return nil }
        var value: Int32 = 0
        guard cvips_image_get_int(pointer, field, &value) == 0 else {
            _ = VipsRuntime.takeError()
            return nil
        }
        return Int(value)
    }

    /// A binary field (an ICC profile, EXIF), copied out.
    func blob(_ field: String) -> [UInt8]? {
        guard cvips_image_get_typeof(pointer, field) != 0 else { return nil }
        var data: UnsafeRawPointer?
        var length = 0
        guard cvips_image_get_blob(pointer, field, &data, &length) == 0, let data else {
            _ = VipsRuntime.takeError()
            return nil
        }
        return Array(UnsafeRawBufferPointer(start: data, count: length))
    }

    /// The names of every metadata field (width, height, … and loader-specific ones).
    var fieldNames: [String] {
        guard let list = cvips_fields(pointer) else { return [] }
        defer { cvips_strfreev(list) }
        var names: [String] = []
        var index = 0
        while let name = list[index] {
            names.append(String(cString: name))
            index += 1
        }
        return names
    }
}

/// A failed libvips call, with libvips' text; turned into an ``ImagingError`` with the file's
/// name by the operation that made the call.
struct VipsFailure: Error {
    let reason: String
}

/// Runs a libvips operation that makes one image, taking its error text on failure.
func vipsImage(_ body: (UnsafeMutablePointer<UnsafeMutablePointer<VipsImage>?>) -> Int32) throws(VipsFailure) -> VipsImageRef {
    var out: UnsafeMutablePointer<VipsImage>?
    let status = body(&out)
    guard status == 0, let out else {
        if let out { cvips_unref(out) }
        throw VipsFailure(reason: VipsRuntime.takeError())
    }
    return VipsImageRef(out)
}

/// Runs a libvips call that returns a status.
func vipsCheck(_ status: Int32) throws(VipsFailure) {
    if status != 0 { throw VipsFailure(reason: VipsRuntime.takeError()) }
}
