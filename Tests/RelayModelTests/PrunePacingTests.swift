import RelayModel
import Testing

@Suite struct PrunePacingTests {
    @Test func withoutABudgetBatchesAreTheLargestAndThePauseIsTheWait() {
        var pacing = PrunePacing(largestBatch: 1_000, pause: .milliseconds(100), walBytesPerSecond: 0)
        #expect(pacing.batch == 1_000)
        #expect(pacing.after(rows: 1_000, walBytes: 50 << 20, took: .milliseconds(5)) == .milliseconds(100))
        #expect(pacing.batch == 1_000, "the WAL written changes nothing without a budget")
    }

    @Test func aBudgetSizesEachBatchToAQuarterSecondOfIt() {
        // 1 MiB a second: a batch should write at most 256 KiB.
        var pacing = PrunePacing(largestBatch: 5_000, pause: .zero, walBytesPerSecond: 1 << 20)
        #expect(pacing.batch == 100, "the first batch is small: it measures the WAL a row costs")
        // 100 rows wrote 512 KiB (5,242 bytes a row): 50 rows fit in 256 KiB.
        let wait = pacing.after(rows: 100, walBytes: 512 << 10, took: .milliseconds(100))
        #expect(pacing.batch == 50)
        #expect(wait == .milliseconds(400), "half a second of budget was spent, 100 ms of it in the batch itself")
    }

    @Test func cheapRowsGrowTheBatchAtMostTwofoldUpToTheLargest() {
        var pacing = PrunePacing(largestBatch: 300, pause: .milliseconds(20), walBytesPerSecond: 4 << 20)
        _ = pacing.after(rows: 100, walBytes: 10_000, took: .milliseconds(1))
        #expect(pacing.batch == 200, "at most twice the last batch")
        let wait = pacing.after(rows: 200, walBytes: 20_000, took: .milliseconds(1))
        #expect(pacing.batch == 300, "never more than the largest batch")
        #expect(wait == .milliseconds(20), "the pause is the least wait")
    }

    @Test func costlyRowsShrinkTheBatchButNotBelowTen() {
        var pacing = PrunePacing(largestBatch: 1_000, pause: .zero, walBytesPerSecond: 64 << 10)
        _ = pacing.after(rows: 100, walBytes: 100 << 20, took: .milliseconds(10))
        #expect(pacing.batch == PrunePacing.smallestBatch)
        var tiny = PrunePacing(largestBatch: 2, pause: .zero, walBytesPerSecond: 64 << 10)
        _ = tiny.after(rows: 2, walBytes: 100 << 20, took: .zero)
        #expect(tiny.batch == 2, "a largest batch under ten is kept")
    }

    @Test func hostileFiguresNeverStallOrTrap() {
        var pacing = PrunePacing(largestBatch: 1_000, pause: .milliseconds(-5), walBytesPerSecond: 1)
        #expect(pacing.after(rows: 1_000, walBytes: .max, took: .zero) == .seconds(60), "a wait is at most a minute")
        #expect(pacing.after(rows: 0, walBytes: -1, took: .seconds(1)) == .zero, "a negative pause or WAL figure waits nothing")
        let before = pacing.batch
        _ = pacing.after(rows: 0, walBytes: 0, took: .zero)
        #expect(pacing.batch == before, "an empty batch says nothing of a row's cost")
    }

    @Test func anUnreadableWALPositionLeavesThePauseAlone() {
        var pacing = PrunePacing(largestBatch: 1_000, pause: .milliseconds(100), walBytesPerSecond: 1 << 20)
        #expect(pacing.after(rows: 100, walBytes: nil, took: .milliseconds(5)) == .milliseconds(100))
        #expect(pacing.batch == 100, "nothing measured, nothing resized")
    }
}
