//! `oaq rules`: list the presets, or print one.

use o_an_quan::rules::presets;

use crate::Failure;

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    show: Option<Show>,
}

#[derive(clap::Subcommand)]
enum Show {
    /// Print a preset's RON file, ready to copy and edit.
    Show { name: String },
}

pub fn run(args: Args) -> Result<(), Failure> {
    match args.show {
        None => {
            for preset in presets::all() {
                println!("{:<16} {} ({})", preset.id, preset.name.en, preset.name.vi);
            }
            Ok(())
        }
        Some(Show::Show { name }) => match presets::source(&name) {
            Some(text) => {
                print!("{text}");
                Ok(())
            }
            None => Err(Failure(format!(
                "no preset {name:?}; `oaq rules` lists them"
            ))),
        },
    }
}
