import CVips

/// What the engine keeps of an image's metadata when it writes one: nothing (EXIF, XMP, IPTC,
/// comments, an sRGB profile all go), except a colour profile that is not sRGB-equivalent,
/// because without it the same pixels would show different colours.
enum MetadataPolicy {
    /// The image to write and whether to let libvips strip everything.
    static func prepare(_ image: VipsImageRef) throws(VipsFailure) -> (image: VipsImageRef, strip: Bool) {
        guard let profile = image.blob("icc-profile-data"), !ColourProfile.isSRGBEquivalent(profile) else {
            return (image, true)
        }
        // Keep the profile: a copy with every other field libvips could write removed.
        let copy = try vipsImage { cvips_copy(image.pointer, $0) }
        withExtendedLifetime(copy) {
            for field in copy.fieldNames where isRemovable(field) {
                cvips_image_remove(copy.pointer, field)
            }
        }
        return (copy, false)
    }

    /// Whether a field's profile is kept: for the optimisers' reports and tests.
    static func keepsProfile(of image: VipsImageRef) -> Bool {
        guard let profile = image.blob("icc-profile-data") else { return false }
        return !ColourProfile.isSRGBEquivalent(profile)
    }

    /// Metadata that savers turn into chunks or markers (EXIF and its parsed fields, XMP, IPTC,
    /// comments, orientation); the header fields (width, bands, resolution, …) stay.
    private static func isRemovable(_ field: String) -> Bool {
        if field == "icc-profile-data" { return false }
        let kept: Set<String> = [
            "width", "height", "bands", "format", "coding", "interpretation", "xoffset", "yoffset", "xres", "yres",
            "filename", "vips-loader",
        ]
        return !kept.contains(field)
    }
}
