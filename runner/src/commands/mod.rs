//! One module per subcommand.

pub mod confined_exec;
pub mod run;
