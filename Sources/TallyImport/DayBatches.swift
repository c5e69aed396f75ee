import Foundation
import TallyCore

/// Entries to store a few thousand to a transaction, in whole days, oldest day first: a day's
/// entries go in together, so that a day's total is checked once and whole, and one long import
/// never holds the database's single writer for more than a batch.
enum DayBatches {
    struct Batch<Item: Sendable>: Sendable {
        var first: LocalDate
        var last: LocalDate
        var items: [Item]
    }

    /// About `size` items a batch (more when one day has more).
    static func of<Item: Sendable>(_ items: [Item], size: Int, day: (Item) -> LocalDate) -> [Batch<Item>] {
        let days = Dictionary(grouping: items, by: day)
        var batches: [Batch<Item>] = []
        for date in days.keys.sorted() {
            let items = days[date]!
            if let last = batches.indices.last, batches[last].items.count + items.count <= size {
                batches[last].items += items
                batches[last].last = date
            } else {
                batches.append(Batch(first: date, last: date, items: items))
            }
        }
        return batches
    }

    /// `items` in runs of at most `size`, in their order.
    static func runs<Item>(_ items: [Item], size: Int) -> [ArraySlice<Item>] {
        stride(from: 0, to: items.count, by: max(1, size)).map { items[$0..<min($0 + max(1, size), items.count)] }
    }
}
