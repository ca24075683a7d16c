-- A newest-games list that an index run emptied (every game on it gained a record) and refilled
-- with more games than a list keeps was stored with those it keeps but without its cut, so it
-- claimed to hold every game of its position, and a query's page past them listed no more.
-- Which lists were so stored cannot be told, so every list without a cut (one that claims
-- every game) is removed: readers answer those positions from the postings, and the next index
-- run makes their lists again, as it makes the list of any hot position without one.
DELETE FROM hot_lists WHERE cut_date IS NULL AND cut_game IS NULL;
