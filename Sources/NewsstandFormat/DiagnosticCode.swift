/// Every diagnostic the tool can report. The raw values are stable: scripts and severity
/// overrides refer to them, so a code is never renumbered or reused.
public enum DiagnosticCode: String, Sendable, Codable, CaseIterable {
    // Files and property-list syntax.
    case fileMissing = "NS-001"
    case fileUnreadable = "NS-002"
    case malformedXML = "NS-003"
    case malformedPlist = "NS-004"
    case plistDoctypeSubset = "NS-005"
    case plistTooLarge = "NS-006"
    case tooManyProblems = "NS-007"

    // magazine.plist and the magazine folder.
    case magazineNotDict = "NS-101"
    case magazineTitle = "NS-102"
    case magazineBaseURL = "NS-103"
    case noIssues = "NS-104"
    case magazinePublisher = "NS-105"
    case magazinePreviewURL = "NS-106"
    case magazineDeriveNormalSize = "NS-107"
    case magazineBaseURLPlaceholder = "NS-108"
    case magazineLanguage = "NS-109"

    // The page config (pages.plist).
    case unknownPageClass = "NS-201"
    case pagesRootNotArray = "NS-202"
    case articleNotArray = "NS-203"
    case emptyArticle = "NS-204"
    case pageNotDict = "NS-205"
    case pageClassMissing = "NS-206"
    case pagePropertiesMissing = "NS-207"
    case requiredPropertyMissing = "NS-208"
    case propertyWrongType = "NS-209"
    case unknownProperty = "NS-210"
    case arrayCount = "NS-211"
    case unknownPageKey = "NS-212"

    // Assets.
    case assetMissing = "NS-301"
    case assetCaseMismatch = "NS-302"
    case retinaMissing = "NS-303"
    case retinaWrongSize = "NS-304"
    case contentMismatch = "NS-305"
    case assetUnreferenced = "NS-306"
    case assetNameUnportable = "NS-307"
    case assetNameInvalid = "NS-308"
    case imageUnreadable = "NS-309"
    case assetNotRegularFile = "NS-310"
    case masterOddSize = "NS-311"
    case assetNameNormalization = "NS-312"

    // Page-class schemas.
    case schemaInvalid = "NS-401"
    case schemaUnknownParent = "NS-402"
    case schemaCycle = "NS-403"
    case schemaUnknownType = "NS-404"

    // issue.plist and issue folders.
    case issueNotDict = "NS-501"
    case issueTitle = "NS-502"
    case issueDate = "NS-503"
    case issueCover = "NS-504"
    case issueNameMismatch = "NS-505"
    case issueNameUnsafe = "NS-506"
    case issueNameDuplicate = "NS-507"
    case issueKeyWrongType = "NS-508"
    case issueUnknownKey = "NS-509"
    case issueNotFound = "NS-510"
    case issueNotAFolder = "NS-511"
    case issueAccess = "NS-512"
    case freeIssueProductID = "NS-513"
    case issueLanguage = "NS-514"

    // Extra catalog feeds.
    case feedSummary = "NS-601"
    case feedCover = "NS-602"

    /// The severity used unless overridden.
    public var defaultSeverity: Severity {
        switch self {
        case .unknownProperty, .assetUnreferenced, .assetNameUnportable, .issueUnknownKey, .unknownPageKey,
            .freeIssueProductID, .feedSummary, .feedCover, .magazineBaseURLPlaceholder:
            return .warning
        default:
            return .error
        }
    }

    /// A short description for documentation and `--help`.
    public var summary: String {
        switch self {
        case .fileMissing: return "a required file is missing"
        case .fileUnreadable: return "a file cannot be read"
        case .malformedXML: return "a property list is not well-formed XML (libxml2's message and line)"
        case .malformedPlist:
            return "a property list has an invalid element or value (bad integer, date, key without value…)"
        case .plistDoctypeSubset:
            return "a property list's DOCTYPE declares entities or other markup (an internal subset), which Foundation and "
                + "plistlib refuse"
        case .plistTooLarge: return "a property list is over a limit: 8 MiB, 250,000 values or 64 levels of nesting"
        case .tooManyProblems:
            return "a file has more problems than are listed: the first 1,000 are, the rest counted (a warning when those "
                + "are all warnings)"
        case .magazineNotDict: return "magazine.plist is not a dictionary"
        case .magazineTitle: return "magazine.plist Title is missing, not a string, or blank"
        case .magazineBaseURL: return "magazine.plist BaseURL is missing or not an absolute http(s) URL"
        case .noIssues: return "the magazine has no issues folder or no issues"
        case .magazinePublisher: return "magazine.plist Publisher is given but is not a non-empty string"
        case .magazinePreviewURL: return "magazine.plist PreviewURL is given but is not an absolute http(s) URL"
        case .magazineDeriveNormalSize: return "magazine.plist DeriveNormalSize is given but is not a boolean"
        case .magazineBaseURLPlaceholder:
            return "magazine.plist BaseURL is still the placeholder 'newsstand init' wrote (https://example.com/magazine/); "
                + "publish refuses a build of it"
        case .magazineLanguage:
            return "magazine.plist Language is given but is not a well-formed BCP 47 language tag (RFC 5646: a language of "
                + "2-3 or 5-8 letters, then an optional script of 4 letters, region of 2 letters or 3 digits, variants)"
        case .unknownPageClass: return "a page names a class that no schema defines"
        case .pagesRootNotArray: return "pages.plist's root is not an array of articles"
        case .articleNotArray: return "an article is not an array of pages"
        case .emptyArticle: return "an article has no pages"
        case .pageNotDict: return "a page is not a dictionary"
        case .pageClassMissing: return "a page has no class string"
        case .pagePropertiesMissing: return "a page has no properties dictionary"
        case .requiredPropertyMissing: return "a required property is missing"
        case .propertyWrongType: return "a property has the wrong type"
        case .unknownProperty: return "a property is not defined by the page's class"
        case .arrayCount: return "an array property has too few or too many items"
        case .unknownPageKey: return "a page has a key other than class and properties"
        case .assetMissing: return "a referenced asset is not in assets/"
        case .assetCaseMismatch:
            return "a referenced asset exists only with different letter case (works on a Mac, fails on a device)"
        case .retinaMissing: return "an image has no @2x variant (the @2x bundle would be incomplete)"
        case .retinaWrongSize:
            return "a @2x image is not exactly twice the normal image's size (PNG, JPEG and GIF headers are read)"
        case .contentMismatch: return "a file's content does not match its extension"
        case .assetUnreferenced: return "an asset is never referenced (it is left out of the bundles)"
        case .assetNameUnportable: return "an asset's name has spaces or non-ASCII characters"
        case .assetNameInvalid:
            return "an asset reference is not a plain file name (folders, .., hidden names, \\, :, control characters)"
        case .imageUnreadable:
            return "an image's header is corrupt or gives an impossible size: 0 wide or high, or a PNG side above 2³¹−1 (a "
                + "warning when its format is not PNG, JPEG or GIF)"
        case .assetNotRegularFile:
            return "a file in assets/ (or assets/ itself) is a symbolic link, FIFO, socket or device, or a referenced name "
                + "is a folder"
        case .masterOddSize:
            return "an @2x master whose normal size is derived (DeriveNormalSize) has an odd width or height: it cannot be "
                + "halved exactly (the message gives its size and the next even one)"
        case .assetNameNormalization:
            return "two names in assets/, or a reference and the file it names, are the same text in different Unicode "
                + "normalisation forms (é composed, NFC c3 a9, and decomposed, NFD 65 cc 81): Linux keeps two files, Apple "
                + "devices one, so a bundle would hold only one of them (the message spells each form with \\u{…} escapes)"
        case .schemaInvalid: return "a page-class schema is invalid"
        case .schemaUnknownParent: return "a page class inherits from an unknown class"
        case .schemaCycle: return "page classes inherit from each other in a cycle"
        case .schemaUnknownType: return "a schema property has an unknown type"
        case .issueNotDict: return "issue.plist is not a dictionary"
        case .issueTitle: return "issue.plist Title is missing, not a string, or blank"
        case .issueDate: return "issue.plist Date is missing or not a date"
        case .issueCover:
            return "issue.plist Cover is missing or not a string (a missing cover image is NS-301 or NS-303)"
        case .issueNameMismatch: return "issue.plist Name differs from the issue's folder name"
        case .issueNameUnsafe:
            return "an issue name is not safe as a file and URL name (or not valid UTF-8, or is paid, the folder of paid "
                + "issues' content)"
        case .issueNameDuplicate:
            return "two issues have the same name ignoring case or Unicode normalisation (they collide on Mac disks)"
        case .issueKeyWrongType:
            return "an optional issue.plist key (Name, Summary, ProductID, Access, Language) has the wrong type"
        case .issueUnknownKey: return "issue.plist has a key the tool does not know"
        case .issueNotFound: return "an issue named with --issue does not exist"
        case .issueNotAFolder:
            return "issues/, an issue folder, issue.plist or pages.plist is a symbolic link or of the wrong kind"
        case .issueAccess:
            return "issue.plist Access is not free or paid, or ProductID is not a store product identifier (1 to 100 "
                + "letters, digits, -, ., _)"
        case .freeIssueProductID:
            return "a free issue has a ProductID: its content is public, and shelf.json leaves the product out (Baker would "
                + "sell it)"
        case .issueLanguage:
            return "issue.plist Language is not a well-formed BCP 47 language tag such as en, ru or pt-BR (RFC 5646: a "
                + "language of 2-3 or 5-8 letters, then an optional script of 4 letters, region of 2 letters or 3 digits, "
                + "variants)"
        case .feedSummary:
            return "an issue's Summary is missing, or not 10 to 2,000 bytes of UTF-8 (with --feed atom only; reported on "
                + "the Summary, or on the dict when there is none)"
        case .feedCover:
            return "an issue's @2x cover (the feed's SOURCE icon) is not a PNG with an aspect ratio between 1:2 and 2:1 and "
                + "a long side of at least 1,024 px (with --feed atom only; reported on the Cover)"
        }
    }
}
