#!/bin/sh
# Makes the pictures of docs/ again with the gridsat on PATH (run from the repository's root;
# pngquant, if installed, makes the files a tenth of their size).
set -e
cd "$(dirname "$0")"
p=../../puzzles
gridsat solve $p/sudoku/classic.txt --format png --picture both > sudoku-classic.png
gridsat hint $p/sudoku/explain-example-step20.sukaku --format png > sudoku-wwing.png
# A grouped AIC (HoDoKu's library) and a nested forcing chain (AI Escargot), drawn by a test.
(cd ../.. && GRIDSAT_DOCS_IMAGES=docs/images cargo test --release --test sudoku_explain_pictures)
gridsat solve $p/takuzu/unique-6x6.takuzu --format png --picture both --style circles > takuzu-unique.png
gridsat solve $p/tectonic/first.tectonic --format png --picture both > tectonic-first.png
gridsat solve $p/numberlink/letters.flow --format png --picture both > numberlink-letters.png
gridsat solve $p/shisen/kshisen-14x6.shisen --no-unique --format png > shisen-kshisen.png
# docs/python.md's pictures, drawn from Python (with `pip install ./python` done).
if python3 -c "import gridsat" 2>/dev/null; then
    python3 - <<'PY'
import gridsat
p = gridsat.read(open("../../puzzles/sudoku/classic.txt").read())[0]
open("python-puzzle.png", "wb").write(p.png())
open("python-hint.png", "wb").write(p.hint().png())
PY
fi
if command -v pngquant >/dev/null; then
    for f in *.png; do pngquant --force --strip --quality 70-95 --output "$f" -- "$f"; done
fi
