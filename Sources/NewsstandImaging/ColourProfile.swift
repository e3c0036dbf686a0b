import CVips

/// Tells whether an embedded ICC profile says anything an untagged image would not: Apple's
/// platforms and browsers show an untagged image as sRGB, so an sRGB profile can go, while a
/// wide-gamut one (Display P3, Adobe RGB) must stay or the colours change on screen.
enum ColourProfile {
    /// True when converting colours from `profile` to sRGB leaves every one of a 16×16×16 cube of
    /// 8-bit RGB colours within one level of where it was: the profile behaves as sRGB, whatever
    /// its name or version. A profile lcms cannot use for RGB (grey, CMYK, broken) is not.
    static func isSRGBEquivalent(_ profile: [UInt8]) -> Bool {
        guard (try? VipsRuntime.start()) != nil else { return false }
        var cube = [UInt8]()
        cube.reserveCapacity(64 * 64 * 3)
        for red in 0..<16 {
            for green in 0..<16 {
                for blue in 0..<16 { cube += [UInt8(red * 17), UInt8(green * 17), UInt8(blue * 17)] }
            }
        }
        do throws(VipsFailure) {
            let image = try vipsImage { out in
                out.pointee = cube.withUnsafeBytes {
                    cvips_image_new_from_memory_copy($0.baseAddress, $0.count, 64, 64, 3, VIPS_FORMAT_UCHAR)
                }
                return out.pointee == nil ? -1 : 0
            }
            withExtendedLifetime(image) {
                profile.withUnsafeBytes { cvips_image_set_blob_copy(image.pointer, "icc-profile-data", $0.baseAddress, $0.count) }
            }
            let converted = try vipsImage { cvips_icc_to_srgb(image.pointer, $0) }
            guard converted.bands == 3 else { return false }
            let uchar = try vipsImage { cvips_cast(converted.pointer, $0, VIPS_FORMAT_UCHAR) }
            let difference = try vipsImage { cvips_subtract(uchar.pointer, image.pointer, $0) }
            let magnitude = try vipsImage { cvips_abs(difference.pointer, $0) }
            var largest = 0.0
            try vipsCheck(withExtendedLifetime(magnitude) { cvips_max(magnitude.pointer, &largest) })
            return largest <= 1
        } catch {
            return false
        }
    }
}
