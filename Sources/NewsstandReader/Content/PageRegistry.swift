/// Maps page class names to the types that decode them.
public struct PageRegistry: Sendable {
    private var types: [String: any IssuePage.Type] = [:]

    /// An empty registry: every page is generic.
    public init() {}

    /// A registry with the built-in `SimplePage` and `PhotoPage`.
    public static var standard: PageRegistry {
        var registry = PageRegistry()
        registry.register(SimplePage.self)
        registry.register(PhotoPage.self)
        return registry
    }

    /// Adds (or replaces) the type for `type.className`.
    public mutating func register(_ type: any IssuePage.Type) {
        types[type.className] = type
    }

    /// The type registered for a class name.
    public func type(for className: String) -> (any IssuePage.Type)? { types[className] }
}
