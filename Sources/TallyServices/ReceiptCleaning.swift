import CReceiptImages
import Foundation
import TallyCore

/// A receipt as it is kept: a photo decoded and written again with none of its metadata (a
/// phone's photo carries the shop's GPS position, and so the household's routine), upright and
/// at most `ReceiptUpload.longSide` pixels long, with a small copy for lists; a PDF as it came.
enum ReceiptCleaning {
    /// Photos are decoded one at a time on the whole server: each may take up to
    /// `ReceiptUpload.maximumWholeDecodeBytes` of memory at once.
    private static let decoding = DispatchQueue(label: "tally receipt photos", qos: .userInitiated)

    /// The receipt `bytes` make, sniffed as `kind`, attached at `at`. Photos are cleaned on a
    /// thread of their own (a 12-megapixel photo takes a tenth of a second), never the caller's.
    static func cleaned(_ bytes: Data, as kind: ReceiptUpload, at: Date) async throws -> ReceiptFile {
        guard kind != .pdf else { return ReceiptFile(format: .pdf, bytes: bytes, thumbnail: nil, attachedAt: at) }
        return try await withCheckedThrowingContinuation { continuation in
            decoding.async {
                continuation.resume(with: Result { try cleanedPhoto(bytes, at: at) })
            }
        }
    }

    private static func cleanedPhoto(_ bytes: Data, at: Date) throws -> ReceiptFile {
        var image = tally_receipt_image()
        var message = [CChar](repeating: 0, count: 256)
        let result = bytes.withUnsafeBytes { raw in
            tally_receipt_image_clean(raw.baseAddress, raw.count, Int32(ReceiptUpload.longSide), Int32(ReceiptUpload.thumbnailSide),
                                      ReceiptUpload.maximumPixels, ReceiptUpload.maximumWholeDecodeBytes, &image, &message, message.count)
        }
        defer { tally_receipt_image_free(&image) }
        switch result {
        case Int32(TALLY_IMAGE_DONE):
            return ReceiptFile(format: image.is_png != 0 ? .png : .jpeg,
                               bytes: Data(bytes: image.image, count: image.image_length),
                               thumbnail: Data(bytes: image.thumbnail, count: image.thumbnail_length), attachedAt: at)
        case Int32(TALLY_IMAGE_NO_LIBRARY):
            throw TallyError(.unsupportedType, "This server cannot read photos (its libvips is missing), so it takes only PDF receipts; tell whoever runs it.")
        case Int32(TALLY_IMAGE_TOO_LARGE):
            throw TallyError(.tooLarge, "This photo has more than 200 million pixels; take it again at a lower resolution.")
        case Int32(TALLY_IMAGE_TOO_LARGE_WHOLE):
            throw TallyError(.tooLarge, "This photo is too large for the way it is saved (progressive, interlaced or HEIC, which are read whole); save it again at a lower resolution, or as an ordinary JPEG.")
        default:
            throw TallyError.invalid("This photo could not be read: it may be damaged or cut short. Take it again, or attach a PDF.")
        }
    }
}
