#!/bin/sh
# Makes the pictures of docs/ again with the gridsat on PATH (run from the repository's root;
# pngquant, if installed, makes the files a tenth of their size).
set -e
cd "$(dirname "$0")"
p=../../puzzles
gridsat solve $p/sudoku/classic.txt --format png --picture both > sudoku-classic.png
gridsat hint $p/sudoku/explain-example-step20.sukaku --format png > sudoku-wwing.png
gridsat solve $p/takuzu/unique-6x6.takuzu --format png --picture both --style circles > takuzu-unique.png
gridsat solve $p/tectonic/first.tectonic --format png --picture both > tectonic-first.png
gridsat solve $p/numberlink/letters.flow --format png --picture both > numberlink-letters.png
gridsat solve $p/shisen/kshisen-14x6.shisen --no-unique --format png > shisen-kshisen.png
if command -v pngquant >/dev/null; then
    for f in *.png; do pngquant --force --strip --quality 70-95 --output "$f" -- "$f"; done
fi
