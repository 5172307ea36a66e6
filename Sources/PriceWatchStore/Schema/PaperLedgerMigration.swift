import GRDB

/// The `paper-ledger` migration: paper-trading accounts, orders, their outcomes and the
/// append-only double-entry ledger.
///
/// - `paper_account`: one row per account (`name`), `WITHOUT ROWID`: `currency`,
///   `starting_cash`, `fee_flat`, `fee_percent` (decimals scaled by 10^8, integers),
///   `allow_short`, `allow_negative_cash` (0/1), `sinks` (names joined by `,`), `opened_at`
///   (wall clock ms).
/// - `paper_order`: one row per order; `seq` (rowid) is the placing order; `(account, id)` is
///   unique: a retried command finds its order. `side` is `buy`/`sell`, `quantity` positive,
///   `limit_price` NULL for a market order, `placed_at` wall clock ms.
/// - `paper_outcome`: at most one per order (primary key `(account, order_id)`): `status`
///   `filled`/`rejected`/`cancelled`, the fill's `price`, `notional`, `fee`, `quote_time`,
///   `provider`, or the rejection's `reason`; `booked_at` wall clock ms.
/// - `paper_posting`: the ledger; `seq` is the booking order; `entry` (`open:ACCOUNT` or the
///   order id), `ledger` (`cash`, `position:SYMBOL`, `fees`, `equity`), signed `amount` and
///   `quantity`, `time`. The postings of one entry sum to zero.
///
/// Triggers make all four tables append-only: an UPDATE or DELETE aborts.
enum PaperLedgerMigration {
    static func migrate(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE paper_account (
                name                TEXT    NOT NULL PRIMARY KEY,
                currency            TEXT    NOT NULL,
                starting_cash       INTEGER NOT NULL CHECK (typeof(starting_cash) = 'integer'),
                fee_flat            INTEGER NOT NULL CHECK (typeof(fee_flat) = 'integer'),
                fee_percent         INTEGER NOT NULL CHECK (typeof(fee_percent) = 'integer'),
                allow_short         INTEGER NOT NULL CHECK (allow_short IN (0, 1)),
                allow_negative_cash INTEGER NOT NULL CHECK (allow_negative_cash IN (0, 1)),
                sinks               TEXT    NOT NULL,
                opened_at           INTEGER NOT NULL
            ) WITHOUT ROWID;
            CREATE TABLE paper_order (
                seq         INTEGER PRIMARY KEY,
                account     TEXT    NOT NULL REFERENCES paper_account (name),
                id          TEXT    NOT NULL,
                symbol      TEXT    NOT NULL,
                side        TEXT    NOT NULL CHECK (side IN ('buy', 'sell')),
                quantity    INTEGER NOT NULL CHECK (typeof(quantity) = 'integer' AND quantity > 0),
                limit_price INTEGER CHECK (typeof(limit_price) IN ('integer', 'null')),
                placed_at   INTEGER NOT NULL,
                UNIQUE (account, id)
            );
            CREATE TABLE paper_outcome (
                account    TEXT    NOT NULL,
                order_id   TEXT    NOT NULL,
                status     TEXT    NOT NULL CHECK (status IN ('filled', 'rejected', 'cancelled')),
                reason     TEXT,
                price      INTEGER CHECK (typeof(price) IN ('integer', 'null')),
                notional   INTEGER CHECK (typeof(notional) IN ('integer', 'null')),
                fee        INTEGER CHECK (typeof(fee) IN ('integer', 'null')),
                quote_time INTEGER,
                provider   TEXT,
                booked_at  INTEGER NOT NULL,
                PRIMARY KEY (account, order_id),
                FOREIGN KEY (account, order_id) REFERENCES paper_order (account, id)
            ) WITHOUT ROWID;
            CREATE TABLE paper_posting (
                seq      INTEGER PRIMARY KEY,
                entry    TEXT    NOT NULL,
                account  TEXT    NOT NULL REFERENCES paper_account (name),
                ledger   TEXT    NOT NULL,
                amount   INTEGER NOT NULL CHECK (typeof(amount) = 'integer'),
                quantity INTEGER NOT NULL CHECK (typeof(quantity) = 'integer'),
                time     INTEGER NOT NULL
            );
            CREATE INDEX paper_posting_by_account ON paper_posting (account, seq);
            """)
        for table in ["paper_account", "paper_order", "paper_outcome", "paper_posting"] {
            for action in ["UPDATE", "DELETE"] {
                try db.execute(sql: """
                    CREATE TRIGGER \(table)_no_\(action.lowercased()) BEFORE \(action) ON \(table)
                    BEGIN SELECT RAISE(ABORT, 'the paper ledger is append-only'); END
                    """)
            }
        }
    }
}
