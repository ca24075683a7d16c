-- Reading now knows ISO-2022-JP (which, being seven bits, was read as UTF-8 with its escapes
-- kept) and UTF-16 with a byte order mark (which was no record); it reads a file a line at a
-- time with lines that end at a lone CR too (such a file with a bad byte was rejected as
-- `decode`), takes the more plausible encoding when as many lines read in two, and reads a
-- bad line in the encoding that reads the most of it. The files those changes concern are
-- marked as changed (a size, time and hash no file has), so that the next index run reads
-- them again: the files rejected as `decode` or `unknown_format`, those read a line at a
-- time (a `mixed_encoding` or `undecodable_bytes` warning), and those read as UTF-8 whose
-- headers or comments hold an escape.
UPDATE files SET size = -1, mtime_ns = -1, hash = x''
WHERE error IN ('decode', 'unknown_format')
   OR id IN (SELECT file FROM warnings WHERE code IN ('mixed_encoding', 'undecodable_bytes'))
   OR (encoding IN ('utf-8', 'utf-8-bom')
       AND id IN (SELECT file FROM sources
                  WHERE instr(headers, char(27)) > 0 OR instr(comments, char(27)) > 0));
