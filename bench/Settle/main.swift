import Foundation
import TallyCore

// Times the exact settle-up plan (S4) for 20 non-zero balances, the most it solves exactly
// (2^20 subsets), on random ledgers: the target is under 100 ms.
//
//   swift run -c release tally-bench-settle [RUNS]

let runs = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 20
/// 20 non-zero balances in cents that sum to zero.
func randomBalances(_ count: Int) -> [(MemberID, Int64)] {
    var values = (0..<count - 1).map { _ in Int64.random(in: 1...50_000) * (Bool.random() ? 1 : -1) }
    var last = -values.reduce(0, +)
    if last == 0 { values[0] += 1; last = -1 }
    values.append(last)
    return values.enumerated().map { (MemberID($0.offset + 1), $0.element) }
}

func time(_ body: () -> Int) -> (seconds: Double, transfers: Int) {
    let start = DispatchTime.now().uptimeNanoseconds
    let transfers = body()
    return (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9, transfers)
}

func report(_ name: String, count: Int) {
    var times: [Double] = []
    var transfers: [Int] = []
    for _ in 0..<runs {
        let balances = randomBalances(count)
        let (seconds, steps) = time { SettlementPlan.fewestTransfers(balances).count }
        times.append(seconds)
        transfers.append(steps)
    }
    times.sort()
    func ms(_ value: Double) -> String { String(format: "%.1f ms", value * 1000) }
    print("\(name.padding(toLength: 34, withPad: " ", startingAt: 0)) min \(ms(times.first!))  median \(ms(times[times.count / 2]))  max \(ms(times.last!))  (\(runs) runs, \(transfers.min()!)–\(transfers.max()!) transfers)")
}

report("exact plan, 20 non-zero balances", count: 20)
report("exact plan, 16 non-zero balances", count: 16)
report("greedy plan, 50 non-zero balances", count: 50)
