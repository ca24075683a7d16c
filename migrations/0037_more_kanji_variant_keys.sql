-- The keys of names and events take more old forms of kanji in their form of today: every old
-- form the 常用漢字表 and the 人名用漢字 list beside their characters (`劍持` and `剣持`, `來`,
-- `寬`, `曾`), and the print forms of other kanji (`蔣`, `遙`). A title after a name is also
-- told in the women's honorary form (`クイーン名人`) and in the numbered form of the first
-- holders (`実力制第四代名人`). SQL cannot make the keys: they are cleared here, and the
-- writer fills every key that is NULL when it opens the database, and makes the keys of the
-- aliases again. Records without moves are told apart by their names' keys, and a title is cut
-- off as a record is read: the files of the records that name a player whose stored name holds
-- one of the newly folded characters or one of those titles are marked as changed (a size, time
-- and hash no file has), so that the next index run reads them again.
UPDATE players SET key = NULL;
UPDATE events SET key = NULL;
UPDATE files SET size = -1, mtime_ns = -1, hash = x''
WHERE id IN (SELECT s.file FROM sources s JOIN players p ON p.id IN (s.black, s.white)
             WHERE p.name GLOB '*[乘亂佛來倂僞儉儘內兩剩劍劑勞勳勵勸區卷卽吳吿啞單噓嚙嚴囑圈圖堯墮壓壘壞壤壯奧奬娛嬀孃寢寫寬專尙屆屛屬峽嶽巓巢帶幷廢彎彥徑徵悅惱慘懷戀戲戶戾拜挾插揭搔搜摑擇擊擔據擴攪收效敎敕晚曉曾棧槪樓樞歐歡歲歸殼毆淚渴溪滯潑潛濟瀆灣焰營爐狀獵獸瑤甁產瘦癡硏禱稅稱穎穩穰簞緖緣縱總繡繫繼纖聽脫腦膽臟艷蔣蠅蠟蠻衞襃覽證讓讚軀輛遙醬醱釀銳錄鍊鑄陷隸霸顚飮餠騷鬥鬬鬭鶯鹼麴麵點]*'
                OR p.name GLOB '*第*代*' OR p.name GLOB '*クイーン*' OR p.name GLOB '*ｸｲｰﾝ*');
