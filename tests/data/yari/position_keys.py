#!/usr/bin/env python3
"""Writes tests/data/yari/position_keys.csv: yari shogi position keys computed independently of
the Rust code.

The key format is documented in src/shogi/zobrist/mod.rs (the yari paragraph). This script
implements that documentation on its own: SplitMix64 from the documented yari seed fills the
three tables in the documented order, the seven-file SFEN and USI-like moves are read here, and
a key is the XOR of the documented parts. The Rust test `yari::keys::pinned_vectors` compares
every row with the Rust implementation.

usage: python3 tests/data/yari/position_keys.py > tests/data/yari/position_keys.csv
"""
import os
import sys

# SplitMix64 as the standard key's script writes it: the same generator, another seed.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from position_keys import splitmix64  # noqa: E402

START = "rnnkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR b - 1"
KINDS = ["P", "N", "B", "R", "K", "+P", "+N", "+B", "+R"]
HAND_KINDS = ["P", "N", "B", "R"]


gen = splitmix64(int.from_bytes(b"kifuyari", "big"))
BOARD = [[next(gen) for _ in range(18)] for _ in range(63)]
HAND = [[[next(gen) for _ in range(14)] for _ in range(4)] for _ in range(2)]
WHITE = next(gen)


def square(file, rank):
    return (file - 1) * 9 + (rank - 1)


def parse_sfen(text):
    board_text, turn, hands = text.split()[:3]
    board = {}
    for r, row in enumerate(board_text.split("/")):
        file, promoted = 7, False
        for c in row:
            if c.isdigit():
                file -= int(c)
            elif c == "+":
                promoted = True
            else:
                board[square(file, r + 1)] = (0 if c.isupper() else 1, ("+" if promoted else "") + c.upper())
                promoted = False
                file -= 1
    hand = [dict.fromkeys(HAND_KINDS, 0), dict.fromkeys(HAND_KINDS, 0)]
    count = ""
    for c in "" if hands == "-" else hands:
        if c.isdigit():
            count += c
        else:
            hand[0 if c.isupper() else 1][c.upper()] += int(count or "1")
            count = ""
    return board, hand, 0 if turn == "b" else 1


def play(pos, usi):
    board, hand, turn = pos
    to = square(int(usi[2]), ord(usi[3]) - 96)
    if usi[1] == "*":
        hand[turn][usi[0]] -= 1
        board[to] = (turn, usi[0])
    else:
        color, kind = board.pop(square(int(usi[0]), ord(usi[1]) - 96))
        if to in board:
            hand[turn][board[to][1].lstrip("+")] += 1
        board[to] = (color, "+" + kind if usi.endswith("+") else kind)
    return board, hand, 1 - turn


def key(pos):
    board, hand, turn = pos
    k = 0
    for sq, (color, kind) in board.items():
        k ^= BOARD[sq][color * 9 + KINDS.index(kind)]
    for color in (0, 1):
        for i, kind in enumerate(HAND_KINDS):
            for n in range(hand[color][kind]):
                k ^= HAND[color][i][n]
    return k ^ (WHITE if turn else 0)


def position(text):
    start, _, moves = text.partition(" moves ")
    pos = parse_sfen(START if start == "startpos" else start)
    for usi in moves.split():
        pos = play(pos, usi)
    return pos


POSITIONS = """
startpos
startpos moves 7g7f
startpos moves 7g7f 3c3d
startpos moves 7g7f 3c3d 2g2f
startpos moves 2g2f 3c3d 7g7f
startpos moves 6i5h 4a4b
startpos moves 5i5h 4a4b
startpos moves 4i4h 4a4b 4h4i 4b4a
startpos moves 7g7f 1c1d 7f7e 1d1e 7e7d 1e1f 7d7c+ 1f1g+
startpos moves 7g7f 1c1d 7f7e 1d1e 7e7d 1e1f 7d7c+ 1f1g+ 7i7d 1g1h 7c7b 1h2i
startpos moves 7g7f 1c1d 7f7e 1d1e 7e7d 1e1f 7d7c+ 1f1g+ 7i7d 1g1h 7c7b 1h2i 7b6a 2i2h 7d7a+
r1nkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR b N 1 moves N*6e 1c1d 6e7c
6k/7/4+R2/7/7/7/7/7/K6 b - 1 moves 3c3a 1a1b 3a3b 1b1a 3b3a
3k3/7/7/7/7/7/7/7/3K3 b - 1
3k3/7/7/7/7/7/7/7/3K3 w - 1
3k3/7/7/7/7/7/7/7/3K3 b P 1
3k3/7/7/7/7/7/7/7/3K3 b 2P 1
3k3/7/7/7/7/7/7/7/3K3 b p 1
3k3/7/7/7/7/7/7/7/3K3 b 4R4B4N14P 1
3k3/7/7/7/7/7/7/7/3K3 w 4r4b4n14p 1
3k3/7/7/7/7/7/7/7/3K3 b RBNPrbnp 1
+P+N+B+R3/7/6k/7/7/7/7/7/3K3 b - 1
+p+n+b+r2k/7/7/7/7/7/7/7/3K3 b - 1
k2p1r1/4N2/4bpN/1pr3P/p1P4/PPBP1P+b/R6/1BK4/6+n w NPr3p 1
3k1b1/4bb1/4+N1r/rp1p1P1/p1P4/P2PPK1/2p2NP/1RB3R/7 w NPn3p 1
1n5/r3k1r/p1p1p2/1pPp3/P1BPn2/5p1/1P2PPP/+b2RN1R/1K5 b BNbp 1
7/7/7/7/7/7/7/7/7 b 2N 1
"""


def main():
    out = sys.stdout
    out.write("position,key\n")
    for text in (line.strip() for line in POSITIONS.strip().splitlines()):
        out.write(f"{text},{key(position(text)):016x}\n")


if __name__ == "__main__":
    main()
