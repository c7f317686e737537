//! One module per subcommand.

pub mod run;
