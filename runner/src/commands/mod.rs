//! One module per subcommand.

pub mod analyze;
pub mod confined_exec;
pub mod merge;
pub mod report;
pub mod run;
pub mod serve;
