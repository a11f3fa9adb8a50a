//! `gridsat completions SHELL` and `gridsat man`: shell completion scripts and manual pages,
//! both generated from the argument definitions in [`super::args`], so they never drift from
//! what the command line accepts.

use super::args::{Cli, CompletionsArgs, ManArgs};
use crate::error::{Error, Result};
use clap::CommandFactory;

/// Writes the completion script for `a.shell` to standard output.
pub fn completions(a: &CompletionsArgs) -> Result<i32> {
    let mut cmd = Cli::command();
    let mut out = Vec::new();
    clap_complete::generate(a.shell, &mut cmd, "gridsat", &mut out);
    write_stdout(&out)
}

/// Writes `gridsat.1` to standard output, or with `--dir` one page per command into that folder.
pub fn man(a: &ManArgs) -> Result<i32> {
    let cmd = Cli::command();
    match &a.dir {
        Some(dir) => {
            std::fs::create_dir_all(dir)
                .and_then(|_| clap_mangen::generate_to(cmd, dir))
                .map_err(|e| Error::Usage(format!("cannot write manual pages to {dir}: {e}")))?;
            Ok(0)
        }
        None => {
            let mut out = Vec::new();
            clap_mangen::Man::new(cmd)
                .render(&mut out)
                .map_err(|e| Error::Usage(format!("cannot render the manual page: {e}")))?;
            write_stdout(&out)
        }
    }
}

fn write_stdout(bytes: &[u8]) -> Result<i32> {
    let mut out = super::output::Stdout::new();
    out.bytes(bytes)?;
    out.finish()?;
    Ok(0)
}
