import Foundation
import TallyCore
import Testing

/// What a receipt is comes from its bytes (its signature), never from what it says it is; an
/// HEIF file is taken only when its pictures are HEVC, as a phone's photos are.
@Suite("Receipt kinds from their bytes")
struct ReceiptSniffingTests {
    /// An `ftyp` box with `major` first and `compatible` after, then the start of a `meta` box.
    static func heif(_ major: String, _ compatible: [String]) -> Data {
        let size = 16 + 4 * compatible.count
        var bytes: [UInt8] = [0, 0, 0, UInt8(size)] + Array("ftyp".utf8) + Array(major.utf8) + [0, 0, 0, 0]
        for brand in compatible { bytes += Array(brand.utf8) }
        return Data(bytes + [0, 0, 1, 0x43] + Array("meta".utf8) + [UInt8](repeating: 0, count: 16))
    }

    @Test("A phone's HEIC is taken: an HEVC brand first, or the general HEIF brand with an HEVC brand among the compatible ones")
    func heic() {
        #expect(ReceiptUpload(sniffing: Self.heif("heic", ["mif1", "heic", "miaf"])) == .heic)
        #expect(ReceiptUpload(sniffing: Self.heif("mif1", ["mif1", "heic"])) == .heic)
        #expect(ReceiptUpload(sniffing: Self.heif("hevc", [])) == .heic)
    }

    @Test("An AVIF, whatever brand it names first, is no HEIC; nor is an HEIF that names no HEVC brand")
    func avif() {
        #expect(ReceiptUpload(sniffing: Self.heif("mif1", ["mif1", "avif", "miaf"])) == nil)
        #expect(ReceiptUpload(sniffing: Self.heif("avif", ["mif1", "avif"])) == nil)
        #expect(ReceiptUpload(sniffing: Self.heif("mif1", ["mif1", "heic", "avif"])) == nil)
        #expect(ReceiptUpload(sniffing: Self.heif("mif1", ["mif1", "miaf"])) == nil)
        #expect(ReceiptUpload(sniffing: Self.heif("msf1", [])) == nil)
    }

    @Test("A box that claims to be longer than the bytes sent reads only what there is")
    func shortBox() {
        var bytes = Self.heif("mif1", ["heic"])
        bytes[3] = 0xFF
        #expect(ReceiptUpload(sniffing: bytes.prefix(20)) == .heic)
        #expect(ReceiptUpload(sniffing: bytes.prefix(15)) == nil)
    }
}
