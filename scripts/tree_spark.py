"""The opening tree of `kifudex export tree`, computed by Spark from the positions exports of
any number of kifudex databases (the shards of one archive, indexed on several machines).

On each machine:

    kifudex export positions --format parquet --out-dir exports/positions

then, with every machine's exports/positions/shard=*/ folders gathered where Spark reads them
(`pip install pyspark` and a Java runtime for a local run, or a cluster's spark-submit):

    python3 scripts/tree_spark.py exports/positions --out tree.csv [--max-ply 10]
    spark-submit scripts/tree_spark.py hdfs:///exports/positions --out tree.csv

PATHS are Parquet files or folders of them (a folder's shard=I/ subfolders are read as
one table). The CSV written has the columns and rows of scripts/tree_duckdb.sql, whose
header says what they mean: those of `kifudex export tree` over one database of every game,
but for `japanese` and `western`. Games are counted by `game_key`, so a game that several
databases hold counts once; the rows are streamed to the one CSV file through the driver, in
the order the DuckDB script gives.
"""

import argparse
import csv
import sys

COLUMNS = ["sfen", "key", "ply", "games", "usi", "played", "reached", "black_wins", "white_wins", "draws"]


def tree(src, max_ply):
    """The tree's rows from `src`, the positions exports (scripts/tree_duckdb.sql takes the
    same steps in SQL, and says why each is there)."""
    from pyspark.sql import functions as F

    def position(column):
        # The SFEN without its move number: board, side to move, hands.
        return F.regexp_replace(column, " [0-9]+$", "")

    early = F.col("ply") <= max_ply
    node_keys = src.where(early).select("key").distinct()
    # Once per game and ply, whichever databases hold the game.
    at_key = (
        src.join(node_keys, "key", "left_semi")
        .select("game_key", "ply", "key", "sfen", position("sfen").alias("pos"), "usi")
        .distinct()
    )
    nodes = at_key.where(early).groupBy("pos").agg(F.min("ply").alias("node_ply"))
    at_node = at_key.join(nodes.select("pos"), "pos", "left_semi")
    after = src.select(
        "game_key",
        (F.col("ply") - 1).alias("ply"),
        F.col("key").alias("child_key"),
        position("sfen").alias("child"),
    )
    steps = (
        at_node.where(F.col("usi").isNotNull())
        .select("game_key", "ply", "pos", "usi")
        .join(after, ["game_key", "ply"])
        .select("pos", "usi", "child_key", "child", "game_key")
        .distinct()
    )
    # A copy that states no result never hides the result another copy states. The exports
    # hold results, not endings: an interrupted copy (`unknown`) states nothing here, where
    # one database keeps its ending when it is the first record to say one (see the README).
    stated = F.when(F.col("result") != "unknown", F.col("result"))
    results = (
        src.where(F.col("ply") == 0)
        .groupBy("game_key")
        .agg(F.coalesce(F.min(stated), F.lit("unknown")).alias("result"))
    )

    def wins(name):
        return F.count(F.when(F.col("result") == name, 1))

    played = (
        steps.join(results, "game_key")
        .groupBy("pos", "usi")
        .agg(
            F.min("child_key").alias("child_key"),
            F.min("child").alias("child"),
            F.count(F.lit(1)).alias("played"),
            wins("black").alias("black_wins"),
            wins("white").alias("white_wins"),
            wins("draw").alias("draws"),
        )
    )
    reached = (
        src.join(played.select(F.col("child_key").alias("key")).distinct(), "key", "left_semi")
        .select("game_key", position("sfen").alias("child"))
        .join(played.select("child").distinct(), "child", "left_semi")
        .groupBy("child")
        .agg(F.countDistinct("game_key").alias("reached"))
    )
    heads = (
        at_node.join(nodes, "pos")
        .groupBy("pos", "node_ply")
        .agg(
            F.min("key").alias("key"),
            # The smallest move number, as a number ("9" before "100").
            F.min_by(
                F.when(F.col("ply") == F.col("node_ply"), F.col("sfen")),
                F.when(
                    F.col("ply") == F.col("node_ply"),
                    F.regexp_extract("sfen", "([0-9]+)$", 1).cast("long"),
                ),
            ).alias("sfen"),
            F.countDistinct("game_key").alias("games"),
        )
    )
    # The key reads as a decimal(20,0); kifudex writes it as 16 hexadecimal digits and sorts
    # it as a signed 64-bit number.
    hex_key = F.lpad(F.lower(F.conv(F.col("key").cast("string"), 10, 16)), 16, "0")
    return (
        heads.join(played, "pos")
        .join(reached, "child")
        .orderBy(
            (F.col("key") >= F.lit("9223372036854775808").cast("decimal(20,0)")).desc(),
            "key",
            "pos",
            F.col("played").desc(),
            "usi",
        )
        .select(
            "sfen",
            hex_key.alias("key"),
            F.col("node_ply").alias("ply"),
            "games",
            "usi",
            "played",
            "reached",
            "black_wins",
            "white_wins",
            "draws",
        )
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="+", metavar="PATH", help="positions exports: Parquet files or folders")
    parser.add_argument("--out", default="-", help="the CSV file to write (default: stdout)")
    parser.add_argument("--max-ply", type=int, default=10, help="the tree's depth (default 10)")
    args = parser.parse_args()
    if args.max_ply < 0:
        parser.error("--max-ply must be 0 or more")

    from pyspark.sql import SparkSession

    spark = (
        SparkSession.builder.appName("kifudex opening tree")
        .config("spark.ui.showConsoleProgress", "false")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("WARN")
    try:
        src = spark.read.parquet(*args.paths).select("game_key", "result", "ply", "key", "sfen", "usi")
        rows = tree(src, args.max_ply).toLocalIterator(prefetchPartitions=True)
        out = sys.stdout if args.out == "-" else open(args.out, "w", newline="", encoding="utf-8")
        try:
            writer = csv.writer(out, lineterminator="\n")
            writer.writerow(COLUMNS)
            for row in rows:
                writer.writerow(["" if row[c] is None else row[c] for c in COLUMNS])
        finally:
            if out is not sys.stdout:
                out.close()
    finally:
        spark.stop()


if __name__ == "__main__":
    main()
