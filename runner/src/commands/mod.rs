//! One module per subcommand.

pub mod analyze;
pub mod confined_exec;
pub mod generate;
pub mod grade;
pub mod merge;
pub mod report;
pub mod run;
pub mod serve;
pub mod show;
pub mod strip_types;
