#!/usr/bin/env python3
"""Computes the yari shogi oracle data with Fairy-Stockfish (variant `yarishogi`, package pyffish).

Writes, next to this script:
- perft.txt: perft from the start position at depths 1 to 4, and from three positions
  reached by random play (drops, promotions, a check) at depths 1 to 3;
- playouts.txt: 10,000 random games from the start, a line each, with a digest of the legal
  moves Fairy-Stockfish gives at every ply (see PLAYOUTS below);
- repetition.txt: two repeating sequences, with what Fairy-Stockfish says of each ply.

Nothing here comes from kifudex: moves are Fairy-Stockfish's legal moves, translated to the
USI-like form (7g7f, 8h2b+, N*5e) by this script, and the board is tracked by this script
and checked against Fairy-Stockfish's FEN at the end of every game.

pyffish builds its position anew for every call (one to two milliseconds of CPU each), so the
playouts, a call a ply, took about an hour and three quarters on two cores shared with other
work; perft and the sequences take minutes.

usage: pip install pyffish; python3 tests/data/yari/oracle.py [--games N] [--jobs N]
       python3 tests/data/yari/oracle.py --show GAME   (every ply of one game, to find where a
                                                        mismatch starts)
"""
import argparse
import multiprocessing
import os
import sys

import pyffish as sf

VARIANT = "yarishogi"
START = "rnnkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR b - 1"
MASK = (1 << 64) - 1
MAX_PLIES = 100
HERE = os.path.dirname(os.path.abspath(__file__))

PLAYOUTS = """\
# Random yari shogi games from the start, as Fairy-Stockfish plays them.
#
# Written by tests/data/yari/oracle.py with pyffish {version} (Fairy-Stockfish, variant
# yarishogi). Game g chooses its moves with xorshift64* seeded from g (state = g *
# 0x9E3779B97F4A7C15 | 1; x ^= x >> 12; x ^= x << 25; x ^= x >> 27; output x *
# 0x2545F4914F6CDD1D): at every ply the legal moves, in the USI-like form (7g7f, 8h2b+, N*5e),
# are sorted as byte strings and the move at index output % count is played. A game stops
# when the side to move has no legal move, at the fourth occurrence of a position, or after
# {max_plies} plies.
#
# digest: FNV-1a 64 (offset 0xcbf29ce484222325, prime 0x100000001b3) over, for every ply
# before a move and for the final position, the position text (the SFEN-like board, side to
# move and hands, without the move number), '|', the sorted legal moves joined by spaces,
# and a newline.
#
# end: mate (no legal move, in check), stuck (no legal move, not in check), draw (fourth
# occurrence), perpetual-black / perpetual-white (fourth occurrence, every move of that side
# since the first occurrence gave check: that side loses), cap ({max_plies} plies).
#
# fsf_end: the ply at which Fairy-Stockfish itself ends the game, where it differs from the
# published rules: it stops at the third occurrence of a position (checked with
# is_immediate_game_end and is_optional_game_end on the whole move list), scoring it as
# given in fsf_result (draw, or the side that wins); '-' when the game never got there.
# The published rules (fourth occurrence) are followed for the rest of the game.
#
# totals: {totals}
#
# game plies end digest fsf_end fsf_result
"""


class Rng:
    def __init__(self, seed):
        self.state = ((seed * 0x9E3779B97F4A7C15) & MASK) | 1

    def next(self):
        x = self.state
        x ^= x >> 12
        x ^= (x << 25) & MASK
        x ^= x >> 27
        self.state = x
        return (x * 0x2545F4914F6CDD1D) & MASK


def fnv(h, text):
    for b in text.encode():
        h = ((h ^ b) * 0x100000001B3) & MASK
    return h


# Squares: Fairy-Stockfish writes a1 for the bottom left corner as Black (its "white") sees
# the board, files a to g from file 7 to file 1 and ranks 1 to 9 from rank i to rank a.
def from_fsf_square(text):
    return f"{7 - (ord(text[0]) - ord('a'))}{chr(ord('a') + 9 - int(text[1:]))}"


def to_fsf_square(usi):
    return f"{chr(ord('a') + 7 - int(usi[0]))}{9 - (ord(usi[1]) - ord('a'))}"


def from_fsf_move(m):
    if "@" in m:
        piece, square = m.split("@")
        return f"{piece.upper()}*{from_fsf_square(square)}"
    promote = m.endswith("+")
    body = m.rstrip("+")
    # The origin is a letter and one digit; the destination may have one or two digits, but
    # not on a nine-rank board.
    return from_fsf_square(body[:2]) + from_fsf_square(body[2:]) + ("+" if promote else "")


def to_fsf_move(usi):
    if usi[1] == "*":
        return f"{usi[0]}@{to_fsf_square(usi[2:4])}"
    return to_fsf_square(usi[0:2]) + to_fsf_square(usi[2:4]) + ("+" if usi.endswith("+") else "")


# The board, tracked here: square text -> (side 0 black / 1 white, kind text like 'P' or '+N').
class Board:
    def __init__(self, sfen):
        board, turn, hands = sfen.split()[:3]
        self.squares = {}
        for r, row in enumerate(board.split("/")):
            file, promoted = 7, False
            for c in row:
                if c.isdigit():
                    file -= int(c)
                elif c == "+":
                    promoted = True
                else:
                    self.squares[f"{file}{chr(ord('a') + r)}"] = (0 if c.isupper() else 1, ("+" if promoted else "") + c.upper())
                    promoted = False
                    file -= 1
        self.hands = [dict.fromkeys("RBNP", 0), dict.fromkeys("RBNP", 0)]
        count = ""
        for c in "" if hands == "-" else hands:
            if c.isdigit():
                count += c
            else:
                self.hands[0 if c.isupper() else 1][c.upper()] += int(count or "1")
                count = ""
        self.turn = 0 if turn == "b" else 1

    def play(self, usi):
        side = self.turn
        if usi[1] == "*":
            self.hands[side][usi[0]] -= 1
            self.squares[usi[2:4]] = (side, usi[0])
        else:
            _, kind = self.squares.pop(usi[0:2])
            if usi[2:4] in self.squares:
                self.hands[side][self.squares[usi[2:4]][1].lstrip("+")] += 1
            self.squares[usi[2:4]] = (side, "+" + kind if usi.endswith("+") else kind)
        self.turn = 1 - side

    def text(self):
        rows = []
        for r in "abcdefghi":
            row, empty = "", 0
            for file in range(7, 0, -1):
                piece = self.squares.get(f"{file}{r}")
                if piece is None:
                    empty += 1
                    continue
                if empty:
                    row += str(empty)
                    empty = 0
                side, kind = piece
                row += kind if side == 0 else kind.lower()
            rows.append(row + (str(empty) if empty else ""))
        hands = ""
        for side in (0, 1):
            for kind in "RBNP":
                n = self.hands[side][kind]
                if n:
                    hands += (str(n) if n > 1 else "") + (kind if side == 0 else kind.lower())
        return f"{'/'.join(rows)} {'bw'[self.turn]} {hands or '-'}"

    def fsf_fen(self):
        board, turn, hands = self.text().split()
        hand = "" if hands == "-" else hands
        # Fairy-Stockfish lists a hand as letters, counts written out.
        expanded, count = "", ""
        for c in hand:
            if c.isdigit():
                count += c
            else:
                expanded += c * int(count or "1")
                count = ""
        return f"{board}[{expanded}] {'w' if turn == 'b' else 'b'} - - 0 1"


def fsf_text(fen):
    """The SFEN-like position text of a Fairy-Stockfish FEN."""
    board, rest = fen.split("[", 1)
    hand, rest = rest.split("]", 1)
    turn = rest.split()[0]
    counts = [dict.fromkeys("RBNP", 0), dict.fromkeys("RBNP", 0)]
    for c in hand:
        counts[0 if c.isupper() else 1][c.upper()] += 1
    hands = ""
    for side in (0, 1):
        for kind in "RBNP":
            n = counts[side][kind]
            if n:
                hands += (str(n) if n > 1 else "") + (kind if side == 0 else kind.lower())
    return f"{board} {'b' if turn == 'w' else 'w'} {hands or '-'}"


START_FEN = sf.start_fen(VARIANT)


def legal(fen, moves):
    return sorted(from_fsf_move(m) for m in sf.legal_moves(VARIANT, fen, [to_fsf_move(u) for u in moves]))


def fsf_game_end(fen, white_first, moves):
    """Fairy-Stockfish's verdict after `moves`: None, or 'draw' / 'black' / 'white' (the winner)."""
    fsf_moves = [to_fsf_move(u) for u in moves]
    for check in (sf.is_immediate_game_end, sf.is_optional_game_end):
        ended, value = check(VARIANT, fen, fsf_moves)
        if ended:
            if value == 0:
                return "draw"
            # The value is the side to move's.
            to_move = (len(moves) + white_first) % 2
            mover, other = ("black", "white") if to_move == 0 else ("white", "black")
            return mover if value > 0 else other
    return None


def in_check(moves):
    """Whether the side to move is in check after `moves` from the start."""
    return sf.gives_check(VARIANT, START_FEN, [to_fsf_move(u) for u in moves])


def playout(game, show=False):
    rng = Rng(game)
    board = Board(START)
    moves = []
    seen = {}
    digest = 0xCBF29CE484222325
    stats = {"drops": 0, "promotions": 0, "captures": 0}
    fsf_end, fsf_result = "-", "-"
    end = "cap"
    while True:
        text = board.text()
        seen.setdefault(text, []).append(len(moves))
        occurrences = seen[text]
        if len(occurrences) == 3 and fsf_end == "-":
            verdict = fsf_game_end(START_FEN, 0, moves)
            if verdict is None:
                sys.exit(f"game {game}: Fairy-Stockfish goes on at a third occurrence (ply {len(moves)})")
            fsf_end, fsf_result = str(len(moves)), verdict
        available = legal(START_FEN, moves)
        digest = fnv(digest, f"{text}|{' '.join(available)}\n")
        if show:
            print(len(moves), text, len(available), " ".join(available))
        if len(occurrences) == 4:
            first = occurrences[0]
            # The move played from position j gave check when the side to move is in check
            # after it; positions j with j even are Black's to move.
            gave = {j: in_check(moves[: j + 1]) for j in range(first, len(moves))}
            black, white = (all(gave[j] for j in gave if j % 2 == side) for side in (0, 1))
            end = "perpetual-black" if black and not white else "perpetual-white" if white and not black else "draw"
            break
        if not available:
            end = "mate" if in_check(moves) else "stuck"
            break
        if len(moves) == MAX_PLIES:
            break
        mv = available[rng.next() % len(available)]
        if mv[1] == "*":
            stats["drops"] += 1
        else:
            stats["captures"] += mv[2:4] in board.squares
            stats["promotions"] += mv.endswith("+")
        board.play(mv)
        moves.append(mv)
    fen = sf.get_fen(VARIANT, START_FEN, [to_fsf_move(u) for u in moves])
    if fsf_text(fen) != board.text():
        sys.exit(f"game {game}: the board tracked here ({board.text()}) is not Fairy-Stockfish's ({fen})")
    return f"{game} {len(moves)} {end} {digest:016x} {fsf_end} {fsf_result}", stats, len(moves), end


def run_playouts(games, jobs):
    with multiprocessing.Pool(jobs) as pool:
        results = pool.map(playout, range(games), chunksize=20)
    totals = {"games": games, "plies": 0, "drops": 0, "promotions": 0, "captures": 0}
    ends = {}
    for line, stats, plies, end in results:
        totals["plies"] += plies
        for k, v in stats.items():
            totals[k] += v
        ends[end] = ends.get(end, 0) + 1
    totals["fsf_third_occurrence"] = sum(1 for line, *_ in results if line.split()[4] != "-")
    summary = " ".join(f"{k}={v}" for k, v in totals.items()) + " " + " ".join(f"{k}={v}" for k, v in sorted(ends.items()))
    with open(os.path.join(HERE, "playouts.txt"), "w") as out:
        out.write(PLAYOUTS.format(version=".".join(map(str, sf.version())), max_plies=MAX_PLIES, totals=summary))
        for line, *_ in results:
            out.write(line + "\n")
    print(summary)


def perft(fen, moves, depth):
    available = legal(fen, moves)
    if depth == 1:
        return len(available)
    return sum(perft(fen, moves + [m], depth - 1) for m in available)


def middle_positions():
    """Three positions of random play, each the first of its game from ply 30 on with pieces
    in hand on both sides (two kinds at least) and a promoted piece: two not in check, then
    one in check."""
    quiet, checked = [], []
    for game in range(10_000):
        rng = Rng(game)
        board = Board(START)
        moves = []
        while len(moves) < MAX_PLIES:
            available = legal(START_FEN, moves)
            if not available:
                break
            board_text, _, hands = board.text().split()
            rich = "+" in board_text and sum(c.isupper() for c in hands) >= 2 and sum(c.islower() for c in hands) >= 2
            if rich and len(moves) >= 30:
                (checked if in_check(moves) else quiet).append(board.text())
                break
            mv = available[rng.next() % len(available)]
            board.play(mv)
            moves.append(mv)
        if len(quiet) >= 2 and checked:
            return quiet[:2] + checked[:1]
    sys.exit("no three middle positions found")


def run_perft():
    lines = [
        "# Yari shogi perft: the number of legal move sequences of each length, as Fairy-Stockfish",
        f"# (pyffish {'.'.join(map(str, sf.version()))}, variant yarishogi) counts them; written by",
        "# tests/data/yari/oracle.py. The positions after the start are reached by the random play",
        "# playouts.txt describes: each has pieces in hand on both sides and promoted pieces, and",
        "# one is in check.",
        "#",
        "# position (SFEN-like, 7 squares a rank) ; depth ; nodes",
    ]
    positions = [(START, 4)] + [(f"{text} 1", 3) for text in middle_positions()]
    for sfen, max_depth in positions:
        fen = Board(sfen).fsf_fen()
        if fsf_text(sf.get_fen(VARIANT, fen, [])) != " ".join(sfen.split()[:3]):
            sys.exit(f"{sfen}: Fairy-Stockfish reads {fen} as {sf.get_fen(VARIANT, fen, [])}")
        for depth in range(1, max_depth + 1):
            nodes = perft(fen, [], depth)
            lines.append(f"{sfen} ; {depth} ; {nodes}")
            print(lines[-1], flush=True)
    with open(os.path.join(HERE, "perft.txt"), "w") as out:
        out.write("\n".join(lines) + "\n")


SEQUENCES = [
    (
        "generals stepping back and forth",
        START,
        ["4i4h", "4a4b", "4h4i", "4b4a"] * 4,
    ),
    (
        "a rook checking from 3a and 3b, the general stepping between 1a and 1b",
        "6k/7/4+R2/7/7/7/7/7/K6 b - 1",
        ["3c3a", "1a1b", "3a3b", "1b1a"] + ["3b3a", "1a1b", "3a3b", "1b1a"] * 3,
    ),
]


def run_repetition():
    lines = [
        "# Repeating yari shogi sequences, and what Fairy-Stockfish says after each ply: whether",
        f"# it ends the game there (pyffish {'.'.join(map(str, sf.version()))}: is_immediate_game_end,",
        "# then is_optional_game_end) and with what result (draw, or the winner). Written by",
        "# tests/data/yari/oracle.py. Fairy-Stockfish ends these games at the third occurrence of a",
        "# position; the published rules (which kifudex follows) at the fourth.",
        "#",
        "# name ; start ; moves ; per ply after the start: - or the result",
    ]
    for name, start, moves in SEQUENCES:
        fen = Board(start).fsf_fen()
        verdicts = []
        for n in range(1, len(moves) + 1):
            played = [to_fsf_move(u) for u in moves[:n]]
            if to_fsf_move(moves[n - 1]) not in sf.legal_moves(VARIANT, fen, played[:-1]):
                sys.exit(f"{name}: {moves[n - 1]} is not legal")
            verdict = fsf_game_end(fen, start.split()[1] == "w", moves[:n]) or "-"
            verdicts.append(verdict)
        lines.append(f"{name} ; {start} ; {' '.join(moves)} ; {' '.join(verdicts)}")
    with open(os.path.join(HERE, "repetition.txt"), "w") as out:
        out.write("\n".join(lines) + "\n")
    print("\n".join(lines[-2:]))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--show", type=int)
    parser.add_argument("--only", choices=["perft", "playouts", "repetition"])
    args = parser.parse_args()
    if args.show is not None:
        playout(args.show, show=True)
        return
    if args.only in (None, "repetition"):
        run_repetition()
    if args.only in (None, "perft"):
        run_perft()
    if args.only in (None, "playouts"):
        run_playouts(args.games, args.jobs)


if __name__ == "__main__":
    main()
