-- The keys of names and events take the old and variant forms of kanji in the form in use
-- today (`髙橋` and `高橋`, `渡邊` and `渡辺`, `名人戰` and `名人戦` are one key each) and
-- leave out variation selectors. SQL cannot make the keys: they are cleared here, and the
-- writer fills every key that is NULL when it opens the database (readers of a database of an
-- earlier version make the keys themselves). The writer also makes the keys of the aliases
-- again.
UPDATE players SET key = NULL;
UPDATE events SET key = NULL;
