import ArgumentParser
import Foundation
import TallyAPI
import TallyCore
import TallyImport

extension ExpensesCommand {
    /// The photo or PDF kept with an expense or payment: attached from a file, saved to one,
    /// removed, or described.
    struct Receipt: TallyCommand {
        static let configuration = CommandConfiguration(
            commandName: "receipt", abstract: "Attach a receipt (a photo or PDF) to an expense or payment, save it to a file, or remove it.",
            discussion: """
                With a file, keeps it as the entry's receipt in place of any before it: a photo (JPEG, PNG, \
                WebP or HEIC) upright, at most 2000 pixels long and without its metadata, so the camera's \
                GPS position is not kept; a PDF as it is. A receipt is at most 10 MB. With no file, --save \
                or --remove, says what receipt the entry has.
                """)
        @Argument(help: ArgumentHelp("Its id, or the id's first characters.", valueName: "id"))
        var id: String
        @Argument(help: ArgumentHelp("The photo or PDF to attach.", valueName: "file"))
        var file: String?
        @Option(help: ArgumentHelp("Write the receipt to this file.", valueName: "file"))
        var save: String?
        @Flag(help: "Remove the receipt.")
        var remove = false
        @OptionGroup var ledger: LedgerOption
        @OptionGroup var options: CommonOptions

        func run(in context: CommandContext) async throws {
            guard [file != nil, save != nil, remove].filter({ $0 }).count <= 1 else {
                throw TallyError.invalid("Give a file to attach, --save or --remove: one of them, not several.")
            }
            // A file that cannot be attached is refused before anything is asked of the ledger.
            let upload = try file.map(ReceiptFileToAttach.init(reading:))
            let ledger = try await context.ledger(ledger)
            let matching = try await context.spending.entryIDs(startingWith: id, in: ledger.id, .all)
            let entryID = try ledger.entryID(id, matching: matching)
            if let upload {
                let entry = try await context.spending.attachReceipt(upload.bytes, mediaType: upload.mediaType, to: entryID, in: ledger.id)
                try emit(entry, context) { ReceiptText.attached(entry, ledger) }
            } else if remove {
                let entry = try await context.spending.removeReceipt(of: entryID, in: ledger.id)
                try emit(entry, context) { ReceiptText.removed(entry, ledger) }
            } else if let save {
                let receipt = try await context.spending.receipt(of: entryID, in: ledger.id)
                try await ExportFile.write(to: save) { try $0.write(contentsOf: receipt.bytes) }
                try emit(ReceiptJSON(entry: entryID, receipt, file: save), context) { ReceiptText.saved(receipt, to: save) }
            } else {
                let entry = try await context.spending.entry(entryID, in: ledger.id)
                let receipt = entry.receipt == nil ? nil : try await context.spending.receipt(of: entryID, in: ledger.id)
                try emit(ReceiptJSON(entry: entryID, receipt), context) { ReceiptText.kept(receipt, with: entry, ledger) }
            }
        }
    }
}

/// A receipt to attach, read from disk before anything is sent: a file that cannot be read, is
/// empty or is bigger than a receipt may be is refused here, in words.
struct ReceiptFileToAttach {
    let bytes: Data
    /// What the file's name says it is, sent as the upload's `Content-Type`; what is kept is
    /// decided by the bytes alone.
    let mediaType: String

    init(reading path: String) throws {
        let url = URL(fileURLWithPath: (path as NSString).expandingTildeInPath)
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            // One byte more than a receipt may be is enough to refuse a bigger file, whatever its size.
            bytes = try handle.read(upToCount: ReceiptUpload.maximumBytes + 1) ?? Data()
        } catch {
            throw DrinkCSV.missing(url)
        }
        guard bytes.count <= ReceiptUpload.maximumBytes else { throw ReceiptUpload.tooBig }
        guard !bytes.isEmpty else { throw TallyError.invalid("\(path) is empty: attach a photo or a PDF.") }
        mediaType = Self.mediaType(ofFileNamed: url.lastPathComponent)
    }

    static func mediaType(ofFileNamed name: String) -> String {
        switch (name as NSString).pathExtension.lowercased() {
        case "jpg", "jpeg": "image/jpeg"
        case "png": "image/png"
        case "webp": "image/webp"
        case "heic", "heif": "image/heic"
        case "pdf": "application/pdf"
        default: "application/octet-stream"
        }
    }
}

/// What `tally expenses receipt ID --json` prints: the media type the entry's receipt is kept as
/// (as an entry's `receipt` gives it) and its size, both null when it has none; after --save,
/// the file it was written to.
struct ReceiptJSON: Encodable {
    var entry: UUID
    @ExplicitNull var receipt: ReceiptFormat?
    @ExplicitNull var bytes: Int?
    var file: String?

    init(entry: UUID, _ kept: KeptReceipt?, file: String? = nil) {
        self.entry = entry
        receipt = kept?.format
        bytes = kept?.bytes.count
        self.file = file
    }
}
