-- Names compared as people write them: each player and event name gets its key (Unicode
-- NFKC, no white space, lowercase; see `kifu::name_key`), and filters match a part of the
-- key. SQL cannot make the keys: the writer fills every key that is NULL when it opens the
-- database, and readers make the key of a name whose key is NULL themselves, so a file is
-- read the same before and after its keys are filled.
ALTER TABLE players ADD COLUMN key TEXT;
ALTER TABLE events ADD COLUMN key TEXT;
CREATE INDEX players_key ON players(key);

-- Other spellings of a player's name (romanized, an old name, a handle): a name whose key is
-- `alias_key` is the player `name`. Filters and player statistics go through them. `name` is
-- never itself an alias: adding an alias of an alias names the player it stands for.
CREATE TABLE aliases(
  alias_key TEXT PRIMARY KEY,
  alias     TEXT NOT NULL,           -- as it was given
  name      TEXT NOT NULL,           -- the player's name, as it was given
  name_key  TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX aliases_name_key ON aliases(name_key);
