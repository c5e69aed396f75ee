import Foundation
import TallyAPI
import TallyCore
import TallyServices

extension LedgerExport {
    /// An entry of the JSON export: the entry as the API gives it, and beside its `receipt` (the
    /// media type) the receipt's file, so that a restore brings the receipt back. Its fields read
    /// as the entry's.
    @dynamicMemberLookup
    public struct Entry: Codable, Sendable {
        public var entry: EntryJSON
        /// Absent when the entry has no receipt, and in an export made before receipts were part of it.
        public var receiptFile: Receipt?

        public init(_ entry: EntryJSON, receiptFile: Receipt?) {
            self.entry = entry
            self.receiptFile = receiptFile
        }

        /// The entry with its receipt's file, read from the ledger; a receipt removed since the
        /// entry was read is none.
        init(_ entry: SpendingEntry, in ledger: UUID, spending: SpendingService) async throws {
            var json = try EntryJSON(entry)
            var file: ReceiptFile?
            if entry.receipt != nil {
                do {
                    file = try await spending.receipt(of: entry.id, in: ledger)
                } catch let error as TallyError where error.kind == .notFound {
                    file = nil
                }
            }
            // The media type of the file written, should it have been replaced in between.
            json.receipt = file?.format
            self.init(json, receiptFile: file.map(Receipt.init))
        }

        public subscript<Value>(dynamicMember path: KeyPath<EntryJSON, Value>) -> Value { entry[keyPath: path] }

        private enum CodingKeys: String, CodingKey {
            case receiptFile
        }

        // One object: the entry's keys, and `receiptFile` among them.
        public init(from decoder: any Decoder) throws {
            entry = try EntryJSON(from: decoder)
            receiptFile = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(Receipt.self, forKey: .receiptFile)
        }

        public func encode(to encoder: any Encoder) throws {
            try entry.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(receiptFile, forKey: .receiptFile)
        }
    }

    /// A receipt's file in the JSON export: its media type, when it was attached, and the file and
    /// its small copy in base64 (a third bigger than they are kept).
    public struct Receipt: Codable, Sendable, Equatable {
        /// One of `ReceiptFormat`'s media types, as the entry's `receipt` says.
        public var mediaType: String
        public var attachedAt: Date
        /// The photo or PDF, in base64.
        public var data: String
        /// The small JPEG a list shows, in base64; absent for a PDF.
        public var thumbnail: String?

        public init(_ file: ReceiptFile) {
            mediaType = file.format.mediaType
            attachedAt = file.attachedAt
            data = file.bytes.base64EncodedString()
            thumbnail = file.thumbnail?.base64EncodedString()
        }

        /// The receipt as it is kept. Refused when its media type is not one Tally keeps, or its
        /// file or small copy is not base64, bigger than an upload may be, or not of its type by
        /// its own bytes (a restore takes no file an upload would not).
        public func file() throws -> ReceiptFile {
            guard let format = ReceiptFormat(rawValue: mediaType) else {
                throw TallyError.invalid(
                    "its receipt's mediaType \(UserText.quoted(mediaType)) is not one Tally keeps (image/jpeg, image/png or application/pdf)")
            }
            return ReceiptFile(format: format, bytes: try Self.bytes(data, named: "data", of: format),
                               thumbnail: try thumbnail.map { try Self.bytes($0, named: "thumbnail", of: .jpeg) }, attachedAt: attachedAt)
        }

        /// The bytes `base64` holds, a file of `format`; `name` is the field's, for a refusal.
        private static func bytes(_ base64: String, named name: String, of format: ReceiptFormat) throws -> Data {
            let field = Phrase.verbatim(name)
            guard let bytes = Data(base64Encoded: base64) else {
                throw TallyError.invalid("its receipt's \(field) is not base64")
            }
            guard bytes.count <= ReceiptUpload.maximumBytes else {
                throw TallyError.invalid("its receipt's \(field) is bigger than 10 MB, the most a receipt can be")
            }
            switch (ReceiptUpload(sniffing: bytes), format) {
            case (.jpeg?, .jpeg), (.png?, .png), (.pdf?, .pdf):
                return bytes
            default:
                throw TallyError.invalid("its receipt's \(field) is not a file of the type \(format.mediaType)")
            }
        }
    }
}
