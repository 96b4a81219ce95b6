-- Pages per site (issue 33): a target (site) has pages, each a path on the site's origin with a
-- role; results compare pages of the same role across sites (pricing with pricing). Every existing
-- target gets its one page, `home`, whose path is its URL's (so origin + path is the URL captured
-- until now). Its id is derived from the target's so the backfills below can name it.
CREATE TABLE pages (
  id TEXT PRIMARY KEY,
  target_id TEXT NOT NULL REFERENCES targets(id) ON DELETE CASCADE,
  comparison_id TEXT NOT NULL REFERENCES comparisons(id) ON DELETE CASCADE,
  owner_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  -- Path, query and fragment on the target's origin ("/pricing?plan=team").
  path TEXT NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('home', 'pricing', 'features', 'signup', 'blog', 'docs', 'other')),
  -- The steps a capture takes on the page before it measures it (JSON array; capture/steps/model.ts).
  steps TEXT NOT NULL DEFAULT '[]',
  -- 0 is the site's home page (made with the target, never deleted); then in the order added.
  position INTEGER NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX pages_target ON pages(target_id, position);
CREATE INDEX pages_owner ON pages(owner_id);

-- The path of a URL: from the first "/" after the scheme's "://" (a URL with none is at "/").
INSERT INTO pages (id, target_id, comparison_id, owner_id, path, role, steps, position, created_at)
  SELECT 'home-' || t.id, t.id, t.comparison_id, t.owner_id,
         CASE WHEN instr(substr(t.url, instr(t.url, '://') + 3), '/') > 0
              THEN substr(substr(t.url, instr(t.url, '://') + 3), instr(substr(t.url, instr(t.url, '://') + 3), '/'))
              ELSE '/' END,
         'home', '[]', 0, t.created_at
    FROM targets t;

-- Every site has its home page whoever adds the target (the API, the check command, a restore):
-- the database makes it, so no writer can leave a target without one.
CREATE TRIGGER targets_home_page AFTER INSERT ON targets
BEGIN
  INSERT INTO pages (id, target_id, comparison_id, owner_id, path, role, steps, position, created_at)
  VALUES ('home-' || NEW.id, NEW.id, NEW.comparison_id, NEW.owner_id,
          CASE WHEN instr(substr(NEW.url, instr(NEW.url, '://') + 3), '/') > 0
               THEN substr(substr(NEW.url, instr(NEW.url, '://') + 3), instr(substr(NEW.url, instr(NEW.url, '://') + 3), '/'))
               ELSE '/' END,
          'home', '[]', 0, NEW.created_at);
END;

-- Which page a capture, a finding or a change is of, and in which colour scheme
-- (prefers-color-scheme); rows from before pages are the home page's, in light.
ALTER TABLE snapshots ADD COLUMN page_id TEXT REFERENCES pages(id) ON DELETE CASCADE;
ALTER TABLE snapshots ADD COLUMN color_scheme TEXT NOT NULL DEFAULT 'light' CHECK (color_scheme IN ('light', 'dark'));
-- Where the page's steps stopped ({ index, error } as JSON); NULL when they ran through or there were none.
ALTER TABLE snapshots ADD COLUMN step TEXT;
ALTER TABLE findings ADD COLUMN page_id TEXT REFERENCES pages(id) ON DELETE CASCADE;
ALTER TABLE findings ADD COLUMN color_scheme TEXT NOT NULL DEFAULT 'light' CHECK (color_scheme IN ('light', 'dark'));
ALTER TABLE run_changes ADD COLUMN page_id TEXT REFERENCES pages(id) ON DELETE CASCADE;
ALTER TABLE run_changes ADD COLUMN color_scheme TEXT NOT NULL DEFAULT 'light' CHECK (color_scheme IN ('light', 'dark'));
-- A diff scores the pages of one role of two sites, in one colour scheme.
ALTER TABLE diffs ADD COLUMN role TEXT NOT NULL DEFAULT 'home' CHECK (role IN ('home', 'pricing', 'features', 'signup', 'blog', 'docs', 'other'));
ALTER TABLE diffs ADD COLUMN color_scheme TEXT NOT NULL DEFAULT 'light' CHECK (color_scheme IN ('light', 'dark'));
ALTER TABLE diffs ADD COLUMN page_a_id TEXT REFERENCES pages(id) ON DELETE CASCADE;
ALTER TABLE diffs ADD COLUMN page_b_id TEXT REFERENCES pages(id) ON DELETE CASCADE;
-- The colour schemes a comparison's runs capture in (JSON array).
ALTER TABLE comparisons ADD COLUMN color_schemes TEXT NOT NULL DEFAULT '["light"]';

UPDATE snapshots SET page_id = 'home-' || target_id;
UPDATE findings SET page_id = 'home-' || target_id;
UPDATE run_changes SET page_id = 'home-' || target_id;
UPDATE diffs SET page_a_id = 'home-' || target_a_id, page_b_id = 'home-' || target_b_id;

-- The latest capture of a page in a scheme at a viewport (the comparison's current snapshots).
CREATE INDEX snapshots_page_latest ON snapshots(page_id, viewport, color_scheme, captured_at);
