-- A title after a player's name is now told in any width and in the old forms of its kanji
-- (`Ｍｅｉｊｉｎ`, `ｱﾏ`, `３ｄａｎ`, `王將`, `名譽王座`), as the number of women's titles held
-- (`女流三冠`) and several titles in one bracket (`(九段・永世七冠)`) are: such a name was
-- stored with its title, or with a part of it, as a player of its own. The files of the
-- records that name a player whose stored name ends as one of those could are marked as
-- changed (a size, time and hash no file has), so that the next index run reads them again.
UPDATE files SET size = -1, mtime_ns = -1, hash = x''
WHERE id IN (SELECT s.file FROM sources s JOIN players p ON p.id IN (s.black, s.white)
             WHERE p.name GLOB '*[Ａ-Ｚａ-ｚ０-９ｦ-ﾟ)）冠將譽]' OR p.name GLOB '*女流');
