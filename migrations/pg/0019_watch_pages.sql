-- PostgreSQL twin of migrations/0019_watch_pages.sql.
-- The watch per page (issue 33): a change names the role and path of its page as they were when it
-- was found (a `pages` change may be about a path that is none of the site's pages; NULL on older
-- rows: read from the page), and each run keeps the same-origin pages its sites' navigation and
-- sitemaps listed, which the next run's are compared with.
ALTER TABLE run_changes ADD COLUMN role TEXT;
ALTER TABLE run_changes ADD COLUMN path TEXT;

CREATE TABLE run_page_sets (
  run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  target_id TEXT NOT NULL REFERENCES targets(id) ON DELETE CASCADE,
  owner_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  -- JSON arrays of { path, role }; NULL when that source could not be read in full in that run
  -- (nothing is compared with it, so a half-read sitemap reports no page as removed).
  nav TEXT,
  sitemap TEXT,
  listed_at TEXT NOT NULL,
  PRIMARY KEY (run_id, target_id)
);
CREATE INDEX run_page_sets_owner ON run_page_sets(owner_id);
