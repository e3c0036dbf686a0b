/// The screen scale a library downloads for: it picks the normal or the `@2x` cover and bundle.
/// Fixed when a library folder is first created, and persisted with it.
public enum LibraryScale: String, Sendable, Codable, CaseIterable {
    /// Normal-resolution screens: `cover.png`, `<name>.zip`.
    case normal
    /// Retina screens: `cover@2x.png`, `<name>@2x.zip`.
    case retina

    /// Whether this scale uses the `@2x` files.
    public var isRetina: Bool { self == .retina }
}
