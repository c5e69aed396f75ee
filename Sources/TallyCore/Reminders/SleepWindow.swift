import Foundation

/// The wake window from sleep records (H11, the HealthKit feature of seed 002): the typical
/// time of falling asleep and of waking over the last 7 days.
public enum SleepWindow {
    /// Asleep intervals less than this apart belong to one night (a wake-up at 3 a.m.).
    static let sameNightGap: TimeInterval = 3 * 3600
    /// Sleep shorter than this is a nap, not a night: it does not move the window.
    static let shortestNight: TimeInterval = 3 * 3600
    public static let days = 7

    /// The typical window from `asleep` intervals (Apple Health's asleep records), using the
    /// nights that ended in the 7 days before `now`: the median time of waking and of falling
    /// asleep. Nil without any such night, so the manual times apply, and nil when the two
    /// times come out the same (there is no window to speak of).
    public static func typical(asleep: [DateInterval], now: Date, zone: TimeZone) -> WakeWindow? {
        let since = now.addingTimeInterval(-Double(days) * 86_400)
        let nights = nights(from: asleep).filter { $0.end > since && $0.end <= now && $0.duration >= shortestNight }
        guard !nights.isEmpty else { return nil }
        let wake = median(nights.map { TimeOfDay(of: $0.end, in: zone).minutes }, around: 0)
        // Bedtimes straddle midnight (23:30, 00:15): take the median around noon-to-noon.
        let sleep = median(nights.map { TimeOfDay(of: $0.start, in: zone).minutes }, around: 720)
        guard wake != sleep else { return nil }
        return WakeWindow(wake: TimeOfDay(minutesAfterMidnight: wake), sleep: TimeOfDay(minutesAfterMidnight: sleep))
    }

    /// The typical window for the local day that contains `now`: from the nights that ended in
    /// the 7 days before that day began, so that it stays the same all day long.
    public static func typical(asleep: [DateInterval], forDayOf now: Date, zone: TimeZone) -> WakeWindow? {
        typical(asleep: asleep, now: LocalDate(containing: now, in: zone).start(in: zone), zone: zone)
    }

    /// Asleep intervals joined into nights: from the first falling asleep to the last waking.
    static func nights(from asleep: [DateInterval]) -> [DateInterval] {
        var nights: [DateInterval] = []
        for interval in asleep.sorted(by: { $0.start < $1.start }) {
            if let last = nights.last, interval.start.timeIntervalSince(last.end) < sameNightGap {
                nights[nights.count - 1] = DateInterval(start: last.start, end: max(last.end, interval.end))
            } else {
                nights.append(interval)
            }
        }
        return nights
    }

    /// The median of clock times counted from `origin` (minutes after midnight), so that times
    /// on both sides of midnight compare as the clock goes round from there.
    private static func median(_ values: [Int], around origin: Int) -> Int {
        let shifted = values.map { ($0 - origin + 1440) % 1440 }.sorted()
        let middle = shifted.count / 2
        let value = shifted.count % 2 == 1 ? shifted[middle] : (shifted[middle - 1] + shifted[middle]) / 2
        return (value + origin) % 1440
    }
}
