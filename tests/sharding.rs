//! The recipe of `docs/batches.md` for spreading a collection over several machines with GNU
//! parallel, in its local form: blocks of whole lines go to `gridsat check --json -` on
//! standard input, and the JSON Lines that come back (kept in order with `-k`) are the answers
//! of one `gridsat` run over the whole file. Skipped with a message when `parallel` is not on the PATH
//! (`.ci/run` installs it).

mod common;

use std::process::Command;

fn parallel_found() -> bool {
    let found = Command::new("parallel")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        common::skipped(
            "GNU `parallel` is not on the PATH (apt-get install parallel); the sharding test checks nothing",
        );
    }
    found
}

fn answers(stdout: &[u8]) -> Vec<(String, String)> {
    String::from_utf8_lossy(stdout)
        .lines()
        .map(|l| {
            let o: serde_json::Value = serde_json::from_str(l).expect("JSON Lines");
            (o["status"].to_string(), o["solution"].to_string())
        })
        .collect()
}

#[test]
fn blocks_over_gnu_parallel_give_the_answers_of_one_run() {
    if !parallel_found() {
        return;
    }
    let file = common::puzzle("sudoku/9x9.txt");
    let bin = env!("CARGO_BIN_EXE_gridsat");
    let whole = Command::new(bin)
        .args(["check", "--json", "--no-progress", "-j", "1"])
        .arg(&file)
        .output()
        .unwrap();
    // As in docs/batches.md, with `-N 2` (two puzzles per job) instead of `--block 10M`, so that
    // this small file is cut, and the local machine as the only one.
    let sharded = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "parallel --will-cite --pipe -N 2 -k -j 2 {bin} check --json --no-progress --kind sudoku - < '{}'",
            file.display()
        ))
        .output()
        .unwrap();
    assert!(
        sharded.status.success() || sharded.status.code() == Some(1),
        "{sharded:?}"
    );
    let (a, b) = (answers(&whole.stdout), answers(&sharded.stdout));
    assert_eq!(a.len(), 5);
    assert_eq!(
        a, b,
        "the sharded run answers every puzzle as one run does, in order"
    );
}
