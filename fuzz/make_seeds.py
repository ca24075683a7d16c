#!/usr/bin/env python3
"""Builds the fuzzers' seed inputs (fuzz/seeds/<target>/) from a corpus of record files.

Usage: python3 fuzz/make_seeds.py ../shared/corpus

Every record file up to MAX_BYTES (after the commentary is cut) becomes a seed of the reader
target of its extension and of read_any. Commentary is cut: a comment line (KIF/KI2 `*`, CSA
`'`), a JKF `comment`/`comments` string and a Western `{...}` comment longer than a few
characters keeps only its marker and the word "comment"; the game itself (headers, moves,
times, endings, diagrams) is kept byte for byte in its own encoding and line endings.

The notation, SFEN, diagram and query targets get seeds cut out of the same files: the board
diagrams of KIF files, the SFENs of USI files, the first moves of KI2 files, and the moves
of a few hand-written lines in every notation. The yari target's seeds are hand-written: the
seed text's yari examples, yari records and the mistakes its reader must name.
"""

import hashlib
import json
import re
import sys
from pathlib import Path

MAX_BYTES = 12_000
OUT = Path(__file__).resolve().parent / "seeds"

READERS = {
    "kif": "read_kif",
    "kifu": "read_kif",
    "ki2": "read_ki2",
    "ki2u": "read_ki2",
    "csa": "read_csa",
    "jkf": "read_jkf",
    "json": "read_jkf",
    "sfen": "read_usi",
    "usi": "read_usi",
    "usen": "read_usi",
    "psn": "read_western",
}

# Moves in every notation, from the notation rules kifudex follows (one per seed).
MOVES = {
    "move_usi": ["7g7f", "P*5e", "8h2b+", "2b3c", "1a1b+", "R*1a"],
    "move_csa": ["+7776FU", "-3334FU", "+0055KA", "-8822UM", "+2838RY", "0055KE"],
    "move_japanese": [
        "▲７六歩", "△同　歩", "２四同歩", "7八金寄", "5五龍入", "8三銀引成", "7三桂生", "５五角打",
        "七六歩", "☗76歩", "同銀", "▲５八と左寄", "△６三と左上", "４二金直", "仝　角", "▲２二角成",
    ],
    "move_western": [
        "P-7f", "S7bx8c+", "N-7c=", "P76", "B'56", "D-2b", "Hx3c", "T-5b", "Px", "+P-5c",
        "G7g-7h", "B*4e", "1.P-76", "P-7f!?", "Bx2b+", "R@5e",
    ],
}

SEQUENCES = [
    "▲７六歩△３四歩▲２二角成△同　銀▲４五角",
    "1.P-76 P-34 2.Bx22+ Sx22 3.B*45",
    "7g7f 3c3d 8h2b+ 3a2b B*4e",
    "+7776FU -3334FU +8822UM -3122GI",
    "1. P7g-7f P3c-3d 2. P2g-2f",
    "７六歩３四歩２六歩",
    "1...G-32 2.P-76 G-72",
    "P-76 P-34 2.P-26 G-52",
    "lnsgk2nl/1r4gs1/p1pppp1pp/1p4p2/7P1/2P6/PP1PPPP1P/1SG4R1/LN2KGSNL b Bb 13\nG-78 S-42",
]

YARI_START = "rnnkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR b - 1"
YARI = [
    "P-7f",
    "1. P-7f P-3d 2. P-2f YB-3b",
    "1. P-7f P-3d 2. P-2f YB2a-3b 3. YB6i-5h YN-5b",
    "1.P76 P34 2.P26 YB21-32 3.YB6958",
    "r1nkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR b N 1\nYN*6e P-1d YNx7c=",
    "1nnkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR w - 1\n1... P-3d 2. P-7f P-3e",
    "7g7f 3c3d 6i5h 2a3b",
    "5rk/7/6+P/7/7/7/7/7/K6 b P 1\nP*1b",
    "S-4h",
    "P-8f",
    "[Variant \"Yari shogi\"]\n[Black \"Alice\"]\n[White \"Bob\"]\n[Result \"1-0\"]\n\n"
    "1. P-7f P-3d 2. P-2f YB2a-3b 3. YB6i-5h YN-5b 4. P-7e P-3e 5. P-7d Px7d 6. YRx7d P*7c\n"
    "7. YRx7c+ {the rook} (7. YRx7c= P-3f) 1-0\n",
    "[SFEN \"" + YARI_START + "\"]\n\n1. G-4h G-4b 2. G-4i *\n",
]

QUERIES = [
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "sfen lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3",
    "▲７六歩△３四歩▲２六歩",
    "P-76 P-34",
]


def decode(data):
    for enc in ("utf-8-sig", "cp932", "euc_jp"):
        try:
            return data.decode(enc), enc
        except UnicodeDecodeError:
            pass
    return None, None


def encode(text, enc, had_bom):
    out = text.encode("utf-8" if enc == "utf-8-sig" else enc)
    return (b"\xef\xbb\xbf" + out) if had_bom else out


def cut_lines(text, marker, keep):
    out = []
    for line in text.splitlines(keepends=True):
        body = line.rstrip("\r\n")
        end = line[len(body):]
        if body.startswith(marker) and len(body) > 12 and not keep(body):
            body = body[: len(marker)] + "comment"
        out.append(body + end)
    return "".join(out)


def cut_json(value):
    if isinstance(value, dict):
        return {k: ("comment" if k == "comment" and isinstance(v, str) and len(v) > 8 else
                    ["comment" for _ in v] if k == "comments" and isinstance(v, list) else cut_json(v))
                for k, v in value.items()}
    if isinstance(value, list):
        return [cut_json(v) for v in value]
    return value


def strip_commentary(ext, text):
    if ext in ("kif", "kifu", "ki2", "ki2u"):
        # `*#` and `*<` lines are a program's evaluations, not prose; `*` alone is commentary.
        return cut_lines(text, "*", lambda b: b.startswith(("*#", "*<", "*&")))
    if ext == "csa":
        return cut_lines(text, "'", lambda b: b.startswith(("'CSA", "'**", "'encoding", "'$")))
    if ext in ("jkf", "json"):
        try:
            return json.dumps(cut_json(json.loads(text)), ensure_ascii=False, indent=1)
        except ValueError:
            return text
    if ext == "psn":
        return re.sub(r"\{[^}]{9,}\}", "{comment}", text)
    return text


def put(target, name, data):
    d = OUT / target
    d.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha1(data).hexdigest()[:10]
    stem = re.sub(r"[^A-Za-z0-9_.-]+", "_", name)[:40].strip("_") or "seed"
    (d / f"{stem}-{digest}").write_bytes(data)


def main():
    corpus = Path(sys.argv[1])
    for path in sorted(corpus.rglob("*")):
        ext = path.suffix.lower().lstrip(".")
        if not path.is_file() or ext not in READERS:
            continue
        raw = path.read_bytes()
        text, enc = decode(raw)
        if text is None:
            continue
        cut = encode(strip_commentary(ext, text), enc, raw.startswith(b"\xef\xbb\xbf"))
        if len(cut) > MAX_BYTES:
            continue
        name = f"{path.parent.name}_{path.name}"
        put(READERS[ext], name, cut)
        put("read_any", name, cut)
        lines = text.splitlines()
        if ext in ("kif", "kifu") and any(line.startswith("|") for line in lines):
            board = [line for line in lines if re.match(r"^(\s*[９9]|\+-|\||[先後上下]手(の持駒|番)|手数)", line)]
            put("bod", name, "\n".join(board).encode())
            put("query", name, "\n".join(board).encode())
        if ext in ("sfen", "usi"):
            for i, line in enumerate(lines[:3]):
                m = re.search(r"sfen (\S+ [bw] \S+ \d+)", line)
                if m:
                    put("sfen", f"{name}{i}", m.group(1).encode())
                    put("query", f"{name}{i}", m.group(1).encode())
        if ext in ("ki2", "ki2u"):
            moves = [line for line in lines if line.startswith(("▲", "△", "☗", "☖"))][:3]
            if moves:
                put("move_sequence", name, " ".join(moves).encode())
    for target, moves in MOVES.items():
        for i, mv in enumerate(moves):
            put(target, f"{target}{i}", mv.encode())
            put(target, f"{target}{i}_start", ("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n" + mv).encode())
    for i, s in enumerate(SEQUENCES):
        put("move_sequence", f"sequence{i}", s.encode())
    for i, y in enumerate(YARI):
        put("yari", f"yari{i}", y.encode())
    put("read_western", "yari_record", YARI[10].encode())
    put("read_usi", "yari_line", f"position sfen {YARI_START} moves 7g7f 3c3d 6i5h 2a3b\n".encode())
    for i, q in enumerate(QUERIES):
        put("query", f"query{i}", q.encode())
        put("sfen", f"query{i}", q.encode())


if __name__ == "__main__":
    main()
