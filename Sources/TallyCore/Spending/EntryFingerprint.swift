import Foundation

extension SpendingEntry {
    /// The entry as a person saw it, in 16 hex digits. A form that changes or deletes an entry
    /// carries it, and the change is refused when the entry has changed since: another member's
    /// edit, made while this person was offline, is never overwritten unseen. FNV-1a over what
    /// the entry says (not a secret: anyone who may see the entry may change it anyway).
    public var fingerprint: String {
        let parts: [String] = [
            kind.rawValue, String(amount.minorUnits), amount.currency.code, String(payer), date.description,
            description ?? "", category ?? "", split.method.rawValue,
        ] + split.parts.map { "\($0.member)=\($0.value)" }
            // A sole payer adds nothing, so the fingerprints pages hold stay what they were.
            + (hasSeveralPayers ? typedPayers.map { "paid \($0.member)=\($0.amount.minorUnits)" } : [])
            // So does an entry in the ledger's own currency.
            + (original.map { ["typed \($0.amount.minorUnits) \($0.amount.currency.code) at \($0.rate.plain)"] } ?? [])
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in parts.joined(separator: "\u{1F}").utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// Refuses a change to an entry that is no longer what the person saw (`seen`, its
    /// fingerprint then); nil: they did not say, as with the API and the command line.
    public func check(seen: String?, describedAs now: @autoclosure () -> Phrase) throws {
        guard let seen, seen != fingerprint else { return }
        throw TallyError.conflict("This entry was changed after you saw it: it is now \(now()). Look at it again, then change or delete it if you still mean to.")
    }
}
