import GRDB
import PriceWatchCore

/// The `job_run` table: the last run of each scheduled job.
enum JobRunTable {
    /// Inserts or replaces the run of its job.
    static func upsert(_ run: JobRun, in db: Database) throws {
        try db.execute(sql: """
            INSERT INTO job_run (job, due, outcome, finished_at, error) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (job) DO UPDATE SET
                due = excluded.due, outcome = excluded.outcome, finished_at = excluded.finished_at,
                error = excluded.error
            """, arguments: [run.job, run.due.milliseconds, run.outcome.rawValue, run.finishedAt?.milliseconds, run.error])
    }

    /// Every job's last run.
    static func all(in db: Database) throws -> [String: JobRun] {
        let rows = try Row.fetchCursor(db, sql: "SELECT job, due, outcome, finished_at, error FROM job_run")
        var runs: [String: JobRun] = [:]
        while let row = try rows.next() {
            let outcomeText = try row.decode(String.self, atIndex: 2)
            guard let outcome = JobRun.Outcome(rawValue: outcomeText) else {
                throw StoreFault.invalidValue(table: "job_run", column: "outcome", value: outcomeText)
            }
            let job = try row.decode(String.self, atIndex: 0)
            runs[job] = JobRun(
                job: job,
                due: Timestamp(milliseconds: try row.decode(Int64.self, atIndex: 1)),
                outcome: outcome,
                finishedAt: try row.decode(Int64?.self, atIndex: 3).map(Timestamp.init(milliseconds:)),
                error: try row.decode(String?.self, atIndex: 4))
        }
        return runs
    }
}
