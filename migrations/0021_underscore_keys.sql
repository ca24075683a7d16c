-- The keys of names leave out `_` as they leave out spaces: CSA names write a space as `_`, so
-- `Ito_Chihiro` of a CSA record and `Ito Chihiro` of another are one player. SQL cannot make
-- the keys: they are cleared here, and the writer fills every key that is NULL when it opens
-- the database (readers of a database of an earlier version make the keys themselves).
UPDATE players SET key = NULL;
UPDATE events SET key = NULL;
