#!/usr/bin/env python3
"""Expected results of the records in tests/data/results/records/, judged by cshogi.

    pip install cshogi
    python3 tests/data/results/oracle.py          # rewrites expected.tsv and the derived records

For every record the start position and the moves are written out below by hand (in USI,
read off the record), or read from an untouched fixture by cshogi's own CSA and KIF readers;
so is what the record's ending says (`stated`: the winner and the termination its words
name). cshogi then plays the moves and answers what the rules say: which position occurs a
fourth time and when, whether each move gave check, whether the final position is
checkmate. The rules below are applied to those answers:

* a position occurring for the fourth time ends the game there: a draw, unless every move of
  one side since the first of the four occurrences gave check (that side loses); moves the
  record holds after it are not part of the game (warning moves_after_end), nor is its
  ending;
* a final position that is checkmate is won by the side that gave mate;
* otherwise the record's words decide;
* where the words state another result than the moves decide, or claim a mate or a 千日手
  the moves do not show, a warning is expected (ending_contradicts_mate,
  ending_contradicts_repetition, not_mate, not_fourfold);
* lines the reader must read past are counted by hand (unknown_line, unknown_ending).

Two records are derived from fixtures of tests/data/kifu (see its SOURCES.md), and written
here: lost_quote.csa is WCSC32_F7_NBS_DLS.csa (a game of the 32nd World Computer Shogi
Championship, 176 plies, an engine's `'**` comment after every move) with the quote of some
of those comments taken away; stray_lines.kifu is habu-fujii-2006.kif in UTF-8 with an HTML
tag, a header and a line of mojibake put among the moves.

Columns of expected.tsv: file, plies, final position (SFEN without the move number), winner
(b, w, d or -), termination, status (ok, or the reject code of a game that stops early), the
warning codes in order (| between them), the moves kept (USI). impossible_start.usi's first game is a reject and is not listed; its second is.
"""
from __future__ import annotations

from pathlib import Path

import cshogi
from cshogi import CSA, KIF

HERE = Path(__file__).resolve().parent
RECORDS = HERE / "records"
FIXTURES = HERE.parent / "kifu"
EVEN = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
LANCE = "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"


def rook_shuffle(black_first: bool) -> list[str]:
    black = ["2h3h", "3h2h"]
    white = ["8b7b", "7b8b"]
    cycle = [black[0], white[0], black[1], white[1]] if black_first else \
        [white[0], black[0], white[1], black[1]]
    return cycle * 3


# file, start SFEN, moves (USI), what the ending states (winner, termination) or None,
# warnings from reading (codes, in file order)
CASES = [
    ("impossible_start.usi#1", EVEN, ["7g7f", "3c3d"], None, []),
    ("fourfold.csa", EVEN, rook_shuffle(True), ("d", "repetition"), []),
    ("twofold_sennichite.csa", EVEN, rook_shuffle(True)[:4], ("d", "repetition"), []),
    ("perpetual_check.csa", "4k4/9/9/9/9/9/9/5R3/K8 b - 1",
     ["4h5h", "5a4a", "5h4h", "4a5a"] * 3, ("d", "repetition"), []),
    ("perpetual_check_white.kifu", "k8/5r3/9/9/9/9/9/9/4K4 w - 1",
     ["4b5b", "5i4i", "5b4b", "4i5i"] * 3, ("d", "repetition"), []),
    ("kyo_fourfold.kifu", LANCE, rook_shuffle(False), ("d", "repetition"), []),
    ("after_fourfold.kifu", EVEN, ["5i5h", "5a5b", "5h5i", "5b5a"] * 3 + ["7g7f", "3c3d"],
     ("w", "resign"), []),
    ("mate_no_ending.csa", "4k4/9/4P4/9/9/9/9/9/4K4 b G 1", ["G*5b"], None, []),
    ("mate_no_ending.kifu", "4k4/9/9/9/9/9/4p4/9/4K4 w g 1", ["G*5h"], None, []),
    ("mate_nonstandard_ending.csa", "4k4/9/9/9/9/9/8p/9/8K w g 1", ["G*1h"], None,
     ["unknown_ending"]),
    ("mated_side_wins_on_time.kifu", "8k/9/8P/9/9/9/9/9/4K4 b G 1", ["G*1b"],
     ("w", "timeout"), []),
    ("tsumi_not_mate.csa", EVEN, ["2g2f", "3c3d"], ("w", "checkmate"), []),
    ("kachi.csa", EVEN, ["2g2f", "8c8d"], ("b", "entering_king"), []),
    ("jishogi.kifu", EVEN, ["7g7f", "8c8d"], ("d", "impasse"), []),
    # Move 3 (５五飛(28)) is no rook move: the game stops there, a reject, and its words give
    # the result (nothing is judged of a game that does not reach its end).
    ("stops_early.kifu", EVEN, ["5g5f", "5c5d"], ("w", "resign"), [], "no_such_move"),
    # After the mate the record writes the mated king's move (illegal: 8a is the gold's),
    # another move and an ending: all past the end of the game.
    ("mate_then_more.csa", "k8/9/P8/9/9/9/9/9/4K4 b G 1", ["G*9b"], ("b", "resign"), [], "ok",
     True),
]

# Comments of lost_quote.csa that lose their quote: every 40th `'**` line, counted from 0.
LOST_EVERY = 40
# Lines put among the moves of stray_lines.kifu, after the move of the given number.
STRAY = [(40, "<br>"), (80, "棋戦：順位戦 A級"), (120, "縺ゅ≠縺ｮ繧ｳ繝｡繝ｳ繝茨ｼ")]


def derive_records() -> list[tuple]:
    """Writes lost_quote.csa and stray_lines.kifu; returns their cases."""
    source = FIXTURES / "csa" / "WCSC32_F7_NBS_DLS.csa"
    lines = source.read_text(encoding="utf-8").splitlines()
    out, seen, lost = [], 0, 0
    for line in lines:
        if line.startswith("'**"):
            if seen % LOST_EVERY == 0:
                line = line[1:]
                lost += 1
            seen += 1
        out.append(line)
    (RECORDS / "lost_quote.csa").write_text("\n".join(out) + "\n", encoding="utf-8")
    game = CSA.Parser.parse_file(str(source))[0]
    board = cshogi.Board(game.sfen)
    csa_moves = []
    for m in game.moves:
        csa_moves.append(cshogi.move_to_usi(m))
        board.push(m)
    cases = [("lost_quote.csa", game.sfen, csa_moves, stated(game.win, "resign"),
              ["unknown_line"] * lost)]

    source = FIXTURES / "habu-fujii-2006.kif"
    text = source.read_bytes().decode("cp932")
    out = []
    for line in text.splitlines():
        out.append(line)
        head = line.strip().split(" ")[0]
        for after, extra in STRAY:
            if head == str(after):
                out.append(extra)
    (RECORDS / "stray_lines.kifu").write_text("\n".join(out) + "\n", encoding="utf-8")
    game = KIF.Parser.parse_file(str(source))
    cases.append(("stray_lines.kifu", game.sfen, [cshogi.move_to_usi(m) for m in game.moves],
                  stated(game.win, "resign"), ["unknown_line"] * len(STRAY)))
    return cases


def stated(win: int, termination: str) -> tuple[str, str]:
    """cshogi's winner (1 Black, 2 White) and the termination the record's word names."""
    return ({1: "b", 2: "w"}[win], termination)


def judge(start: str, moves: list[str], said, read_warnings: list[str], stop: str = "ok",
          more_after: bool = False) -> dict:
    """`more_after`: the record writes more after `moves` (which cshogi cannot play)."""
    board = cshogi.Board(start)
    seen = {board.sfen().rsplit(" ", 1)[0]: [0]}
    gave_check = []  # gave_check[i]: move i (0-based) gave check
    mover = []
    kept, verdict, after = len(moves), None, False
    for i, mv in enumerate(moves):
        m = board.move_from_usi(mv)
        assert board.is_legal(m), f"{mv} is illegal at ply {i + 1}"
        mover.append(board.turn)
        board.push(m)
        gave_check.append(board.is_check())
        key = board.sfen().rsplit(" ", 1)[0]
        seen.setdefault(key, []).append(i + 1)
        if len(seen[key]) == 4:
            first = seen[key][0]
            kept = i + 1
            after = kept < len(moves)
            checkers = [side for side in (cshogi.BLACK, cshogi.WHITE)
                        if all(gave_check[j] for j in range(first, kept) if mover[j] == side)]
            verdict = "d" if len(checkers) != 1 else ("w" if checkers[0] == cshogi.BLACK else "b")
            break
    final = board.sfen().rsplit(" ", 1)[0]
    mate = board.is_check() and not any(True for _ in board.legal_moves)
    warnings = list(read_warnings)
    if stop != "ok":
        winner, termination = said
    elif verdict is not None:
        winner, termination = verdict, "repetition" if verdict == "d" else "perpetual_check"
        if after:
            warnings.append("moves_after_end")
        elif said and said[0] != winner:
            warnings.append("ending_contradicts_repetition")
    elif mate:
        winner = "w" if board.turn == cshogi.BLACK else "b"
        termination = "checkmate"
        if more_after:
            warnings.append("moves_after_end")
        elif said and said[0] != winner:
            warnings.append("ending_contradicts_mate")
    elif said:
        winner, termination = said
        if termination == "checkmate":
            warnings.append("not_mate")
        if termination in ("repetition", "perpetual_check"):
            warnings.append("not_fourfold")
    else:
        winner, termination = "-", "none"
    return dict(plies=kept, final=final, winner=winner, termination=termination,
                warnings="|".join(warnings), moves=" ".join(moves[:kept]), status=stop)


def main() -> None:
    rows = ["file\tplies\tfinal_sfen\twinner\ttermination\tstatus\twarnings\tmoves"]
    for name, start, moves, said, read_warnings, *stop in CASES + derive_records():
        r = judge(start, moves, said, read_warnings, *stop)
        rows.append("\t".join([name, str(r["plies"]), r["final"], r["winner"], r["termination"],
                               r["status"], r["warnings"], r["moves"]]))
    (HERE / "expected.tsv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    print(f"wrote {len(rows) - 1} rows to {HERE / 'expected.tsv'}")


if __name__ == "__main__":
    main()
