import Foundation
import TallyAPI
import TallyCore
@testable import TallyRepositories
@testable import TallyServices
import Testing

extension ReceiptFile {
    /// A photo as the service hands it to the store. The store never decodes it, so a few bytes
    /// stand for one: a JPEG's signature, `mark`, and every byte value (a zero byte ends no blob).
    static func photo(_ mark: UInt8, at: Date) -> ReceiptFile {
        ReceiptFile(format: .jpeg, bytes: Data([0xFF, 0xD8, 0xFF, 0xE0, mark] + (0...255).map(UInt8.init) + [0xFF, 0xD9]),
                    thumbnail: Data([0xFF, 0xD8, 0xFF, 0xDB, mark, 0x00, 0xFF, 0xD9]), attachedAt: at)
    }

    /// A PDF, kept as it came and with no small copy.
    static func pdf(_ mark: UInt8, at: Date) -> ReceiptFile {
        ReceiptFile(format: .pdf, bytes: Data("%PDF-1.7\n%\u{E2}\u{E3}\n1 0 obj <<>> endobj\n".utf8) + Data([mark, 0x00]) + Data("\n%%EOF\n".utf8),
                    thumbnail: nil, attachedAt: at)
    }
}

/// The formats of the entries that have a receipt, by entry.
func receiptFormats(_ entries: [SpendingEntry]) -> [UUID: ReceiptFormat] {
    Dictionary(uniqueKeysWithValues: entries.compactMap { entry in entry.receipt.map { (entry.id, $0) } })
}

/// Alex and Sam's ledger with Alex's dinner and Sam's bread, neither with a receipt yet.
struct ReceiptFixture {
    let l: LedgerFixture
    let ledger: UUID
    /// The id Alex's app sent the dinner with.
    let dinnerKey = UUID()
    let dinner: SpendingEntry
    let bread: SpendingEntry

    var store: any TallyStorage { l.f.store }
    var alex: UUID { l.alex.user }
    var now: Date { l.f.clock.now }

    init(_ kind: StoreKind) async throws {
        l = try await LedgerFixture(kind)
        ledger = try await l.shared().ledger.id
        dinner = try await l.alex.addExpense(to: ledger, .init(id: dinnerKey, amount: .text("42.50"), description: "Dinner")).entry
        bread = try await l.expense("3.20", by: l.sam, in: ledger, "Bread")
    }

    /// Keeps `receipt` as the entry's (nil: removes it), as Alex unless `user`, with the note the
    /// service writes.
    @discardableResult
    func keep(_ receipt: ReceiptFile?, of entry: UUID, in ledger: UUID? = nil, by user: UUID? = nil) async throws -> SpendingEntry {
        try await store.keepReceipt(receipt, of: entry, in: ledger ?? self.ledger, by: user ?? alex, at: now) { entry, _ in
            let title = entry.description ?? "an entry"
            return ActivityNote(receipt == nil ? "Removed the receipt of \(title)." : "Attached a receipt to \(title).", entryID: entry.id)
        }
    }

    func receipt(of entry: UUID, in ledger: UUID? = nil, by user: UUID? = nil, thumbnail: Bool = false) async throws -> ReceiptFile? {
        try await store.receipt(of: entry, in: ledger ?? self.ledger, of: user ?? alex, thumbnail: thumbnail)
    }

    /// The entries' receipt formats as each read of a ledger's entries gives them: one entry,
    /// a page of each listing, and the ledger's page (its history and its deleted entries).
    func formatsAsRead(of entry: UUID, by user: UUID? = nil) async throws
        -> (entry: ReceiptFormat?, current: [UUID: ReceiptFormat], all: [UUID: ReceiptFormat], deleted: [UUID: ReceiptFormat],
            overview: [UUID: ReceiptFormat], overviewDeleted: [UUID: ReceiptFormat]) {
        let user = user ?? alex
        func page(_ listing: EntryListing) async throws -> [UUID: ReceiptFormat] {
            receiptFormats(try await store.entries(in: ledger, of: user, listing, matching: .everything, limit: 10, after: nil))
        }
        let overview = try await store.overview(of: ledger, of: user, matching: .everything, limit: 10, after: nil, deletedLimit: 5,
                                                spentSince: YearMonth(year: 2026, month: 1)!)
        return (try await store.entry(entry, in: ledger, of: user).receipt, try await page(.current), try await page(.all),
                try await page(.deleted), receiptFormats(overview.entries), receiptFormats(overview.deleted))
    }
}

/// An expense's or a payment's receipt, kept in a table of its own: kept, replaced, read whole or
/// as its small copy, removed, and named by every read of its entry, the same on both stores.
@Suite("Receipts in the store")
struct ReceiptContractTests {
    @Test("A kept receipt reads back byte for byte, by every member, and every read of its entry names its format",
          arguments: StoreKind.allCases)
    func keepsAndReads(_ kind: StoreKind) async throws {
        let r = try await ReceiptFixture(kind)
        #expect(try await r.receipt(of: r.dinner.id) == nil, "no receipt yet")
        #expect(r.dinner.receipt == nil)

        let photo = ReceiptFile.photo(1, at: r.now)
        let kept = try await r.keep(photo, of: r.dinner.id)

        #expect(kept.id == r.dinner.id && kept.receipt == .jpeg)
        #expect(kept.description == "Dinner" && kept.amount == r.dinner.amount, "the entry is returned as it is")
        #expect(try await r.receipt(of: r.dinner.id) == photo)
        #expect(try await r.receipt(of: r.dinner.id, by: r.l.sam.user) == photo, "Sam, a member, reads Alex's receipt")
        #expect(try await r.receipt(of: r.bread.id) == nil, "the other entry has none")
        let read = try await r.formatsAsRead(of: r.dinner.id, by: r.l.sam.user)
        #expect(read.entry == .jpeg)
        #expect(read.current == [r.dinner.id: .jpeg] && read.all == [r.dinner.id: .jpeg])
        #expect(read.overview == [r.dinner.id: .jpeg])
        #expect(try await r.store.entry(r.bread.id, in: r.ledger, of: r.alex).receipt == nil)
        let sentAgain = try await r.l.alex.addExpense(to: r.ledger, .init(id: r.dinnerKey, amount: .text("42.50"), description: "Dinner"))
        #expect(!sentAgain.created && sentAgain.entry.receipt == .jpeg, "the dinner sent again is the one stored, with its receipt")
    }

    @Test("A second receipt takes the place of the first, whatever its format", arguments: StoreKind.allCases)
    func replaces(_ kind: StoreKind) async throws {
        let r = try await ReceiptFixture(kind)
        try await r.keep(.photo(1, at: r.now), of: r.dinner.id)

        let pdf = ReceiptFile.pdf(2, at: r.now + 60)
        let kept = try await r.keep(pdf, of: r.dinner.id)

        #expect(kept.receipt == .pdf)
        #expect(try await r.receipt(of: r.dinner.id) == pdf, "the PDF's bytes, its time and no small copy: nothing of the photo")
        #expect(try await r.formatsAsRead(of: r.dinner.id).current == [r.dinner.id: .pdf])
        // and back to a photo: the small copy comes with it
        let photo = ReceiptFile.photo(3, at: r.now + 120)
        try await r.keep(photo, of: r.dinner.id)
        #expect(try await r.receipt(of: r.dinner.id) == photo)
    }

    @Test("The small copy is read without the receipt's bytes; a PDF has none", arguments: StoreKind.allCases)
    func thumbnail(_ kind: StoreKind) async throws {
        let r = try await ReceiptFixture(kind)
        let photo = ReceiptFile.photo(1, at: r.now), pdf = ReceiptFile.pdf(2, at: r.now + 1)
        try await r.keep(photo, of: r.dinner.id)
        try await r.keep(pdf, of: r.bread.id)

        let small = try #require(try await r.receipt(of: r.dinner.id, thumbnail: true))
        #expect(small == ReceiptFile(format: .jpeg, bytes: Data(), thumbnail: photo.thumbnail, attachedAt: photo.attachedAt))
        #expect(try await r.receipt(of: r.bread.id, thumbnail: true)
                    == ReceiptFile(format: .pdf, bytes: Data(), thumbnail: nil, attachedAt: pdf.attachedAt))
        #expect(try await r.receipt(of: r.dinner.id) == photo, "reading the small copy left the bytes as they were")
    }

    @Test("Removing the receipt clears it from its entry and from every read", arguments: StoreKind.allCases)
    func removes(_ kind: StoreKind) async throws {
        let r = try await ReceiptFixture(kind)
        try await r.keep(.photo(1, at: r.now), of: r.dinner.id)
        let pdf = ReceiptFile.pdf(2, at: r.now)
        try await r.keep(pdf, of: r.bread.id)

        let removed = try await r.keep(nil, of: r.dinner.id)

        #expect(removed.id == r.dinner.id && removed.receipt == nil)
        #expect(try await r.receipt(of: r.dinner.id) == nil)
        #expect(try await r.receipt(of: r.dinner.id, thumbnail: true) == nil)
        let read = try await r.formatsAsRead(of: r.dinner.id)
        #expect(read.entry == nil)
        #expect(read.current == [r.bread.id: .pdf] && read.overview == [r.bread.id: .pdf], "the other entry keeps its own")
        #expect(try await r.receipt(of: r.bread.id) == pdf)
    }

    @Test("Someone who is not a member neither keeps, removes nor reads a receipt: not found, and nothing changes",
          arguments: StoreKind.allCases)
    func membersOnly(_ kind: StoreKind) async throws {
        let r = try await ReceiptFixture(kind)
        let photo = ReceiptFile.photo(1, at: r.now)
        try await r.keep(photo, of: r.dinner.id)
        let revision = try await r.store.revision(of: r.ledger, of: r.alex)
        let stranger = try await r.l.f.otherUser("bob").user
        let refusal = StoreRefusal.noLedger(r.ledger)
        #expect(refusal.kind == .notFound)

        await #expect(throws: refusal) { try await r.keep(.pdf(2, at: r.now), of: r.dinner.id, by: stranger) }
        await #expect(throws: refusal) { try await r.keep(nil, of: r.dinner.id, by: stranger) }
        await #expect(throws: refusal) { try await r.keep(.pdf(2, at: r.now), of: r.bread.id, by: stranger) }
        await #expect(throws: refusal) { try await r.receipt(of: r.dinner.id, by: stranger) }
        await #expect(throws: refusal) { try await r.receipt(of: r.dinner.id, by: stranger, thumbnail: true) }

        #expect(try await r.receipt(of: r.dinner.id) == photo)
        #expect(try await r.receipt(of: r.bread.id) == nil)
        #expect(try await r.store.revision(of: r.ledger, of: r.alex) == revision, "nothing was logged")
    }

    @Test("An entry is looked for in the ledger named only: another ledger's entry, or no entry, is not found",
          arguments: StoreKind.allCases)
    func entryOfAnotherLedger(_ kind: StoreKind) async throws {
        let r = try await ReceiptFixture(kind)
        let trip = try await r.l.alex.createLedger(name: "Trip", currency: "EUR").ledger.id
        let taxi = try await r.l.expense("18", by: r.l.alex, in: trip, "Taxi")
        let photo = ReceiptFile.photo(1, at: r.now)
        try await r.keep(photo, of: taxi.id, in: trip)
        let nothing = UUID()

        // Alex is a member of both ledgers: the entry is still not in this one.
        await #expect(throws: StoreRefusal.noLedgerEntry(taxi.id)) { try await r.keep(.pdf(2, at: r.now), of: taxi.id) }
        await #expect(throws: StoreRefusal.noLedgerEntry(taxi.id)) { try await r.keep(nil, of: taxi.id) }
        await #expect(throws: StoreRefusal.noLedgerEntry(taxi.id)) { try await r.receipt(of: taxi.id) }
        await #expect(throws: StoreRefusal.noLedgerEntry(taxi.id)) { try await r.receipt(of: taxi.id, thumbnail: true) }
        await #expect(throws: StoreRefusal.noLedgerEntry(nothing)) { try await r.keep(.pdf(2, at: r.now), of: nothing) }
        await #expect(throws: StoreRefusal.noLedgerEntry(nothing)) { try await r.receipt(of: nothing) }
        #expect(StoreRefusal.noLedgerEntry(taxi.id).kind == .notFound)

        #expect(try await r.receipt(of: taxi.id, in: trip) == photo, "the taxi's receipt is left alone")
        #expect(try await r.formatsAsRead(of: r.dinner.id).all.isEmpty, "and none arrived in this ledger")
    }

    @Test("Changing an entry keeps its receipt: an edit, even one whose entry says none, a delete and a restore",
          arguments: StoreKind.allCases)
    func changesKeepIt(_ kind: StoreKind) async throws {
        let r = try await ReceiptFixture(kind)
        let photo = ReceiptFile.photo(1, at: r.now)
        try await r.keep(photo, of: r.dinner.id)

        let edited = try await r.store.changeEntry(r.dinner.id, in: r.ledger, by: r.alex, at: r.now + 60) { entry, _ in
            #expect(entry.receipt == .jpeg, "the change sees the entry with its receipt")
            entry.description = "Dinner out"
            entry.receipt = nil // what a change does to the entry is no way to remove its receipt
            return ActivityNote("Edited Dinner.", entryID: entry.id)
        }
        #expect(edited.description == "Dinner out" && edited.receipt == .jpeg)
        #expect(try await r.receipt(of: r.dinner.id) == photo)
        #expect(try await r.formatsAsRead(of: r.dinner.id).current == [r.dinner.id: .jpeg])

        // A deleted entry keeps its receipt, listed with the deleted entries, until it is restored.
        #expect(try await r.l.alex.deleteEntry(r.dinner.id, in: r.ledger).receipt == .jpeg)
        let deleted = try await r.formatsAsRead(of: r.dinner.id)
        #expect(deleted.entry == .jpeg && deleted.current.isEmpty)
        #expect(deleted.deleted == [r.dinner.id: .jpeg] && deleted.overviewDeleted == [r.dinner.id: .jpeg])
        #expect(try await r.receipt(of: r.dinner.id) == photo)
        #expect(try await r.l.alex.restoreEntry(r.dinner.id, in: r.ledger).receipt == .jpeg)
        #expect(try await r.formatsAsRead(of: r.dinner.id).overview == [r.dinner.id: .jpeg])
        #expect(try await r.receipt(of: r.dinner.id) == photo)
    }

    @Test("Keeping and removing a receipt each log their note, made from the entry as it was, and move the revision on; a refused note keeps nothing",
          arguments: StoreKind.allCases)
    func logsItsNote(_ kind: StoreKind) async throws {
        let r = try await ReceiptFixture(kind)
        var seen = try await r.store.revision(of: r.ledger, of: r.alex)
        let photo = ReceiptFile.photo(1, at: r.now)

        try await r.keep(photo, of: r.dinner.id)
        let attached = try await r.store.revision(of: r.ledger, of: r.alex)
        #expect(attached > seen)
        let first = try #require(try await r.store.activity(in: r.ledger, of: r.l.sam.user, limit: 1, offset: 0).first)
        #expect(first.text == "Attached a receipt to Dinner." && first.entryID == r.dinner.id && first.actor == "alex")
        #expect(first.at == r.now)
        seen = attached

        // A note that refuses (as the service's does for a deleted entry) leaves the receipt before in place.
        let refused = TallyError.conflict("This entry is deleted; restore it to change its receipt.")
        await #expect(throws: refused) {
            try await r.store.keepReceipt(.pdf(2, at: r.now), of: r.dinner.id, in: r.ledger, by: r.alex, at: r.now) { _, _ in throw refused }
        }
        #expect(try await r.receipt(of: r.dinner.id) == photo)
        #expect(try await r.store.revision(of: r.ledger, of: r.alex) == seen, "nothing was logged")

        // The note is made from the entry as it was: with the receipt that is going.
        try await r.store.keepReceipt(nil, of: r.dinner.id, in: r.ledger, by: r.l.sam.user, at: r.now + 60) { entry, details in
            ActivityNote("Removed the \(entry.receipt?.mediaType ?? "missing") receipt of \(entry.description ?? "?") in \(details.ledger.name).",
                         entryID: entry.id)
        }
        #expect(try await r.store.revision(of: r.ledger, of: r.alex) > seen)
        let last = try #require(try await r.store.activity(in: r.ledger, of: r.alex, limit: 1, offset: 0).first)
        #expect(last.text == "Removed the image/jpeg receipt of Dinner in Home." && last.actor == "sam" && last.at == r.now + 60)
    }

    @Test("A receipt as large as one may be is kept byte for byte", arguments: StoreKind.allCases)
    func largest(_ kind: StoreKind) async throws {
        let r = try await ReceiptFixture(kind)
        // The bytes of a scanned PDF: no run repeats, so nothing on the way compresses them away.
        var bytes = Data(count: ReceiptUpload.maximumBytes)
        bytes.withUnsafeMutableBytes { buffer in
            var state: UInt64 = 0x9E37_79B9_7F4A_7C15
            for index in buffer.indices {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                buffer[index] = UInt8(truncatingIfNeeded: state >> 56)
            }
        }
        let scan = ReceiptFile(format: .pdf, bytes: bytes, thumbnail: nil, attachedAt: r.now)

        try await r.keep(scan, of: r.dinner.id)

        let read = try #require(try await r.receipt(of: r.dinner.id))
        #expect(read.bytes.count == ReceiptUpload.maximumBytes)
        #expect(read == scan)
    }
}
