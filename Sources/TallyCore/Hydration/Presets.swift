import Foundation

/// The quick-add amounts of the today screen (H4): 3 or 4, each a valid drink.
public struct Presets: Equatable, Sendable {
    public var amountsMl: [Double]

    public static let countRange = 3...4

    /// The defaults in `unit`: 100, 250, 500 ml or 4, 8, 16 oz.
    public static func defaults(for unit: VolumeUnit) -> Presets {
        switch unit {
        case .ml: Presets(checked: [100, 250, 500])
        case .oz: Presets(checked: [4, 8, 16].map { VolumeUnit.oz.toMilliliters($0) })
        }
    }

    private init(checked amounts: [Double]) { amountsMl = amounts }

    /// Amounts as a document wrote them (a backup), checked by whoever applies them, in the
    /// unit of the settings they come with.
    public init(asWritten amountsMl: [Double]) { self.amountsMl = amountsMl }

    public init(amountsMl: [Double], unit: VolumeUnit) throws {
        guard Self.countRange.contains(amountsMl.count) else {
            throw TallyError.invalid("Give 3 or 4 preset amounts; \(amountsMl.count) were given.")
        }
        for amount in amountsMl {
            try EntryVolume.validate(amount, unit: unit, what: Phrase("A preset"))
        }
        self.amountsMl = amountsMl
    }
}
