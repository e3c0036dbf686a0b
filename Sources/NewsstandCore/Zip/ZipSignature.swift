/// The record signatures of APPNOTE 4.3.
enum ZipSignature {
    static let localHeader: UInt32 = 0x0403_4b50
    static let centralHeader: UInt32 = 0x0201_4b50
    static let endOfCentralDirectory: UInt32 = 0x0605_4b50
    static let zip64End: UInt32 = 0x0606_4b50
    static let zip64Locator: UInt32 = 0x0706_4b50
}
