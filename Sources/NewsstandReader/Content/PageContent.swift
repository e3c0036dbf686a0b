/// One page of an issue: its class, its properties and what the registry made of them.
public struct PageContent: Sendable {
    /// How the page came out.
    public enum Kind: Sendable {
        /// Decoded by the type registered for its class.
        case decoded(any IssuePage)
        /// No type is registered for its class: its properties are kept as they are.
        case generic(GenericPage)
        /// The registered type could not decode it (a missing asset, a missing property):
        /// the issue still opens, and an app shows this page as broken.
        case failed(ContentError)
    }

    /// The `class` value from `pages.plist`.
    public var className: String
    /// The page's properties.
    public var properties: PageProperties
    /// What the page is: a type the registry knows, or generic.
    public var kind: Kind

    /// The decoded page, when it is of type `T`.
    public func page<T: IssuePage>(as type: T.Type) -> T? {
        if case .decoded(let page) = kind { return page as? T }
        return nil
    }

    /// The error, when the page could not be decoded.
    public var error: ContentError? {
        if case .failed(let error) = kind { return error }
        return nil
    }
}
