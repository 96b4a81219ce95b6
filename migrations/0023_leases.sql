-- Named leases: work that one instance of a deployment does at a time (the scheduler role). The
-- holder renews before `until_ms` (epoch milliseconds); once it has passed, another may take it.
CREATE TABLE leases (
  name TEXT PRIMARY KEY,
  holder TEXT NOT NULL,
  until_ms INTEGER NOT NULL,
  acquired_ms INTEGER NOT NULL
);
