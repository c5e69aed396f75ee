import Foundation

/// What a receipt is kept as: a photo written again as a JPEG (a PNG stays a PNG), or a PDF as
/// it came. Its raw value is its media type.
public enum ReceiptFormat: String, Sendable, Hashable, Codable, CaseIterable {
    case jpeg = "image/jpeg"
    case png = "image/png"
    case pdf = "application/pdf"

    public var mediaType: String { rawValue }
    /// A photo is shown in the page; a PDF is only ever downloaded.
    public var isImage: Bool { self != .pdf }
    public var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .png: "png"
        case .pdf: "pdf"
        }
    }
}

/// What an uploaded receipt's bytes are, read from the bytes themselves: what a file says it is
/// (its name, its `Content-Type`) is never believed.
public enum ReceiptUpload: Sendable, Equatable {
    case jpeg, png, webp, heic, pdf

    /// The most a receipt may be, as sent.
    public static let maximumBytes = 10 << 20
    /// A photo's longer side once kept, in pixels: sharp enough to read a till receipt.
    public static let longSide = 2000
    /// The longer side of the small copy a list shows.
    public static let thumbnailSide = 320
    /// The most pixels a photo may open to (a 200-megapixel camera's): beyond, a small file
    /// that would open as a huge image is refused before it is decoded.
    public static let maximumPixels: Int64 = 200_000_000
    /// The most memory a photo may need to be decoded whole (an interlaced PNG, a progressive
    /// JPEG, HEIC), which cannot be shrunk while it is read: a 48-megapixel HEIC fits, and a
    /// small file that unpacks into gigabytes does not.
    public static let maximumWholeDecodeBytes: Int64 = 240 << 20

    /// The kind `bytes` are, from their signature; nil for anything else (HTML, SVG, text,
    /// another image format).
    public init?(sniffing bytes: Data) {
        let head = [UInt8](bytes.prefix(16))
        func starts(_ signature: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + signature.count && Array(head[offset..<offset + signature.count]) == signature
        }
        if starts([0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if starts(Array("RIFF".utf8)), starts(Array("WEBP".utf8), at: 8) {
            self = .webp
        } else if starts(Array("ftyp".utf8), at: 4), Self.isHEIC(bytes) {
            self = .heic
        } else if starts(Array("%PDF-".utf8)) {
            self = .pdf
        } else {
            return nil
        }
    }

    /// The brands of an HEIF file's `ftyp` box that say its pictures are HEVC: a phone's photos.
    private static let hevcBrands: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx"]
    /// The brands any HEIF file may name first, whatever its pictures are (AVIF names them too).
    private static let heifBrands: Set<String> = ["mif1", "msf1"]

    /// Whether the `ftyp` box at the start of `bytes` says HEVC pictures: a brand of them first,
    /// or the general HEIF brand first with one of them among the compatible brands, and never
    /// an AVIF brand (its decoder is not one a receipt should reach).
    private static func isHEIC(_ bytes: Data) -> Bool {
        let head = [UInt8](bytes.prefix(64))
        guard head.count >= 16 else { return false }
        let size = min(head.count, Int(head[0]) << 24 | Int(head[1]) << 16 | Int(head[2]) << 8 | Int(head[3]))
        func brand(at offset: Int) -> String { String(decoding: head[offset..<offset + 4], as: UTF8.self) }
        let major = brand(at: 8)
        let compatible = stride(from: 16, to: size - 3, by: 4).map(brand)
        guard !([major] + compatible).contains(where: { $0.hasPrefix("avi") }) else { return false }
        return hevcBrands.contains(major) || heifBrands.contains(major) && compatible.contains(where: hevcBrands.contains)
    }

    /// The refusal of a file that is none of the kinds taken.
    public static let notTaken = TallyError(.unsupportedType, "A receipt must be a photo (JPEG, PNG, WebP or HEIC) or a PDF; this file is none of them.")
    /// The refusal of a file bigger than `maximumBytes`.
    public static let tooBig = TallyError(.tooLarge, "A receipt can be at most 10 MB; this file is bigger. Take the photo again at a lower resolution.")
    /// The refusal of an empty body.
    public static let empty = TallyError.invalid("The receipt is empty: send the photo or PDF as the body.")
}

/// A receipt as it is kept with its entry.
public struct ReceiptFile: Sendable, Equatable {
    public var format: ReceiptFormat
    public var bytes: Data
    /// A small JPEG for lists; none for a PDF.
    public var thumbnail: Data?
    public var attachedAt: Date

    public init(format: ReceiptFormat, bytes: Data, thumbnail: Data?, attachedAt: Date) {
        self.format = format
        self.bytes = bytes
        self.thumbnail = thumbnail
        self.attachedAt = attachedAt
    }
}
