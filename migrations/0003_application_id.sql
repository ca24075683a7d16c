-- Marks the file as a kifudex database: the SQLite header's application id, "KFDX".
-- kifudex recognises its own files by it, and refuses anyone else's without reading their
-- schema. Files made before this migration are recognised by their `meta` table.
PRAGMA application_id = 1262896216;
