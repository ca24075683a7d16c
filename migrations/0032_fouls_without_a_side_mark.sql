-- A foul written as a move in a KI2 record was stored with the record's side mark
-- (`▲２四飛`), where the same foul from a KIF record has none (`２四飛(28)`): every format's
-- writer marks the side itself. The marks are taken off the stored fouls, as reading now
-- leaves them out.
UPDATE sources SET foul = substr(foul, 2) WHERE substr(foul, 1, 1) IN ('▲', '△');
