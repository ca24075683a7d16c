//! The table of counts by year that `query --by year` prints.

use kifudex::query::{Answer, years::Years};

use super::table::TextTable;

/// The next moves that get a column of their own.
const MOVE_COLUMNS: usize = 8;

/// The table: a row a year, with the games that reach the position and their results, then
/// the games that played each of the most played moves.
pub fn table(answer: &Answer) -> String {
    let Some(by) = &answer.by_year else {
        return String::new();
    };
    let shown = answer.moves.len().min(MOVE_COLUMNS);
    let mut header: Vec<&str> = vec!["year", "games", "black", "white", "draws"];
    header.extend(answer.moves[..shown].iter().map(|m| m.usi.as_str()));
    let mut t = TextTable::new(&header);
    t.right_from(1);
    let played = |years: &Years, year: &str| years.get(year).map_or(0, |t| t.games).to_string();
    for (year, tally) in &by.position {
        let mut row = vec![
            year.clone(),
            tally.games.to_string(),
            tally.black_wins.to_string(),
            tally.white_wins.to_string(),
            tally.draws.to_string(),
        ];
        row.extend(by.moves[..shown].iter().map(|years| played(years, year)));
        t.row(row);
    }
    let mut out = String::from("\n");
    out.push_str(&t.render());
    let more = if answer.moves.len() > shown {
        format!("; the {shown} most played moves here, every move in --format json")
    } else {
        String::new()
    };
    out.push_str(&format!(
        "(by the year of each game's date: the games that reach the position and their results, then the \
         games that played each move{more})\n"
    ));
    out
}
